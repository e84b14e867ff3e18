import {
  ZLoginWithOtpRequest,
  ZMpinLoginRequest,
  ZResetMpinRequest,
  ZSetMpinRequest,
  ZVerifyOtpRequest,
} from '@kisht/domain/auth/auth.schema';
import type { TFunction } from 'i18next';
import type { FieldError } from 'react-hook-form';
import { z } from 'zod';
import { fieldErrorText } from '../../lib/form-errors';

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

/** The confirmation of a new MPIN must equal the MPIN (its own issue, on `mpinConfirmation`). */
const ZMpinConfirmation = z.string().min(1, 'This is a required field');
const confirmationMatches = (
  values: { mpin: string; mpinConfirmation: string },
  ctx: z.RefinementCtx,
): void => {
  if (values.mpinConfirmation !== '' && values.mpinConfirmation !== values.mpin) {
    ctx.addIssue({ code: 'custom', path: ['mpinConfirmation'], message: 'The two MPINs do not match' });
  }
};

/**
 * The login form (send a sign-in OTP) and "Forgot MPIN?": the local 10 digits as typed, checked
 * and turned into E.164 by the request schema's own ZMobile (domain ZLoginWithOtpRequest).
 */
export const ZMobileForm = ZLoginWithOtpRequest.pick({ mobile: true });
export type TMobileFormValues = z.input<typeof ZMobileForm>;
export type TMobileFormOutput = z.output<typeof ZMobileForm>;

/** The OTP sign-in form: the OTP by ZVerifyOtpRequest's rule (the mobile comes from the challenge). */
export const ZOtpForm = ZVerifyOtpRequest.pick({ otp: true });
export type TOtpFormValues = z.input<typeof ZOtpForm>;

/**
 * The forgot-MPIN OTP form: the OTP and the new MPIN by ZResetMpinRequest's rules, and the new
 * MPIN typed a second time, which must match.
 */
export const ZResetMpinForm = ZResetMpinRequest.pick({ otp: true, mpin: true })
  .extend({ mpinConfirmation: ZMpinConfirmation })
  .superRefine(confirmationMatches);
export type TResetMpinFormValues = z.input<typeof ZResetMpinForm>;

/** The MPIN login form: the local 10-digit mobile (sent E.164) and the MPIN, by ZMpinLoginRequest. */
export const ZMpinLoginForm = ZMpinLoginRequest.pick({ mobile: true, mpin: true });
export type TMpinLoginFormValues = z.input<typeof ZMpinLoginForm>;
export type TMpinLoginFormOutput = z.output<typeof ZMpinLoginForm>;

/** The set-MPIN form: the MPIN by ZSetMpinRequest, typed twice. */
export const ZSetMpinForm = ZSetMpinRequest.extend({ mpinConfirmation: ZMpinConfirmation }).superRefine(
  confirmationMatches,
);
export type TSetMpinFormValues = z.input<typeof ZSetMpinForm>;

/** Router state the MPIN login may be opened with (after an MPIN reset): the E.164 mobile to prefill. */
export type TMpinLoginState = { mobile: string };

/** The mobile to prefill from router state, if it carries one. */
export const mobileFromState = (state: unknown): string | null => {
  if (typeof state !== 'object' || state === null) return null;
  const { mobile } = state as Record<string, unknown>;
  return typeof mobile === 'string' ? mobile : null;
};
