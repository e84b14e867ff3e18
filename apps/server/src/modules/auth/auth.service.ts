import type {
  TAuthSession,
  TCurrentUser,
  TLoginWithOtpResponse,
  TOtpDelivery,
} from '@kisht/domain/auth/auth.schema';
import {
  OTP_LIMIT_WINDOW_MS,
  refuseOtpSend,
  refuseOtpTry,
  type TOtpLimits,
  type TOtpRefusal,
} from '@kisht/domain/auth/otp-limits';
import type { TOtpPurpose } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { formatIstDateTime } from '@kisht/domain/common/time';
import type { TSessionInfo } from '@kisht/domain/sessions/sessions.schema';
import { jwtVerify, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import type { TConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { hashSecret, hexEquals, hmacHex, randomDigits, verifySecret } from '../../lib/crypto';
import { getOrgAppConfig } from '../orgs/orgs.service';
import type { SmsOutbox } from '../sms/sms.service';
import * as repo from './auth.repository';

/** What the auth operations need: the database, config and the SMS outbox. */
export type AuthDeps = { db: Db; config: TConfig; sms: SmsOutbox };

const OTP_DIGITS = 6;
const SESSION_TOUCH_INTERVAL_MS = 60_000;

const otpHash = (
  config: TConfig,
  challenge: { orgId: number; mobile: string; purpose: string },
  code: string,
) => hmacHex(config.OTP_PEPPER, `${challenge.orgId}:${challenge.mobile}:${challenge.purpose}:${code}`);

const otpLimits = (config: TConfig): TOtpLimits => ({
  resendAfterMs: config.OTP_RESEND_AFTER_SECONDS * 1000,
  dailySendsPerMobile: config.OTP_DAILY_LIMIT_PER_MOBILE,
  dailyWrongPerMobile: config.OTP_DAILY_WRONG_LIMIT_PER_MOBILE,
  freeWrongTries: config.OTP_FREE_WRONG_TRIES,
  wrongCooldownMs: config.OTP_WRONG_COOLDOWN_SECONDS * 1000,
});

const historyOf = (db: DbOrTx, mobile: string, now: Date) =>
  repo.findOtpHistory(db, mobile, new Date(now.getTime() - OTP_LIMIT_WINDOW_MS));

/** "30 seconds", "1 second", "16 minutes": a wait as a person reads it, rounded up. */
const describeWait = (ms: number): string => {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds <= 120) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
};

/** 429 RATE_LIMITED saying which limit was hit and when to try again (+05:30 for a day's cap). */
const rateLimited = (refusal: TOtpRefusal, now: Date): AppError => {
  const wait = refusal.retryAt.getTime() - now.getTime();
  const message = {
    resend_cool_down: () => `Please wait ${describeWait(wait)} before asking for another OTP`,
    daily_send_cap: () =>
      `Too many OTPs were sent to this number today. Try again after ${formatIstDateTime(refusal.retryAt)}`,
    daily_wrong_cap: () =>
      `Too many wrong OTPs for this number today. Try again after ${formatIstDateTime(refusal.retryAt)}`,
    wrong_cool_down: () => `Too many wrong OTPs. Try again in ${describeWait(wait)}`,
  }[refusal.reason]();
  return new AppError(AppErrorCode.RATE_LIMITED, message);
};

const wrongOtp = () =>
  new AppError(AppErrorCode.OTP_INVALID, 'Incorrect OTP', [{ field: 'otp', message: 'Incorrect OTP' }]);

/** The message an OTP-sending route answers with, by how far the SMS got. */
export const otpSentMessage = (delivery: TOtpDelivery): string =>
  delivery === 'sent'
    ? 'OTP sent'
    : 'The SMS service is slow right now. Your OTP will arrive shortly; you may also ask for a new one';

/**
 * Issues an OTP of a purpose (spec §4) for a mobile of the organisation and sends it by SMS
 * through the outbox. Only an HMAC of the code is stored.
 *
 * The same answer whether or not the number has an account here (no USER_NOT_FOUND): for an
 * unknown number nothing is sent, but a challenge with a random code is recorded as if its SMS had
 * gone, so the cool-down and the caps treat it alike, and the answer waits about as long as a real
 * delivery (SmsOutbox.imitateDelivery); its devOtp is another random code.
 *
 * An organisation that does not exist answers NOT_FOUND (404); organisations are public.
 *
 * Limits, checked under a per-number lock in the transaction that records the challenge
 * (otp-limits.ts): the resend cool-down per organisation, number and purpose, counted only from
 * SMS that went out; at most OTP_DAILY_LIMIT_PER_MOBILE OTPs a number in 24 hours, every
 * organisation and purpose together. Over a limit: RATE_LIMITED (429) saying when to try again.
 *
 * Delivery: the challenge and its sms_outbox row are written in one transaction (SMS_UNAVAILABLE,
 * 503, when the row cannot be written: nothing is recorded); after commit the SMS is tried for up
 * to SMS_INLINE_BUDGET_MS. Reached the gateway: `delivery: 'sent'` and the cool-down starts. Not
 * yet: `delivery: 'queued'`, the outbox job keeps trying until the OTP expires, and no cool-down
 * stops the user from asking again (the older SMS is then dropped). Refused by the gateway for
 * good: SMS_UNAVAILABLE. Outside production the code is also returned as devOtp (dev banner).
 *
 * Sources: OWASP ASVS 5.0, chapter V6 Authentication: 6.3.1 and 6.6.3 (brute force and rate
 * limiting of out-of-band codes), 6.3.8 (valid users are not deduced from answers, status codes or
 * response times, forgot-password included); NIST SP 800-63B (rev. 3) §5.2.2 Rate Limiting.
 */
export const requestOtp = async (
  deps: AuthDeps,
  options: { orgId: number; mobile: string; purpose: TOtpPurpose },
): Promise<TLoginWithOtpResponse> => {
  const { db, config, sms } = deps;
  // Organisations are public (get_org_app_config): an unknown one is a plain 404, and writes nothing.
  await getOrgAppConfig(db, options.orgId);
  const user = await repo.findUserByMobile(db, options.orgId, options.mobile);
  const code = randomDigits(OTP_DIGITS);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + config.OTP_TTL_SECONDS * 1000);
  const smsId = await db.transaction(async (tx) => {
    await repo.lockOtpNumber(tx, options.mobile);
    const refusal = refuseOtpSend(await historyOf(tx, options.mobile, now), options, otpLimits(config), now);
    if (refusal) throw rateLimited(refusal, now);
    const replaced = await repo.expireUnsentOtps(tx, options, now);
    const challengeId = await repo.insertOtp(tx, {
      orgId: options.orgId,
      mobile: options.mobile,
      purpose: options.purpose,
      codeHash: otpHash(config, options, code),
      expiresAt,
      // Nothing goes to a number with no account; its challenge counts as sent, as a real one would.
      sentAt: user ? null : now,
    });
    if (!user) return null;
    await sms.dropQueuedOtpSms(tx, replaced);
    return sms.queueSms(tx, {
      orgId: options.orgId,
      mobile: options.mobile,
      purpose: options.purpose,
      content: { kind: 'OTP', variables: { otp: code, minutes: String(config.OTP_TTL_SECONDS / 60) } },
      otpChallengeId: challengeId,
      notAfter: expiresAt,
    });
  });
  let delivery: TOtpDelivery = 'sent';
  if (smsId === null) await sms.imitateDelivery();
  else {
    const outcome = await sms.deliver(smsId);
    if (outcome === 'failed') {
      throw new AppError(
        AppErrorCode.SMS_UNAVAILABLE,
        'We could not send the SMS just now. Please try again in a minute',
      );
    }
    delivery = outcome;
  }
  return {
    expiresInSeconds: config.OTP_TTL_SECONDS,
    resendAfterSeconds: config.OTP_RESEND_AFTER_SECONDS,
    delivery,
    // A number with no account gets a made-up code, which its challenge never matches.
    ...(config.NODE_ENV === 'production' ? {} : { devOtp: user ? code : randomDigits(OTP_DIGITS) }),
  };
};

