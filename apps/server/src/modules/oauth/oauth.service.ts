import { createHash } from 'node:crypto';
import type { TAuthSession } from '@kisht/domain/auth/auth.schema';
import { OAUTH_RESULT_PARAMS } from '@kisht/domain/auth/oauth.schema';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { normaliseIndianMobile } from '@kisht/domain/common/identifiers';
import { paths } from '@kisht/domain/paths';
import type { FastifyBaseLogger } from 'fastify';
import { EncryptJWT, jwtDecrypt } from 'jose';
import * as client from 'openid-client';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import { insertAudit } from '../audit/audit.repository';
import {
  claimPendingSession,
  findUser,
  openPendingSession,
  type TClientInfo,
  USER_INACTIVE_MESSAGE,
} from '../auth/auth.service';
import { getOrgAppConfig } from '../orgs/orgs.service';
import * as repo from './oauth.repository';

/** What Google sign-in needs: the database, config and (optionally) a logger for refused sign-ins. */
export type OauthDeps = { db: Db; config: TConfig; log?: FastifyBaseLogger };

/** The cookie holding one sign-in's state, nonce and PKCE verifier (encrypted), between the two redirects. */
export const OAUTH_COOKIE = 'kisht_oauth';
/** The cookie's path: only the OAuth routes ever receive it. */
const COOKIE_PATH = '/api/auth/oauth';
/** How long a sign-in at Google may take before it must start again. */
const TRANSACTION_TTL_SECONDS = 600;
/** How long the one-time ticket (and its pending session) lives: the login page uses it at once. */
const TICKET_TTL_MS = 120_000;
/** The web app's login route (apps/web lib/paths.ts appPaths.login), where the callback sends the browser. */
const WEB_LOGIN_PATH = '/login';
const TRANSACTION_AUDIENCE = 'kisht:oauth:transaction';
const TICKET_AUDIENCE = 'kisht:oauth:ticket';

/** True when Sign in with Google is configured (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET). */
export const isGoogleSignInEnabled = (config: TConfig): boolean =>
  Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);

/** A 256-bit key for the cookie and the ticket (A256GCM), derived from JWT_SECRET. */
const encryptionKey = (config: TConfig): Uint8Array =>
  createHash('sha256').update(`kisht:oauth:v1:${config.JWT_SECRET}`).digest();

const encrypt = (config: TConfig, payload: Record<string, unknown>, audience: string, ttlSeconds: number) =>
  new EncryptJWT(payload)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .encrypt(encryptionKey(config));

/** The payload of an encrypted token of this audience, or null when it is bad, altered or expired. */
const decrypt = async (config: TConfig, token: string, audience: string) => {
  try {
    return (await jwtDecrypt(token, encryptionKey(config), { audience })).payload;
  } catch {
    return null;
  }
};

const configurations = new Map<string, Promise<client.Configuration>>();

/**
 * The provider's configuration from its discovery document (cached per issuer and client; a failed
 * discovery is forgotten, so the next sign-in tries again). An http issuer (a local test provider)
 * is allowed outside production only.
 */
const providerConfiguration = (config: TConfig): Promise<client.Configuration> => {
  const key = `${config.GOOGLE_OIDC_ISSUER} ${config.GOOGLE_CLIENT_ID}`;
  let found = configurations.get(key);
  if (!found) {
    const isHttp = new URL(config.GOOGLE_OIDC_ISSUER).protocol === 'http:';
    found = client.discovery(
      new URL(config.GOOGLE_OIDC_ISSUER),
      config.GOOGLE_CLIENT_ID!,
      config.GOOGLE_CLIENT_SECRET!,
      undefined,
      {
        // The ID token's signature is checked against the provider's JWKS (openid-client v6 leaves
        // it unchecked for a token from the token endpoint unless asked; issue 27).
        execute: [
          client.enableNonRepudiationChecks,
          ...(isHttp && config.NODE_ENV !== 'production' ? [client.allowInsecureRequests] : []),
        ],
      },
    );
    found.catch(() => configurations.delete(key));
    configurations.set(key, found);
  }
  return found;
};

const redirectUriOf = (baseUrl: string) => new URL(paths.oauth.callback, baseUrl).toString();

