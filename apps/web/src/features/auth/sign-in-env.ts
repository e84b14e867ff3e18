import type { TAuthSession } from '@kisht/domain/auth/auth.schema';
import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import type { ReactNode } from 'react';
import {
  DEFAULT_PRIMARY_COLOR,
  DEFAULT_SECONDARY_COLOR,
  fontStackFor,
  usableCssColor,
} from '../../lib/brand';
import type { TPlainRequest, TPlainResult } from '../../lib/http/plain-call';
import type { TLanguage } from '../../lib/languages';
import type { TTranslate } from '../../lib/plain-i18n';

/** Where the sign-in screens are: the address's path, query and the state it was opened with. */
export type TSignInLocation = { pathname: string; search: string; state: unknown };

/** The organisation's white label as the sign-in screens show it (spec §1 org config). */
export type TSignInBrand = {
  orgId: number;
  /** The organisation's name; '' when its config could not be had (the app's name shows). */
  orgName: string;
  companyName: string;
  logoUrl: string | null;
  primaryColor: string;
  secondaryColor: string;
  /** The font stack of the language shown (lib/brand fontStackFor). */
  fontFamily: string;
};

/**
 * What the sign-in screens (login, otp, m_pin) need from whatever runs them (issue 28): the light
 * start-up before the app loads (app/sign-in-start.tsx) or the app's router (app/sign-in-route.tsx).
 * The screens themselves load neither MUI, the router, the store nor i18next.
 */
export type TSignInEnv = {
  t: TTranslate;
  location: TSignInLocation;
  /** Opens another address: a sign-in screen, or the signed-in app (the dashboard). */
  navigate: (to: string, options?: { state?: unknown; replace?: boolean }) => void;
  /** One API call (lib/http/plain-call): never throws. */
  call: <T>(request: TPlainRequest) => Promise<TPlainResult<T>>;
  brand: TSignInBrand;
  /** True when the server offers Sign in with Google (app config). */
  googleSignIn: boolean;
  /** A session was verified: store it (spec §3 keys) and forget the previous user's cached data. */
  keepSession: (session: TAuthSession) => void;
  /** Says something went well (a toast in the app; the sign-in screens' own notice otherwise). */
  notify?: (message: string) => void;
  /** What else the login screen offers (the join request), composed by app/. */
  loginFooter?: ReactNode;
};

/**
 * The sign-in screens' brand from the organisation's config (spec §1), or Kisht's own without one;
 * the font stack of `language`.
 */
export const brandOf = (config: TOrgAppConfig | null, orgId: number, language: TLanguage): TSignInBrand => ({
  orgId: config?.orgId ?? orgId,
  orgName: config?.orgName ?? '',
  companyName: config?.companyName ?? '',
  logoUrl: config?.theme.logoUrl || null,
  primaryColor: usableCssColor(config?.theme.primaryColor, DEFAULT_PRIMARY_COLOR),
  secondaryColor: usableCssColor(config?.theme.secondaryColor, DEFAULT_SECONDARY_COLOR),
  fontFamily: fontStackFor(language),
});