type TOtpCheck =
  | { kind: 'ok' }
  | { kind: 'expired' }
  | { kind: 'wrong' }
  | { kind: 'refused'; refusal: TOtpRefusal };

/**
 * Checks an OTP against the newest challenge for the organisation, number and purpose, under the
 * number's lock: a challenge that is missing, expired, used or out of its OTP_MAX_ATTEMPTS tries
 * answers OTP_EXPIRED; then the number's limits (otp-limits.ts refuseOtpTry: at most
 * OTP_DAILY_WRONG_LIMIT_PER_MOBILE wrong codes in 24 hours over every purpose, and after
 * OTP_FREE_WRONG_TRIES of them a wait from OTP_WRONG_COOLDOWN_SECONDS doubling with each) answer
 * RATE_LIMITED (429) without looking at the code; a wrong code is counted (attempts,
 * last_attempt_at) and answers OTP_INVALID. A challenge of a number with no account is checked the
 * same way. Sources: OWASP ASVS 5.0 V6 6.3.1, 6.6.3; NIST SP 800-63B (rev. 3) §5.2.2.
 */
export const verifyOtp = async (
  deps: Pick<AuthDeps, 'db' | 'config'>,
  options: { orgId: number; mobile: string; purpose: TOtpPurpose; code: string },
): Promise<void> => {
  const { db, config } = deps;
  const now = new Date();
  // Decided in the transaction, thrown after it, so a wrong code's count is committed.
  const check = await db.transaction(async (tx): Promise<TOtpCheck> => {
    await repo.lockOtpNumber(tx, options.mobile);
    const challenge = await repo.findLatestOtp(tx, options.orgId, options.mobile, options.purpose);
    const isUsable =
      challenge &&
      !challenge.consumedAt &&
      challenge.expiresAt.getTime() > now.getTime() &&
      challenge.attempts < config.OTP_MAX_ATTEMPTS;
    if (!challenge || !isUsable) return { kind: 'expired' };
    const refusal = refuseOtpTry(await historyOf(tx, options.mobile, now), otpLimits(config), now);
    if (refusal) return { kind: 'refused', refusal };
    if (!hexEquals(challenge.codeHash, otpHash(config, options, options.code))) {
      await repo.recordOtpAttempt(tx, challenge.id, now);
      return { kind: 'wrong' };
    }
    // Under the number's lock nobody else can have consumed it since it was read.
    return (await repo.consumeOtp(tx, challenge.id)) ? { kind: 'ok' } : { kind: 'expired' };
  });
  if (check.kind === 'ok') return;
  if (check.kind === 'wrong') throw wrongOtp();
  if (check.kind === 'refused') throw rateLimited(check.refusal, now);
  throw new AppError(AppErrorCode.OTP_EXPIRED, 'OTP expired. Please request a new one', [
    { field: 'otp', message: 'OTP expired. Please request a new one' },
  ]);
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
  parentType: user.parentType,
});

