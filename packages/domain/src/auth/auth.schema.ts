import { z } from 'zod';
import { USER_TYPES } from '../common/enums';
import { ZMobile } from '../common/identifiers';

export const ZLoginWithOtpRequest = z.object({
  orgId: z.number().int().positive(),
  /** 10-digit Indian mobile, with or without +91; stored E.164. */
  mobile: ZMobile,
});
export type TLoginWithOtpRequest = z.input<typeof ZLoginWithOtpRequest>;

export const ZLoginWithOtpResponse = z.object({
  /** Seconds until the OTP expires. */
  expiresInSeconds: z.number().int(),
  /** Seconds before another OTP may be requested. */
  resendAfterSeconds: z.number().int(),
  /** The OTP itself, only outside production, for the dev banner. Never present in production. */
  devOtp: z.string().optional(),
});
export type TLoginWithOtpResponse = z.infer<typeof ZLoginWithOtpResponse>;

export const ZVerifyOtpRequest = z.object({
  orgId: z.number().int().positive(),
  mobile: ZMobile,
  otp: z.string().regex(/^\d{6}$/, 'OTP is 6 digits'),
});
export type TVerifyOtpRequest = z.input<typeof ZVerifyOtpRequest>;

export const ZCurrentUser = z.object({
  id: z.number().int(),
  orgId: z.number().int(),
  userType: z.enum(USER_TYPES),
  name: z.string(),
  mobile: z.string(),
});
export type TCurrentUser = z.infer<typeof ZCurrentUser>;

export const ZAuthSession = z.object({
  /** JWT bound to a session row; send as `Authorization: Bearer <token>`. */
  token: z.string(),
  user: ZCurrentUser,
});
export type TAuthSession = z.infer<typeof ZAuthSession>;
