import type { TAuthSession, TLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import type { TOtpPurpose } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { jwtVerify, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { hexEquals, hmacHex, randomDigits } from '../../lib/crypto';
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

/**
 * Verifies a LOGIN OTP and opens a session: a session row plus an HS256 JWT naming it (design §6).
 * Client details are recorded on the session.
 */
export const loginWithOtp = async (
  deps: AuthDeps,
  options: {
    orgId: number;
    mobile: string;
    code: string;
    client: { userAgent?: string; platform?: string; deviceDetails?: unknown };
  },
): Promise<TAuthSession> => {
  await verifyOtp(deps, { ...options, purpose: 'LOGIN' });
  const user = await repo.findUserByMobile(deps.db, options.orgId, options.mobile);
  if (!user) throw new AppError(AppErrorCode.USER_NOT_FOUND, 'No account with this mobile number');
  const sessionId = uuidv7();
  const expiresAt = new Date(Date.now() + deps.config.SESSION_TTL_DAYS * 86_400_000);
  await repo.insertSession(deps.db, {
    id: sessionId,
    orgId: user.orgId,
    userId: user.id,
    userAgent: options.client.userAgent ?? null,
    platform: options.client.platform ?? null,
    deviceDetails: options.client.deviceDetails ?? null,
    expiresAt,
  });
  const token = await new SignJWT({ org: user.orgId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(user.id))
    .setJti(sessionId)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(jwtKey(deps.config));
  return {
    token,
    user: { id: user.id, orgId: user.orgId, userType: user.userType, name: user.name, mobile: user.mobile },
  };
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

export const getCurrentUser = async (deps: Pick<AuthDeps, 'db'>, actor: TActor) => {
  const user = await repo.findUserById(deps.db, actor.userId);
  if (!user) throw new AppError(AppErrorCode.SESSION_INVALID, 'Your session has ended. Please log in again');
  return { id: user.id, orgId: user.orgId, userType: user.userType, name: user.name, mobile: user.mobile };
};
