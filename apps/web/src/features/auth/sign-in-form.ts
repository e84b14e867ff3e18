import {
  ZLoginWithOtpRequest,
  ZMpinLoginRequest,
  ZResetMpinRequest,
  ZSetMpinRequest,
  ZVerifyOtpRequest,
} from '@kisht/domain/auth/auth.schema';
import { z } from 'zod';

// The zod-free part (field errors, the login form's resolver) is in sign-in-errors.ts.
export type {
  TMobileFormCheck,
  TMobileFormOutput,
  TMobileFormValues,
  TSignInError,
  TSignInField,
} from './sign-in-errors';
export {
  checkMobileForm,
  keepDigits,
  MPIN_LENGTH,
  OTP_LENGTH,
  signInErrorKey,
  signInErrorText,
} from './sign-in-errors';

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