/**
 * Opens a session row for the user and signs an HS256 JWT naming it (design §6). It proves
 * nothing: callers have verified the user (OTP, MPIN) or are tests (test/route-test.ts).
 */
export const openSession = async (
  deps: Pick<AuthDeps, 'db' | 'config'>,
  user: UserRow,
  client: TClientInfo,
): Promise<TAuthSession> => {
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
  return {
    token: await signSessionToken(deps.config, user, sessionId, expiresAt),
    user: toCurrentUser(user),
  };
};

/** The HS256 JWT naming a session row (design §6). */
const signSessionToken = (config: TConfig, user: UserRow, sessionId: string, expiresAt: Date) =>
  new SignJWT({ org: user.orgId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(user.id))
    .setJti(sessionId)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(jwtKey(config));

/**
 * Sign in with Google (modules/oauth), step 1: opens a session row for the user that expires in
 * `pendingMs` and has no token yet; returns its id, which the one-time ticket carries.
 */
export const openPendingSession = async (
  deps: Pick<AuthDeps, 'db'>,
  options: { userId: number; client: TClientInfo; pendingMs: number },
): Promise<string> => {
  const user = await repo.findUserById(deps.db, options.userId);
  if (!user) throw new AppError(AppErrorCode.USER_NOT_FOUND, 'User not found');
  const sessionId = uuidv7();
  const { client } = options;
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
    expiresAt: new Date(Date.now() + options.pendingMs),
  });
  return sessionId;
};

/**
 * Sign in with Google, step 2: turns a pending session (openPendingSession, still within its
 * `pendingMs`) into a full one (SESSION_TTL_DAYS) in one conditional UPDATE, and signs its token:
 * the same TAuthSession the OTP login answers. A session already claimed, expired or revoked
 * answers null, so each ticket opens a session at most once, across processes.
 */
export const claimPendingSession = async (
  deps: Pick<AuthDeps, 'db' | 'config'>,
  options: { sessionId: string; pendingMs: number },
): Promise<TAuthSession | null> => {
  const now = Date.now();
  const expiresAt = new Date(now + deps.config.SESSION_TTL_DAYS * 86_400_000);
  const userId = await repo.claimPendingSession(deps.db, options.sessionId, {
    pendingUntil: new Date(now + options.pendingMs),
    expiresAt,
  });
  if (userId === null) return null;
  const user = await repo.findUserById(deps.db, userId);
  if (!user) return null;
  return {
    token: await signSessionToken(deps.config, user, options.sessionId, expiresAt),
    user: toCurrentUser(user),
  };
};

/** What a deactivated mini-retailer is told once it has proved who it is (right OTP or MPIN). */
export const USER_INACTIVE_MESSAGE = 'Your account is deactivated. Please contact your retailer.';

/**
 * Throws USER_INACTIVE (403) for a user its retailer deactivated. Called only after the OTP or
 * MPIN is verified, so an anonymous caller learns nothing about the number before then.
 */
