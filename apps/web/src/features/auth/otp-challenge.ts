import type { TLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import type { TSignInOtpPurpose } from '@kisht/domain/common/enums';

/** The OTP purposes the sign-in screens handle: sign in, and forgot MPIN (the domain's list). */
export type { TSignInOtpPurpose };

/**
 * An OTP sent to a mobile number, carried from the login (or MPIN) screen to the OTP screen. Kept
 * in sessionStorage as well as router state, so reloading the OTP screen does not lose it.
 */
export type TOtpChallenge = {
  /** E.164 mobile the OTP went to. */
  mobile: string;
  /** LOGIN signs in; FORGOT_PASSWORD resets the MPIN (the OTP screen's forgot mode). */
  purpose: TSignInOtpPurpose;
  /** The OTP itself, only outside production (dev banner). */
  devOtp: string | null;
  /** Epoch ms before which another OTP may not be requested. */
  resendAt: number;
  /**
   * The SMS service was slow and the SMS waits in the server's outbox (delivery 'queued'): it
   * should arrive shortly, and another OTP may be asked for at once. Absent on older saved ones.
   */
  isDelayed?: boolean;
};

const STORAGE_KEY = 'kisht.otpChallenge';

/** The challenge an OTP-sending call answered with. */
export const toOtpChallenge = (
  mobile: string,
  response: TLoginWithOtpResponse,
  purpose: TSignInOtpPurpose = 'LOGIN',
): TOtpChallenge => ({
  mobile,
  purpose,
  devOtp: response.devOtp ?? null,
  // Nothing reached the phone yet, so the server keeps no cool-down: the user may ask again now.
  resendAt: response.delivery === 'queued' ? Date.now() : Date.now() + response.resendAfterSeconds * 1000,
  isDelayed: response.delivery === 'queued',
});

export const saveOtpChallenge = (challenge: TOtpChallenge): void => {
  window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(challenge));
};

const isOtpChallenge = (value: unknown): value is TOtpChallenge => {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.mobile === 'string' &&
    (candidate.purpose === 'LOGIN' || candidate.purpose === 'FORGOT_PASSWORD') &&
    (candidate.devOtp === null || typeof candidate.devOtp === 'string') &&
    typeof candidate.resendAt === 'number' &&
    (candidate.isDelayed === undefined || typeof candidate.isDelayed === 'boolean')
  );
};

/** The challenge from router state, else from sessionStorage, else null. */
export const readOtpChallenge = (routerState: unknown): TOtpChallenge | null => {
  if (isOtpChallenge(routerState)) return routerState;
  try {
    const stored: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    return isOtpChallenge(stored) ? stored : null;
  } catch {
    return null;
  }
};

export const clearOtpChallenge = (): void => {
  window.sessionStorage.removeItem(STORAGE_KEY);
};
