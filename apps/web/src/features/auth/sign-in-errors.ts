import type { TFieldError } from '@kisht/domain/common/envelope';
import { MPIN_PATTERN, normaliseIndianMobile, OTP_PATTERN } from '@kisht/domain/common/identifier-rules';
import type { TTranslate } from '../../lib/plain-i18n';

// The sign-in forms' checks without zod or a form library (issue 28: the first screens load
// neither), by the domain's own rules (identifier-rules: normaliseIndianMobile, OTP_PATTERN,
// MPIN_PATTERN, which the request schemas use too); sign-in-errors.test.ts checks that both agree.

/** Digits in an MPIN (domain MPIN_PATTERN). */
export const MPIN_LENGTH = 4;
/** Digits in an OTP (domain OTP_PATTERN). */
export const OTP_LENGTH = 6;

/** Keeps at most `length` digits of what was typed or pasted. */
export const keepDigits = (raw: string, length: number): string => raw.replace(/\D/g, '').slice(0, length);

/** The fields of the sign-in forms. */
export type TSignInField = 'mobile' | 'otp' | 'mpin' | 'mpinConfirmation';

/** Translation keys of the sign-in forms' own messages. */
export type TSignInError =
  | 'validation.required'
  | 'validation.invalidMpin'
  | 'validation.mpinMismatch'
  | 'validation.invalidOtp'
  | 'validation.invalidMobile';

/**
 * What is wrong with a sign-in field's value, as a translation key, or null when nothing is:
 * 'This is a required field' when empty (spec §5); else a 10-digit Indian mobile, a 6-digit OTP, a
 * 4-digit MPIN, or a confirmation equal to `mpin`.
 */
export const checkSignInField = (field: TSignInField, value: string, mpin = ''): TSignInError | null => {
  if (value.trim() === '') return 'validation.required';
  switch (field) {
    case 'mobile':
      return normaliseIndianMobile(value.trim()) ? null : 'validation.invalidMobile';
    case 'otp':
      return OTP_PATTERN.test(value) ? null : 'validation.invalidOtp';
    case 'mpin':
      return MPIN_PATTERN.test(value) ? null : 'validation.invalidMpin';
    case 'mpinConfirmation':
      return value === mpin ? null : 'validation.mpinMismatch';
  }
};

/** The E.164 mobile of a checked local 10-digit number (checkSignInField found no problem). */
export const e164Of = (localDigits: string): string =>
  normaliseIndianMobile(localDigits.trim()) ?? localDigits;

/** The text under each field of a sign-in form: translated checks, or the server's own words. */
export type TSignInErrors = Partial<Record<TSignInField, string>>;

/**
 * Checks `fields` of a form's `values` and words the problems (t): no key when all are fine.
 * `values.mpin` is what a confirmation must equal.
 */
export const checkSignInForm = (
  t: TTranslate,
  fields: readonly TSignInField[],
  values: Partial<Record<TSignInField, string>>,
): TSignInErrors => {
  const errors: TSignInErrors = {};
  for (const field of fields) {
    const problem = checkSignInField(field, values[field] ?? '', values.mpin ?? '');
    if (problem) errors[field] = t(problem);
  }
  return errors;
};

/** The server's field errors (a 400's `fields`) on the form's own fields, in the server's words. */
export const serverFieldErrors = (
  fields: readonly TFieldError[],
  own: readonly TSignInField[],
): TSignInErrors => {
  const errors: TSignInErrors = {};
  for (const { field, message } of fields) {
    const name = own.find((candidate) => candidate === field);
    if (name) errors[name] ??= message;
  }
  return errors;
};

/** The form's errors with `field`'s replaced by what checking it again found (`found`). */
export const recheck = (errors: TSignInErrors, field: TSignInField, found: TSignInErrors): TSignInErrors => {
  const { [field]: _old, ...others } = errors;
  return found[field] ? { ...others, [field]: found[field] } : others;
};

/**
 * How a refused call shows on a sign-in form: the server's words under the form's own fields it
 * names, and its message above the form unless a field already says exactly that ('Incorrect MPIN'
 * under the MPIN, 'Incorrect MPIN. 4 tries left' above).
 */
export const refusalOf = (
  error: { message: string; fields: readonly TFieldError[] },
  own: readonly TSignInField[],
): { errors: TSignInErrors; failure: string | null } => {
  const errors = serverFieldErrors(error.fields, own);
  return { errors, failure: Object.values(errors).includes(error.message) ? null : error.message };
};