const refuseInactive = (user: UserRow): void => {
  if (!user.isActive) throw new AppError(AppErrorCode.USER_INACTIVE, USER_INACTIVE_MESSAGE);
};

/**
 * Verifies a LOGIN OTP and opens a session (spec §2 login/otp). Client details go on the session.
 * Throws as verifyOtp; a number with no account can never pass it (its challenge's code was never
 * told), and would answer OTP_INVALID like a wrong code if it did. A deactivated user with the right
 * code gets USER_INACTIVE (403).
 */
export const loginWithOtp = async (
  deps: AuthDeps,
  options: { orgId: number; mobile: string; code: string; client: TClientInfo },
): Promise<TAuthSession> => {
  await verifyOtp(deps, { ...options, purpose: 'LOGIN' });
  const user = await repo.findUserByMobile(deps.db, options.orgId, options.mobile);
  if (!user) throw wrongOtp();
  refuseInactive(user);
  return openSession(deps, user, options.client);
};

const MPIN_LOCKED_MESSAGE = 'Too many wrong MPINs. Log in with OTP or reset your MPIN';

/**
 * Logs in with mobile and MPIN (spec §2 m_pin). Each attempt first reserves a try in one atomic
 * UPDATE (repo.reserveMpinAttempt) and only then runs scrypt, so however many requests arrive at
 * once, at most MPIN_MAX_ATTEMPTS guesses are evaluated per lock window; the try that reaches the
 * limit locks the MPIN for MPIN_LOCK_MINUTES, and a right MPIN clears the count and the lock.
 * Throws MPIN_NOT_SET (also for a number with no account here: the same answer, in the same time,
 * as a user who has not set an MPIN, so the answer does not tell whether the number has an
 * account), MPIN_LOCKED (also for every attempt refused unevaluated) or MPIN_INVALID with the
 * tries left; a deactivated user with the right MPIN gets USER_INACTIVE (403). The route also
 * limits tries per client address.
 * Sources: OWASP ASVS 5.0, chapter V6 Authentication, 6.3.1 (brute-force controls implemented as
 * documented; 6.1.1 asks that they be documented), 6.3.8 (valid users are not deduced from
 * failed authentication); NIST SP 800-63B (rev. 3) §5.2.2 Rate Limiting (Throttling): the
 * verifier SHALL limit consecutive failed attempts on a single account.
 */
export const loginWithMpin = async (
  deps: AuthDeps,
  options: { orgId: number; mobile: string; mpin: string; client: TClientInfo },
): Promise<TAuthSession> => {
  const { config, db } = deps;
  const user = await repo.findUserByMobile(db, options.orgId, options.mobile);
  if (!user?.mpinHash) {
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
    refuseInactive(user);
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
  // Read again: the request's session read knew the user before the change.
  return getCurrentUser(deps, { ...actor, known: undefined });
};

/**
 * Resets a forgotten MPIN with an OTP of purpose FORGOT_PASSWORD (spec §4). Throws as verifyOtp
 * (OTP_EXPIRED, OTP_INVALID, RATE_LIMITED); a number with no account answers like a wrong code.
 */
export const resetMpin = async (
  deps: AuthDeps,
  options: { orgId: number; mobile: string; code: string; mpin: string },
): Promise<void> => {
  await verifyOtp(deps, {
    orgId: options.orgId,
    mobile: options.mobile,
    code: options.code,
    purpose: 'FORGOT_PASSWORD',
  });
  const user = await repo.findUserByMobile(deps.db, options.orgId, options.mobile);
  if (!user) throw wrongOtp();
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
  // A deactivated user's sessions were revoked with it; this also covers one opened meanwhile.
  if (!live?.user.isActive) throw invalid();
  if (Date.now() - live.session.lastSeenAt.getTime() > SESSION_TOUCH_INTERVAL_MS) {
    await repo.touchSession(deps.db, sessionId);
  }
  return {
    userId: live.user.id,
    orgId: live.user.orgId,
    userType: live.user.userType,
    sessionId,
    known: {
      user: live.user,
      childRetailerIds: live.childRetailerIds,
      descendantIds: live.descendantIds,
      parentType: live.parentType,
      organization: live.organization,
    },
  };
};

/** Ends the caller's session; its token answers 511 from now on. */
export const logout = async (deps: Pick<AuthDeps, 'db'>, actor: TActor): Promise<void> => {
  await repo.revokeSession(deps.db, actor.sessionId);
};

/** The logged-in user (as the request's session read found it, else read). */
export const getCurrentUser = async (deps: Pick<AuthDeps, 'db'>, actor: TActor): Promise<TCurrentUser> => {
  const user = actor.known
    ? { ...actor.known.user, parentType: actor.known.parentType }
    : await repo.findUserById(deps.db, actor.userId);
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
