import type { TAuthSession, TCurrentUser, TLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import type { TOtpPurpose } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TSessionInfo } from '@kisht/domain/sessions/sessions.schema';
import { jwtVerify, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import type { TConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { hashSecret, hexEquals, hmacHex, randomDigits, verifySecret } from '../../lib/crypto';
import * as repo from './auth.repository';
import type { SmsTransport } from './sms';

export type AuthDeps = { db: Db; config: TConfig; sms: SmsTransport };

const OTP_DIGITS = 6;
const SESSION_TOUCH_INTERVAL_MS = 60_000;

const otpHash = (
  config: TConfig,
  challenge: { orgId: number; mobile: string; purpose: string },
  code: string,
) => hmacHex(config.OTP_PEPPER, `${challenge.orgId}:${challenge.mobile}:${challenge.purpose}:${code}`);

/**
 * Issues an OTP for a user of the organisation and sends it by SMS. Only an HMAC of the code is
 * stored. Throws USER_NOT_FOUND for an unknown mobile and RATE_LIMITED inside the resend
 * cool-down. Outside production the code is also returned as devOtp (for the dev banner).
 */
export const requestOtp = async (
  deps: AuthDeps,
  options: { orgId: number; mobile: string; purpose: TOtpPurpose },
): Promise<TLoginWithOtpResponse> => {
  const { db, config, sms } = deps;
  const user = await repo.findUserByMobile(db, options.orgId, options.mobile);
  if (!user) throw new AppError(AppErrorCode.USER_NOT_FOUND, 'No account with this mobile number');
  const latest = await repo.findLatestOtp(db, options.orgId, options.mobile, options.purpose);
  const now = Date.now();
  if (latest && now - latest.createdAt.getTime() < config.OTP_RESEND_AFTER_SECONDS * 1000) {
    const wait = Math.ceil(
      (latest.createdAt.getTime() + config.OTP_RESEND_AFTER_SECONDS * 1000 - now) / 1000,
    );
    throw new AppError(
      AppErrorCode.RATE_LIMITED,
      `Please wait ${wait} seconds before asking for another OTP`,
    );
  }
  const code = randomDigits(OTP_DIGITS);
  await repo.insertOtp(db, {
    orgId: options.orgId,
    mobile: options.mobile,
    purpose: options.purpose,
    codeHash: otpHash(config, options, code),
    expiresAt: new Date(now + config.OTP_TTL_SECONDS * 1000),
  });
  await sms.send({
    to: options.mobile,
    text: `${code} is your Kisht OTP. It expires in ${config.OTP_TTL_SECONDS / 60} minutes.`,
  });
  return {
    expiresInSeconds: config.OTP_TTL_SECONDS,
    resendAfterSeconds: config.OTP_RESEND_AFTER_SECONDS,
    ...(config.NODE_ENV === 'production' ? {} : { devOtp: code }),
  };
};

/**
 * Checks an OTP against the newest challenge for the mobile and purpose, counting wrong tries.
 * Throws OTP_EXPIRED (none, expired, used, or out of attempts) or OTP_INVALID (wrong code).
 */
export const verifyOtp = async (
  deps: AuthDeps,
  options: { orgId: number; mobile: string; purpose: TOtpPurpose; code: string },
): Promise<void> => {
  const { db, config } = deps;
  const challenge = await repo.findLatestOtp(db, options.orgId, options.mobile, options.purpose);
  const isUsable =
    challenge &&
    !challenge.consumedAt &&
    challenge.expiresAt.getTime() > Date.now() &&
    challenge.attempts < config.OTP_MAX_ATTEMPTS;
  if (!challenge || !isUsable) {
    throw new AppError(AppErrorCode.OTP_EXPIRED, 'OTP expired. Please request a new one', [
      { field: 'otp', message: 'OTP expired. Please request a new one' },
    ]);
  }
  if (!hexEquals(challenge.codeHash, otpHash(config, options, options.code))) {
    await repo.recordOtpAttempt(db, challenge.id, challenge.attempts + 1);
    throw new AppError(AppErrorCode.OTP_INVALID, 'Incorrect OTP', [
      { field: 'otp', message: 'Incorrect OTP' },
    ]);
  }
  if (!(await repo.consumeOtp(db, challenge.id))) {
    throw new AppError(AppErrorCode.OTP_EXPIRED, 'OTP already used', [
      { field: 'otp', message: 'OTP already used' },
    ]);
  }
};

const jwtKey = (config: TConfig) => new TextEncoder().encode(config.JWT_SECRET);

/** Client details of spec §7 recorded on a session (all optional, as sent). */
export type TClientInfo = {
  userAgent?: string;
  platform?: string;
  browserName?: string;
  browserVersion?: string;
  deviceType?: string;
  devicePlatform?: string;
  deviceDetails?: string;
};

type UserRow = NonNullable<Awaited<ReturnType<typeof repo.findUserById>>>;

/** The user row with this id (any organisation: callers scope it), or null. */
export const findUser = (db: DbOrTx, id: number): Promise<UserRow | null> => repo.findUserById(db, id);

const toCurrentUser = (user: UserRow): TCurrentUser => ({
  id: user.id,
  orgId: user.orgId,
  userType: user.userType,
  name: user.name,
  mobile: user.mobile,
  hasMpin: user.mpinHash !== null,
});

/** Opens a session row for the user and signs an HS256 JWT naming it (design §6). */
const openSession = async (deps: AuthDeps, user: UserRow, client: TClientInfo): Promise<TAuthSession> => {
  const sessionId = uuidv7();
  const expiresAt = new Date(Date.now() + deps.config.SESSION_TTL_DAYS * 86_400_000);
  await repo.insertSession(deps.db, {
    id: sessionId,
    orgId: user.orgId,
    userId: user.id,
    userAgent: client.userAgent ?? null,
    platform: client.platform ?? null,
    browserName: client.browserName ?? null,
    browserVersion: client.browserVersion ?? null,
    deviceType: client.deviceType ?? null,
    devicePlatform: client.devicePlatform ?? null,
    deviceDetails: client.deviceDetails ?? null,
    expiresAt,
  });
  const token = await new SignJWT({ org: user.orgId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(user.id))
    .setJti(sessionId)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(jwtKey(deps.config));
  return { token, user: toCurrentUser(user) };
};

const requireUser = async (deps: Pick<AuthDeps, 'db'>, orgId: number, mobile: string): Promise<UserRow> => {
  const user = await repo.findUserByMobile(deps.db, orgId, mobile);
  if (!user) throw new AppError(AppErrorCode.USER_NOT_FOUND, 'No account with this mobile number');
  return user;
};

/** Verifies a LOGIN OTP and opens a session (spec §2 login/otp). Client details go on the session. */
export const loginWithOtp = async (
  deps: AuthDeps,
  options: { orgId: number; mobile: string; code: string; client: TClientInfo },
): Promise<TAuthSession> => {
  await verifyOtp(deps, { ...options, purpose: 'LOGIN' });
  return openSession(deps, await requireUser(deps, options.orgId, options.mobile), options.client);
};

const MPIN_LOCKED_MESSAGE = 'Too many wrong MPINs. Log in with OTP or reset your MPIN';

/**
 * Logs in with mobile and MPIN (spec §2 m_pin). Each attempt first reserves a try in one atomic
 * UPDATE (repo.reserveMpinAttempt) and only then runs scrypt, so however many requests arrive at
 * once, at most MPIN_MAX_ATTEMPTS guesses are evaluated per lock window; the try that reaches the
 * limit locks the MPIN for MPIN_LOCK_MINUTES, and a right MPIN clears the count and the lock.
 * Throws USER_NOT_FOUND, MPIN_NOT_SET, MPIN_LOCKED (also for every attempt refused unevaluated)
 * or MPIN_INVALID with the tries left.
 * Sources: OWASP ASVS 5.0, chapter V6 Authentication, 6.3.1 (brute-force controls implemented as
 * documented; 6.1.1 asks that they be documented); NIST SP 800-63B (rev. 3) §5.2.2 Rate Limiting
 * (Throttling): the verifier SHALL limit consecutive failed attempts on a single account.
 */
export const loginWithMpin = async (
  deps: AuthDeps,
  options: { orgId: number; mobile: string; mpin: string; client: TClientInfo },
): Promise<TAuthSession> => {
  const { config, db } = deps;
  const user = await requireUser(deps, options.orgId, options.mobile);
  if (!user.mpinHash) {
    throw new AppError(
      AppErrorCode.MPIN_NOT_SET,
      'No MPIN is set for this account. Log in with OTP to set one',
    );
  }
  const reserved = await repo.reserveMpinAttempt(db, user.id, {
    maxAttempts: config.MPIN_MAX_ATTEMPTS,
    lockMinutes: config.MPIN_LOCK_MINUTES,
  });
  if (!reserved) throw new AppError(AppErrorCode.MPIN_LOCKED, MPIN_LOCKED_MESSAGE);
  // The hash comes from the reserved row, so an MPIN changed meanwhile is checked as it now is.
  if (reserved.mpinHash && (await verifySecret(options.mpin, reserved.mpinHash))) {
    await repo.updateUserMpin(db, user.id, { mpinFailedAttempts: 0, mpinLockedUntil: null });
    return openSession(deps, user, options.client);
  }
  if (reserved.attempts >= config.MPIN_MAX_ATTEMPTS) {
    throw new AppError(AppErrorCode.MPIN_LOCKED, MPIN_LOCKED_MESSAGE);
  }
  const left = config.MPIN_MAX_ATTEMPTS - reserved.attempts;
  throw new AppError(
    AppErrorCode.MPIN_INVALID,
    `Incorrect MPIN. ${left} ${left === 1 ? 'try' : 'tries'} left`,
    [{ field: 'mpin', message: 'Incorrect MPIN' }],
  );
};

/** Sets or changes the logged-in user's MPIN (stored as scrypt), clearing any MPIN lock. */
export const setMpin = async (
  deps: Pick<AuthDeps, 'db'>,
  actor: TActor,
  mpin: string,
): Promise<TCurrentUser> => {
  await repo.updateUserMpin(deps.db, actor.userId, {
    mpinHash: await hashSecret(mpin),
    mpinFailedAttempts: 0,
    mpinLockedUntil: null,
  });
  return getCurrentUser(deps, actor);
};

/**
 * Resets a forgotten MPIN with an OTP of purpose FORGOT_PASSWORD (spec §4). Throws USER_NOT_FOUND,
 * OTP_EXPIRED or OTP_INVALID.
 */
export const resetMpin = async (
  deps: AuthDeps,
  options: { orgId: number; mobile: string; code: string; mpin: string },
): Promise<void> => {
  const user = await requireUser(deps, options.orgId, options.mobile);
  await verifyOtp(deps, {
    orgId: options.orgId,
    mobile: options.mobile,
    code: options.code,
    purpose: 'FORGOT_PASSWORD',
  });
  await repo.updateUserMpin(deps.db, user.id, {
    mpinHash: await hashSecret(options.mpin),
    mpinFailedAttempts: 0,
    mpinLockedUntil: null,
  });
};

/**
 * Resolves a bearer token to the acting user. Throws SESSION_INVALID (HTTP 511, spec §8) for a
 * missing, malformed, expired or revoked session.
 */
export const authenticateToken = async (
  deps: Pick<AuthDeps, 'db' | 'config'>,
  token: string | undefined,
): Promise<TActor> => {
  const invalid = () =>
    new AppError(AppErrorCode.SESSION_INVALID, 'Your session has ended. Please log in again');
  if (!token) throw invalid();
  let sessionId: string | undefined;
  try {
    const { payload } = await jwtVerify(token, jwtKey(deps.config), { algorithms: ['HS256'] });
    sessionId = payload.jti;
  } catch {
    throw invalid();
  }
  if (!sessionId) throw invalid();
  const live = await repo.findLiveSession(deps.db, sessionId);
  if (!live) throw invalid();
  if (Date.now() - live.session.lastSeenAt.getTime() > SESSION_TOUCH_INTERVAL_MS) {
    await repo.touchSession(deps.db, sessionId);
  }
  return { userId: live.user.id, orgId: live.user.orgId, userType: live.user.userType, sessionId };
};

/** Ends the caller's session; its token answers 511 from now on. */
export const logout = async (deps: Pick<AuthDeps, 'db'>, actor: TActor): Promise<void> => {
  await repo.revokeSession(deps.db, actor.sessionId);
};

/** The logged-in user. */
export const getCurrentUser = async (deps: Pick<AuthDeps, 'db'>, actor: TActor): Promise<TCurrentUser> => {
  const user = await repo.findUserById(deps.db, actor.userId);
  if (!user) throw new AppError(AppErrorCode.SESSION_INVALID, 'Your session has ended. Please log in again');
  return toCurrentUser(user);
};

/** The user's live sessions for the sessions screen, the caller's marked current. */
export const listMySessions = async (deps: Pick<AuthDeps, 'db'>, actor: TActor): Promise<TSessionInfo[]> =>
  (await repo.listLiveSessions(deps.db, actor.userId)).map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    platform: s.platform,
    browserName: s.browserName,
    browserVersion: s.browserVersion,
    deviceType: s.deviceType,
    devicePlatform: s.devicePlatform,
    userAgent: s.userAgent,
    isCurrent: s.id === actor.sessionId,
  }));

/** Logs out one of the user's own sessions. Throws NOT_FOUND for anyone else's or an ended one. */
export const logoutMySession = async (
  deps: Pick<AuthDeps, 'db'>,
  actor: TActor,
  sessionId: string,
): Promise<void> => {
  if (!(await repo.revokeUserSession(deps.db, actor.userId, sessionId))) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Session not found');
  }
};
