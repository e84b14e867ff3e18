import { INVALID_MOBILE_MESSAGE, normaliseIndianMobile } from '@kisht/domain/common/identifier-rules';
import type { TFunction } from 'i18next';
import type { FieldError } from 'react-hook-form';
import { fieldErrorText } from '../../lib/form-errors';

// What the login screen needs of the sign-in forms, without zod: the login page is the first screen
// most people open, and zod alone is ~23 KB brotli (issue 17). sign-in-form.ts (the schemas of the
// other sign-in forms) re-exports all of this.

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

/** The fields of the sign-in forms. */
export type TSignInField = 'mobile' | 'otp' | 'mpin' | 'mpinConfirmation';

/** What each field's problem is when it is not empty. */
const FIELD_PROBLEM: Record<TSignInField, Exclude<TSignInError, 'validation.required' | null>> = {
  mobile: 'validation.invalidMobile',
  otp: 'validation.invalidOtp',
  mpin: 'validation.invalidMpin',
  mpinConfirmation: 'validation.mpinMismatch',
};

/**
 * The translation key for a schema issue on a sign-in field: 'This is a required field' when the
 * field is empty (spec §5), else what that field's problem must be (a 4-digit MPIN, a 6-digit OTP,
 * an Indian mobile, the same MPIN twice). Null without an error.
 */
export const signInErrorKey = (
  field: TSignInField,
  error: Pick<FieldError, 'message'> | undefined,
  value: string,
): TSignInError => {
  if (!error) return null;
  return value === '' ? 'validation.required' : FIELD_PROBLEM[field];
};

/**
 * The text under a sign-in field: the server's own words for a field error the server sent, else
 * the translated message of the schema's issue (signInErrorKey); null without an error.
 */
export const signInErrorText = (
  t: TFunction,
  field: TSignInField,
  error: FieldError | undefined,
  value: string,
): string | null =>
  fieldErrorText(error, (own) => t(signInErrorKey(field, own, value) ?? 'validation.invalidValue'));

/** The login form's values: the local 10 digits as typed. */
export type TMobileFormValues = { mobile: string };
/** The login form's output: the mobile in E.164. */
export type TMobileFormOutput = { mobile: string };

/** What the login form's check found: the E.164 mobile, or the field's error. */
export type TMobileFormCheck =
  | { values: TMobileFormOutput; error: null }
  | { values: null; error: FieldError };

/**
 * Checks the login form (send a sign-in OTP) as ZMobileForm (domain ZLoginWithOtpRequest's ZMobile)
 * does, with the same rule (normaliseIndianMobile) and message, and turns the 10 digits into E.164;
 * the login page uses it so that it needs neither zod nor a form library (issue 17).
 * sign-in-form.test.ts checks that the two agree.
 */
export const checkMobileForm = (values: TMobileFormValues): TMobileFormCheck => {
  const mobile = normaliseIndianMobile(values.mobile.trim());
  if (mobile) return { values: { mobile }, error: null };
  return { values: null, error: { type: 'custom', message: INVALID_MOBILE_MESSAGE } };
};
