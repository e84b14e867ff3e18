import type { TAuthSession } from '@kisht/domain/auth/auth.schema';
import type { TAppConfig, TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { SignInButton } from '../features/auth/components/sign-in-ui';
import { brandOf, type TSignInEnv, type TSignInLocation } from '../features/auth/sign-in-env';
import { isSignInPath, SignInScreens } from '../features/auth/sign-in-screens';
import { saveAuthSession } from '../lib/auth-storage';
import { BOOTSTRAP_API_BASE_URL, ORG_ID } from '../lib/config';
import { errorWordsIn } from '../lib/error-codes';
import { plainCall, type TPlainCallContext, type TPlainRequest } from '../lib/http/plain-call';
import { rememberInstallation, startInstallation } from '../lib/installation';
import { detectLanguage, type TLanguage } from '../lib/languages';
import { appPaths } from '../lib/paths';
import { loadTranslations, type TTranslate } from '../lib/plain-i18n';
import { JOIN_PARAM } from './join-param';
import { SignInReloadPrompt } from './sign-in-reload-prompt';

/*
 * The light start (issue 28): on /login, /otp and /m_pin the first screen paints with React and
 * the sign-in screens only, before MUI, the router, the store and i18next load. The rest of the app
 * is fetched while the OTP is typed, and takes over the page once the user is signed in (or asks
 * to join, or leaves the sign-in screens any other way).
 */

/**
 * Whether this page load starts light: a sign-in screen, no session the screen would leave, and
 * not the join request (the app's form).
 */
export const startsLight = (location: { pathname: string; search: string }, signedIn: boolean): boolean =>
  isSignInPath(location.pathname) &&
  (!signedIn || location.pathname === appPaths.mPin.path) &&
  new URLSearchParams(location.search).get(JOIN_PARAM) === null;

/** The address as the sign-in screens see it; the state as react-router keeps it (`usr`). */
const currentLocation = (): TSignInLocation => ({
  pathname: window.location.pathname,
  search: window.location.search,
  state: (window.history.state as { usr?: unknown } | null)?.usr ?? null,
});

type TLightStart = {
  t: TTranslate;
  language: TLanguage;
  orgConfig: TOrgAppConfig | null;
  /** Hands the page to the app at `to` (pushed, or replacing the current entry). */
  handOff: (to: string, replace: boolean) => void;
  /** Starts loading the app in the background. */
  prefetchApp: () => void;
};

const LightSignIn = ({ start }: { start: TLightStart }) => {
  const { t, language, orgConfig, handOff, prefetchApp } = start;
  const [location, setLocation] = useState(currentLocation);
  const [appConfig, setAppConfig] = useState<TAppConfig | null>(null);

  const baseUrl = orgConfig?.apiBaseUrl ?? BOOTSTRAP_API_BASE_URL;

  const context = useMemo<TPlainCallContext>(
    () => ({
      baseUrl,
      orgId: orgConfig?.orgId ?? ORG_ID,
      requestTokenSecret: appConfig?.requestTokenSecret ?? null,
      words: errorWordsIn(t, language),
      onSessionGone: () => {
        rememberInstallation();
        window.history.replaceState(null, '', appPaths.login.href());
        setLocation(currentLocation());
      },
    }),
    [baseUrl, orgConfig, appConfig, t, language],
  );

  // The client config (the request token's secret, Google sign-in) comes from the organisation's API.
  useEffect(() => {
    const unsigned = {
      baseUrl,
      orgId: ORG_ID,
      requestTokenSecret: null,
      words: { fallbackMessage: () => '' },
    };
    void plainCall<TAppConfig>(unsigned, { url: paths.orgs.clientConfig }).then((result) => {
      if (result.data) setAppConfig(result.data);
    });
  }, [baseUrl]);

  useEffect(() => {
    const onPopState = () => {
      if (isSignInPath(window.location.pathname)) setLocation(currentLocation());
      else handOff(window.location.href, true);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [handOff]);

  // The app is fetched once the user is past the first screen (typing the OTP or the MPIN).
  useEffect(() => {
    if (location.pathname !== appPaths.login.path) prefetchApp();
  }, [location.pathname, prefetchApp]);

  const env = useMemo<TSignInEnv>(
    () => ({
      t,
      location,
      navigate: (to, options = {}) => {
        const url = new URL(to, window.location.origin);
        if (!isSignInPath(url.pathname)) return handOff(to, options.replace === true);
        const entry = { usr: options.state ?? null, key: Math.random().toString(36).slice(2, 10) };
        if (options.replace) window.history.replaceState(entry, '', to);
        else window.history.pushState(entry, '', to);
        setLocation(currentLocation());
      },
      call: <T,>(request: TPlainRequest) => plainCall<T>(context, request),
      brand: brandOf(orgConfig, ORG_ID, language),
      googleSignIn: appConfig?.googleSignIn === true,
      keepSession: (session: TAuthSession) => saveAuthSession(session),
      // The join request's form is the app's: asking to join hands the page over with it open.
      loginFooter: (
        <SignInButton
          onClick={() => handOff(`${appPaths.login.href()}?${JOIN_PARAM}=1`, false)}
          testId="join-open"
        >
          {t('joining.link')}
        </SignInButton>
      ),
    }),
    [t, location, context, orgConfig, language, appConfig, handOff],
  );

  return (
    <>
      <SignInScreens env={env} />
      <SignInReloadPrompt t={t} language={language} />
    </>
  );
};

/**
 * Starts the sign-in screens light in `container`: the language (lib/languages detectLanguage) and
 * its strings, and the organisation's config, fetched together, then the screen. `loadApp` loads
 * the app's module and `startApp` mounts it: fetched on the way to the OTP or MPIN, mounted when
 * the sign-in screens are left. Should the strings not load at all, the app starts instead.
 */
export const startSignInLight = async (
  container: HTMLElement,
  loadApp: () => Promise<unknown>,
  startApp: () => void,
): Promise<void> => {
  startInstallation();
  const requested = detectLanguage();
  document.documentElement.lang = requested;
  const bootstrap: TPlainCallContext = {
    baseUrl: BOOTSTRAP_API_BASE_URL,
    orgId: ORG_ID,
    requestTokenSecret: null,
    words: { fallbackMessage: () => '' },
  };
  const [strings, orgConfig] = await Promise.all([
    loadTranslations(requested).catch(() => null),
    plainCall<TOrgAppConfig>(bootstrap, { url: paths.orgs.appConfig, params: { org_id: ORG_ID } }),
  ]);
  if (!strings) {
    startApp();
    return;
  }
  if (orgConfig.data?.orgName) document.title = orgConfig.data.orgName;
  let root: Root | null = createRoot(container);
  let isPrefetched = false;
  const prefetchApp = () => {
    if (isPrefetched) return;
    isPrefetched = true;
    void loadApp().catch(() => undefined);
  };
  const handOff = (to: string, replace: boolean) => {
    if (!root) return;
    if (replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    root.unmount();
    root = null;
    startApp();
  };
  root.render(
    <StrictMode>
      <LightSignIn
        start={{
          t: strings.t,
          language: strings.language,
          orgConfig: orgConfig.data ?? null,
          handOff,
          prefetchApp,
        }}
      />
    </StrictMode>,
  );
};
