import { ZMpin } from '@kisht/domain/auth/auth.schema';
import { normaliseIndianMobile } from '@kisht/domain/common/identifiers';

/** Digits in an MPIN (domain ZMpin). */
export const MPIN_LENGTH = 4;
/** Digits in an OTP. */
export const OTP_LENGTH = 6;

/** Translation keys of the sign-in forms' own messages. */
export type TSignInError =
  | 'validation.required'
  | 'validation.invalidMpin'
  | 'validation.mpinMismatch'
  | 'validation.invalidOtp'
  | 'validation.invalidMobile'
  | null;

/** Keeps at most `length` digits of what was typed or pasted. */
export const keepDigits = (raw: string, length: number): string => raw.replace(/\D/g, '').slice(0, length);

/** 'This is a required field' when empty (spec §5), else whether it is a 4-digit MPIN. */
export const validateMpin = (mpin: string): TSignInError => {
  if (mpin === '') return 'validation.required';
  return ZMpin.safeParse(mpin).success ? null : 'validation.invalidMpin';
};

/** The confirmation of a new MPIN: required, and equal to the MPIN. */
export const validateMpinConfirmation = (mpin: string, confirmation: string): TSignInError => {
  if (confirmation === '') return 'validation.required';
  return confirmation === mpin ? null : 'validation.mpinMismatch';
};

/** 'This is a required field' when empty (spec §5), else whether it is a 6-digit OTP. */
export const validateOtp = (otp: string): TSignInError => {
  if (otp === '') return 'validation.required';
  return /^\d{6}$/.test(otp) ? null : 'validation.invalidOtp';
};

/** 'This is a required field' when empty (spec §5), else whether it is an Indian mobile number. */
export const validateMobile = (localDigits: string): TSignInError => {
  if (localDigits === '') return 'validation.required';
  return normaliseIndianMobile(localDigits) ? null : 'validation.invalidMobile';
};

/** Router state the MPIN login may be opened with (after an MPIN reset): the E.164 mobile to prefill. */
export type TMpinLoginState = { mobile: string };

/** The mobile to prefill from router state, if it carries one. */
export const mobileFromState = (state: unknown): string | null => {
  if (typeof state !== 'object' || state === null) return null;
  const { mobile } = state as Record<string, unknown>;
  return typeof mobile === 'string' ? mobile : null;
};
