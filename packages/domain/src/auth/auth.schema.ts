import { z } from 'zod';
import { SIGN_IN_OTP_PURPOSES, USER_TYPES } from '../common/enums';
import { MPIN_PATTERN, OTP_PATTERN } from '../common/identifier-rules';
import { ZId, ZMobile } from '../common/identifiers';

export const ZLoginWithOtpRequest = z.object({
  orgId: ZId,
  /** 10-digit Indian mobile, with or without +91; stored E.164. */
  mobile: ZMobile,
});
export type TLoginWithOtpRequest = z.input<typeof ZLoginWithOtpRequest>;

/** How far an OTP's SMS got within the request (see ZLoginWithOtpResponse.delivery). */
export const OTP_DELIVERIES = ['sent', 'queued'] as const;
export type TOtpDelivery = (typeof OTP_DELIVERIES)[number];

export const ZLoginWithOtpResponse = z.object({
  /** Seconds until the OTP expires. */
  expiresInSeconds: z.number().int(),
  /** Seconds before another OTP may be requested. */
  resendAfterSeconds: z.number().int(),
  /**
   * Whether the SMS reached the gateway within the request ('sent'), or the gateway is slow or
   * failing and the SMS waits in the outbox to be retried ('queued'; it arrives later, and another
   * OTP may be asked for at once). An unknown number answers as a registered one would.
   */
  delivery: z.enum(OTP_DELIVERIES),
  /**
   * The OTP itself, only outside production, for the dev banner. Never present in production. For
   * a number with no account it is a made-up code, so it tells nothing either.
   */
  devOtp: z.string().optional(),
});
export type TLoginWithOtpResponse = z.infer<typeof ZLoginWithOtpResponse>;

export const ZVerifyOtpRequest = z.object({
  orgId: ZId,
  mobile: ZMobile,
  otp: z.string().regex(OTP_PATTERN, 'OTP is 6 digits'),
});
export type TVerifyOtpRequest = z.input<typeof ZVerifyOtpRequest>;

export const ZCurrentUser = z.object({
  id: ZId,
  orgId: ZId,
  userType: z.enum(USER_TYPES),
  name: z.string(),
  mobile: z.string(),
  /** True once the user has set an MPIN (they may then log in with it, spec §2 m_pin). */
  hasMpin: z.boolean(),
  /**
   * Its parent in the distribution network, whom it asks for keys (issue 30): a distributor or a
   * retailer; null for the organisation (and for an admin or a customer).
   */
  parentType: z.enum(['distributor', 'retailer']).nullable(),
});
export type TCurrentUser = z.infer<typeof ZCurrentUser>;

export const ZAuthSession = z.object({
  /** JWT bound to a session row; send as `Authorization: Bearer <token>`. */
  token: z.string(),
  user: ZCurrentUser,
});
export type TAuthSession = z.infer<typeof ZAuthSession>;

/** An MPIN: exactly 4 digits. */
export const ZMpin = z.string().regex(MPIN_PATTERN, 'MPIN is 4 digits');

/** Ask for another sign-in OTP (LOGIN or FORGOT_PASSWORD: SIGN_IN_OTP_PURPOSES); refused inside the cool-down (429). */
export const ZResendOtpRequest = z.object({
  orgId: ZId,
  mobile: ZMobile,
  purpose: z.enum(SIGN_IN_OTP_PURPOSES),
});
export type TResendOtpRequest = z.input<typeof ZResendOtpRequest>;

/** Forgot MPIN: sends an OTP with purpose FORGOT_PASSWORD. Answers TLoginWithOtpResponse. */
export const ZForgotMpinRequest = z.object({ orgId: ZId, mobile: ZMobile });
export type TForgotMpinRequest = z.input<typeof ZForgotMpinRequest>;

/** Reset MPIN with the FORGOT_PASSWORD OTP. Answers null; the user then logs in with the new MPIN. */
export const ZResetMpinRequest = z.object({
  orgId: ZId,
  mobile: ZMobile,
  otp: z.string().regex(OTP_PATTERN, 'OTP is 6 digits'),
  mpin: ZMpin,
});
export type TResetMpinRequest = z.input<typeof ZResetMpinRequest>;

/** Set (or change) the logged-in user's MPIN. Answers TCurrentUser. */
export const ZSetMpinRequest = z.object({ mpin: ZMpin });
export type TSetMpinRequest = z.input<typeof ZSetMpinRequest>;

/** Log in with mobile and MPIN. Answers TAuthSession; wrong MPINs are counted and lock the MPIN. */
export const ZMpinLoginRequest = z.object({
  orgId: ZId,
  mobile: ZMobile,
  mpin: ZMpin,
});
export type TMpinLoginRequest = z.input<typeof ZMpinLoginRequest>;