/** A Set-Cookie value for the sign-in cookie (`value` '' with Max-Age 0 clears it). */
const cookieHeader = (baseUrl: string, value: string, maxAgeSeconds: number) =>
  [
    `${OAUTH_COOKIE}=${value}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(baseUrl.startsWith('https:') ? ['Secure'] : []),
  ].join('; ');

/** The sign-in cookie's value in a Cookie header, or null. */
const readCookie = (header: string | undefined): string | null => {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === OAUTH_COOKIE) return value.join('=') || null;
  }
  return null;
};

/**
 * getOauthUrl (spec §7): starts Sign in with Google (OpenID Connect authorization code flow with
 * PKCE S256, state and nonce) for a shop of the organisation. Answers the provider's authorization
 * URL and a Set-Cookie value: the state, nonce, PKCE verifier and organisation, encrypted (JWE,
 * A256GCM, key from JWT_SECRET) into an HttpOnly, SameSite=Lax cookie scoped to the OAuth routes,
 * valid 10 minutes. No table holds it; the callback only accepts a state matching its own browser's
 * cookie, so a sign-in cannot be finished in someone else's browser (login CSRF).
 * Throws NOT_FOUND when Google sign-in is not configured or the organisation does not exist.
 */
export const startGoogleSignIn = async (
  deps: OauthDeps,
  options: { orgId: number; baseUrl: string },
): Promise<{ url: string; setCookie: string }> => {
  if (!isGoogleSignInEnabled(deps.config)) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Sign in with Google is not set up for this app');
  }
  await getOrgAppConfig(deps.db, options.orgId);
  const configuration = await providerConfiguration(deps.config).catch((error: unknown) => {
    deps.log?.warn({ err: error }, 'OpenID provider discovery failed');
    throw new AppError(
      AppErrorCode.OAUTH_FAILED,
      'Google sign-in is not available just now. Please try again',
    );
  });
  const state = client.randomState();
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUriOf(options.baseUrl),
    scope: 'openid email',
    response_type: 'code',
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const transaction = await encrypt(
    deps.config,
    { state, nonce, verifier, org: options.orgId },
    TRANSACTION_AUDIENCE,
    TRANSACTION_TTL_SECONDS,
  );
  return {
    url: url.toString(),
    setCookie: cookieHeader(options.baseUrl, transaction, TRANSACTION_TTL_SECONDS),
  };
};

class SignInRefused extends Error {
  constructor(
    readonly code: 'OAUTH_NOT_LINKED' | 'OAUTH_FAILED',
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * The one account of several with the same e-mail or mobile: the only active one, else (none
 * active) the only one; null when that is not a single account.
 */
const singleMatch = (found: repo.TLinkableUser[]): repo.TLinkableUser | null => {
  const active = found.filter((user) => user.isActive);
  const pool = active.length > 0 ? active : found;
  return pool.length === 1 ? pool[0]! : null;
};

/**
 * The shop account these ID token claims reach, linking it on first use: the account already
 * linked to the Google subject (`sub`); else the one account whose e-mail equals a verified
 * `email` (`email_verified` true); else the one whose mobile equals a verified `phone_number`
 * (`phone_number_verified` true); among several with the same e-mail or mobile, the only active
 * one. Only retailers and mini-retailers of the organisation, never customers or admins; an account
 * linked to another Google subject is not taken over, and nothing is ever created. A deactivated
 * account is found (and answered with `isActive` false, for USER_INACTIVE) but never linked.
 * Throws SignInRefused(OAUTH_NOT_LINKED) otherwise.
 */
const linkedUser = async (
  deps: OauthDeps,
  orgId: number,
  claims: client.IDToken,
): Promise<{ id: number; isActive: boolean }> => {
  const subject = claims.sub;
  const bySubject = await repo.findUserBySubject(deps.db, orgId, subject);
  if (bySubject) return bySubject;
  const candidates: { by: 'email' | 'mobile'; found: repo.TLinkableUser[] }[] = [];
  if (claims.email_verified === true && typeof claims.email === 'string') {
    candidates.push({ by: 'email', found: await repo.findUsersByEmail(deps.db, orgId, claims.email) });
  }
  const mobile =
    claims.phone_number_verified === true && typeof claims.phone_number === 'string'
      ? normaliseIndianMobile(claims.phone_number)
      : null;
  if (mobile) candidates.push({ by: 'mobile', found: await repo.findUsersByMobile(deps.db, orgId, mobile) });
  const match = candidates.find((candidate) => candidate.found.length > 0);
  const user = match ? singleMatch(match.found) : null;
  if (!match || !user || user.googleSubject !== null) {
    throw new SignInRefused(
      'OAUTH_NOT_LINKED',
      'no single unlinked shop account with a verified e-mail or mobile',
    );
  }
  // Proven to be this account, but it is deactivated: refused at completion, nothing written.
  if (!user.isActive) return user;
  const linked = await deps.db
    .transaction(async (tx) => {
      if (!(await repo.linkGoogleSubject(tx, user.id, subject))) return false;
      await insertAudit(tx, {
        orgId,
        actorUserId: user.id,
        action: 'user.google_linked',
        entity: 'user',
        entityId: String(user.id),
        details: { by: match.by },
      });
      return true;
    })
    // The subject is linked to another account of the organisation (users_org_google_subject_uq).
    .catch(() => false);
  if (!linked) throw new SignInRefused('OAUTH_NOT_LINKED', 'the account was linked meanwhile');
  return user;
};

/**
 * The provider's redirect back (paths.oauth.callback): checks the sign-in cookie and its state,
 * exchanges the code (PKCE verifier, state, nonce and the ID token's signature, issuer, audience
 * and expiry all checked by openid-client), finds the linked shop account (linkedUser) and opens a
 * pending session for it. Answers where to send the browser: the web app's login page with
 * `oauth_ticket` (a one-time ticket, 2 minutes, encrypted, naming the user and the pending session)
 * or with `oauth_error` OAUTH_NOT_LINKED / OAUTH_FAILED; and the Set-Cookie value that clears the
 * cookie. A deactivated account gets a ticket without a session (nothing is written), which
 * completeGoogleSignIn refuses with USER_INACTIVE (403), as the OTP and MPIN logins refuse it once
 * the person has proved who they are. Never throws.
 */
export const finishGoogleSignIn = async (
  deps: OauthDeps,
  options: {
    baseUrl: string;
    query: Record<string, unknown>;
    cookie: string | undefined;
    client: TClientInfo;
  },
): Promise<{ location: string; setCookie: string }> => {
  const login = new URL(WEB_LOGIN_PATH, options.baseUrl);
  const setCookie = cookieHeader(options.baseUrl, '', 0);
  try {
    if (!isGoogleSignInEnabled(deps.config)) throw new SignInRefused('OAUTH_FAILED', 'not configured');
    const cookie = readCookie(options.cookie);
    const transaction = cookie ? await decrypt(deps.config, cookie, TRANSACTION_AUDIENCE) : null;
    if (!transaction) throw new SignInRefused('OAUTH_FAILED', 'no valid sign-in cookie');
    const { state, nonce, verifier, org } = transaction as {
      state: string;
      nonce: string;
      verifier: string;
      org: number;
    };
    if (typeof options.query.error === 'string') {
      throw new SignInRefused('OAUTH_FAILED', `provider answered ${options.query.error}`);
    }
    if (options.query.state !== state) throw new SignInRefused('OAUTH_FAILED', 'state does not match');
    const currentUrl = new URL(redirectUriOf(options.baseUrl));
    for (const [key, value] of Object.entries(options.query)) {
      if (typeof value === 'string') currentUrl.searchParams.set(key, value);
    }
    const tokens = await client
      .authorizationCodeGrant(await providerConfiguration(deps.config), currentUrl, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      })
      .catch((error: unknown) => {
        throw new SignInRefused('OAUTH_FAILED', `code exchange failed: ${String(error)}`);
      });
    const claims = tokens.claims();
    if (!claims) throw new SignInRefused('OAUTH_FAILED', 'no ID token');
    const user = await linkedUser(deps, org, claims);
    const sessionId = user.isActive
      ? await openPendingSession(deps, { userId: user.id, client: options.client, pendingMs: TICKET_TTL_MS })
      : null;
    const ticket = await encrypt(
      deps.config,
      { uid: user.id, ...(sessionId ? { sid: sessionId } : {}) },
      TICKET_AUDIENCE,
      TICKET_TTL_MS / 1000,
    );
    login.searchParams.set(OAUTH_RESULT_PARAMS.ticket, ticket);
  } catch (error) {
    const refused = error instanceof SignInRefused ? error : new SignInRefused('OAUTH_FAILED', String(error));
    deps.log?.info({ reason: refused.message }, `Google sign-in refused: ${refused.code}`);
    login.searchParams.set(OAUTH_RESULT_PARAMS.error, refused.code);
  }
  return { location: login.toString(), setCookie };
};

/**
 * paths.oauth.complete: exchanges the callback's one-time ticket for the session (the same
 * TAuthSession the OTP login answers). Each ticket works once, within 2 minutes, also across
 * server processes (auth.service claimPendingSession). Throws USER_INACTIVE (403) when the account
 * is deactivated (at the callback or since; no session is opened), OAUTH_FAILED (400) otherwise.
 */
export const completeGoogleSignIn = async (
  deps: OauthDeps,
  options: { ticket: string },
): Promise<TAuthSession> => {
  const refused = () =>
    new AppError(
      AppErrorCode.OAUTH_FAILED,
      'This Google sign-in has expired or was already used. Please try again',
    );
  const payload = await decrypt(deps.config, options.ticket, TICKET_AUDIENCE);
  if (!payload || typeof payload.uid !== 'number') throw refused();
  const user = await findUser(deps.db, payload.uid);
  if (user && !user.isActive) throw new AppError(AppErrorCode.USER_INACTIVE, USER_INACTIVE_MESSAGE);
  if (typeof payload.sid !== 'string') throw refused();
  const session = await claimPendingSession(deps, { sessionId: payload.sid, pendingMs: TICKET_TTL_MS });
  if (!session) throw refused();
  return session;
};
