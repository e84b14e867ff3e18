import type { TFieldError } from './envelope';

/**
 * Stable error codes shared by server and web (design §3). The server maps each to an HTTP status;
 * the web app maps each to a translated message.
 */
export const AppErrorCode = {
  /** Request body, query or params failed validation; `fields` names them. HTTP 400. */
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  /** No session, or the session was revoked or expired. HTTP 511 (spec §8). */
  SESSION_INVALID: 'SESSION_INVALID',
  /** The actor may not do this. HTTP 403. */
  FORBIDDEN: 'FORBIDDEN',
  /** The resource does not exist for this actor (other tenants' ids included). HTTP 404. */
  NOT_FOUND: 'NOT_FOUND',
  CUSTOMER_NOT_FOUND: 'CUSTOMER_NOT_FOUND',
  DEVICE_NOT_FOUND: 'DEVICE_NOT_FOUND',
  PRODUCT_NOT_FOUND: 'PRODUCT_NOT_FOUND',
  /** No user with this mobile number in the organisation. HTTP 404. */
  USER_NOT_FOUND: 'USER_NOT_FOUND',
  /** The OTP is wrong. HTTP 400. */
  OTP_INVALID: 'OTP_INVALID',
  /** The OTP expired, was used, or ran out of attempts. HTTP 400. */
  OTP_EXPIRED: 'OTP_EXPIRED',
  /** The MPIN is wrong. HTTP 400. */
  MPIN_INVALID: 'MPIN_INVALID',
  /** Too many wrong MPINs: MPIN login is locked for a while (use OTP or reset the MPIN). HTTP 429. */
  MPIN_LOCKED: 'MPIN_LOCKED',
  /** The user has no MPIN yet: log in with OTP and set one. HTTP 400. */
  MPIN_NOT_SET: 'MPIN_NOT_SET',
  /** The auth-session header (spec §7) is malformed, outside the time window, or replayed. HTTP 400. */
  AUTH_SESSION_INVALID: 'AUTH_SESSION_INVALID',
  /** The request-token header (spec §7) does not match the organisation and path. HTTP 400. */
  REQUEST_TOKEN_INVALID: 'REQUEST_TOKEN_INVALID',
  /** Too many requests. HTTP 429. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** A device or customer with one of these IMEIs already exists in the organisation. HTTP 409. */
  IMEI_IN_USE: 'IMEI_IN_USE',
  /** The enrolment token is unknown, used or expired. HTTP 400. */
  ENROLMENT_TOKEN_INVALID: 'ENROLMENT_TOKEN_INVALID',
  /** The IMEIs the device reported differ from the customer's record. HTTP 409. */
  ENROLMENT_IMEI_MISMATCH: 'ENROLMENT_IMEI_MISMATCH',
  /** The customer's phone is already enrolled, so no new enrolment QR is issued. HTTP 409. */
  ALREADY_ENROLLED: 'ALREADY_ENROLLED',
  /** The customer's device has not enrolled yet, so it cannot take commands. HTTP 409. */
  DEVICE_NOT_ENROLLED: 'DEVICE_NOT_ENROLLED',
  /** Down payment is not less than the price, or similar loan-term conflicts. HTTP 400. */
  INVALID_LOAN_TERMS: 'INVALID_LOAN_TERMS',
  /** This status change is not one a retailer may make by hand. HTTP 409. */
  STATUS_CHANGE_NOT_ALLOWED: 'STATUS_CHANGE_NOT_ALLOWED',
  /** EMI terms can only be edited before the first payment. HTTP 409. */
  EMI_ALREADY_PAID: 'EMI_ALREADY_PAID',
  /** A payment amount is not positive or exceeds what the chosen instalments owe. HTTP 400. */
  INVALID_PAYMENT: 'INVALID_PAYMENT',
  /** The upload is larger than MAX_UPLOAD_BYTES (5 MB). HTTP 413. */
  MEDIA_TOO_LARGE: 'MEDIA_TOO_LARGE',
  /** The upload's content is not an accepted type (sniffed from its bytes). HTTP 415. */
  MEDIA_TYPE_NOT_ALLOWED: 'MEDIA_TYPE_NOT_ALLOWED',
  /** The organisation's witness layout flag is off, so there is no witness signature. HTTP 409. */
  WITNESS_NOT_ENABLED: 'WITNESS_NOT_ENABLED',
  /** No penalty is due on this instalment under the organisation's rule. HTTP 409. */
  PENALTY_NOT_DUE: 'PENALTY_NOT_DUE',
  /** The instalment has nothing left to waive. HTTP 409. */
  NOTHING_TO_WAIVE: 'NOTHING_TO_WAIVE',
  /** Nothing is due on the loan, so there is nothing to remind the customer of. HTTP 409. */
  NOTHING_DUE: 'NOTHING_DUE',
  /** The spec §6 rules do not offer this control for this device now (type, lock state, allowed list). HTTP 409. */
  COMMAND_NOT_AVAILABLE: 'COMMAND_NOT_AVAILABLE',
  /** The command has already reached a final state, so it cannot be cancelled. HTTP 409. */
  COMMAND_NOT_PENDING: 'COMMAND_NOT_PENDING',
  /** Only a customer whose EMIs are completed can be released this way. HTTP 409. */
  LOAN_NOT_COMPLETED: 'LOAN_NOT_COMPLETED',
  /** The same Idempotency-Key came with a different request. HTTP 422 (IETF Idempotency-Key header draft). */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** No consent to remote locking is recorded for the customer, so no enrolment QR is made. HTTP 409. */
  CONSENT_REQUIRED: 'CONSENT_REQUIRED',
  /** The customer's EMIs are completed (status 5): the phone is never locked again. HTTP 409. */
  LOAN_COMPLETED: 'LOAN_COMPLETED',
  /** The SMS could not be queued for the gateway; nothing was sent. HTTP 503. */
  SMS_UNAVAILABLE: 'SMS_UNAVAILABLE',
  /** The server is overloaded and sheds the request; try again shortly. HTTP 503. */
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  /** The enrolling retailer has no key of the customer's app_type left, so nothing was written. HTTP 409. */
  NO_KEYS: 'NO_KEYS',
  /** A transfer asks for more keys than the source account holds. HTTP 409. */
  INSUFFICIENT_KEYS: 'INSUFFICIENT_KEYS',
  /** The account was deactivated by its retailer or admin: no login. HTTP 403. */
  USER_INACTIVE: 'USER_INACTIVE',
  /** A user of this type with this mobile already exists in the organisation. HTTP 409. */
  MOBILE_IN_USE: 'MOBILE_IN_USE',
  /** A join request for this mobile is already pending. HTTP 409. */
  SIGNUP_ALREADY_REQUESTED: 'SIGNUP_ALREADY_REQUESTED',
  /** The join request was already approved or declined. HTTP 409. */
  SIGNUP_ALREADY_DECIDED: 'SIGNUP_ALREADY_DECIDED',
  /** A key request was already approved, rejected or withdrawn (issue 30). HTTP 409. */
  KEY_REQUEST_ALREADY_DECIDED: 'KEY_REQUEST_ALREADY_DECIDED',
  /**
   * A distributor cannot join there: the organisation's distributor levels allow none below that
   * parent (issue 30, network.rules mayJoinUnder). HTTP 409.
   */
  ROLE_NOT_ALLOWED: 'ROLE_NOT_ALLOWED',
  /** The Google account's verified e-mail or mobile matches no retailer; nothing is created. HTTP 403. */
  OAUTH_NOT_LINKED: 'OAUTH_NOT_LINKED',
  /** The OpenID Connect sign-in failed (state, code or token check). HTTP 400. */
  OAUTH_FAILED: 'OAUTH_FAILED',
  /** The organisation's payment_gateway flag is off (spec §1). HTTP 409. */
  PAYMENT_GATEWAY_DISABLED: 'PAYMENT_GATEWAY_DISABLED',
  /** No price is configured for these keys: 'Please contact admin for prices' (spec §5/§9). HTTP 409. */
  PRICES_NOT_SET: 'PRICES_NOT_SET',
  /** The gateway signature (razorpay_signature or X-Razorpay-Signature) does not verify. HTTP 400. */
  PAYMENT_SIGNATURE_INVALID: 'PAYMENT_SIGNATURE_INVALID',
  /** The payment gateway did not answer; nothing was charged. HTTP 503. */
  PAYMENT_GATEWAY_UNAVAILABLE: 'PAYMENT_GATEWAY_UNAVAILABLE',
  /** The financer's system did not answer; the hand-off is retried. HTTP 503. */
  FINANCER_UNAVAILABLE: 'FINANCER_UNAVAILABLE',
  /** The customer's financer takes no hand-off (only HDB does). HTTP 409. */
  FINANCER_HANDOFF_NOT_APPLICABLE: 'FINANCER_HANDOFF_NOT_APPLICABLE',
  /** No plan with this id in the actor's organisation (or it is inactive for a sale). HTTP 404. */
  PLAN_NOT_FOUND: 'PLAN_NOT_FOUND',
  /** The plan does not apply to the chosen product, or the sale lacks what the plan needs. HTTP 409. */
  PLAN_NOT_APPLICABLE: 'PLAN_NOT_APPLICABLE',
  /** No activation code like this in the organisation ('Code not found', spec §8). HTTP 404. */
  ACTIVATION_CODE_NOT_FOUND: 'ACTIVATION_CODE_NOT_FOUND',
  /** The activation code was already redeemed on another phone. HTTP 409. */
  ACTIVATION_ALREADY_REDEEMED: 'ACTIVATION_ALREADY_REDEEMED',
  /** The activation code was sold for another phone (its IMEI or serial number); issue 27. HTTP 409. */
  ACTIVATION_FOR_ANOTHER_PHONE: 'ACTIVATION_FOR_ANOTHER_PHONE',
  /** The MDM service of the phone's family (NanoMDM, Android Management API) did not answer or is not configured. HTTP 503. */
  MDM_UNAVAILABLE: 'MDM_UNAVAILABLE',
  /**
   * Google's permissible-usage rule: a managed-Android phone (device_type 1) is never locked for a
   * missed payment (issue 15). HTTP 409.
   */
  PAYMENT_LOCK_NOT_ALLOWED: 'PAYMENT_LOCK_NOT_ALLOWED',
  /** The command does not exist for this device family (e.g. an Apple-only command). HTTP 409. */
  NOT_FOR_THIS_DEVICE_FAMILY: 'NOT_FOR_THIS_DEVICE_FAMILY',
  /**
   * The phone left Kisht (released by uninstall, its app removed, or its Apple profile removed):
   * no command can be sent to it (issue 25, status 3 or 4). HTTP 409.
   */
  DEVICE_RELEASED: 'DEVICE_RELEASED',
  /** NanoMDM's webhook came without a valid X-Hmac-Signature (issue 15). HTTP 401. */
  MDM_WEBHOOK_SIGNATURE_INVALID: 'MDM_WEBHOOK_SIGNATURE_INVALID',
  /**
   * A partner API call without a valid API key: none, malformed, unknown or revoked (issue 30,
   * docs/partner-api.md). HTTP 401 with `WWW-Authenticate: Bearer`.
   */
  API_KEY_INVALID: 'API_KEY_INVALID',
  /** An unexpected failure on our side. HTTP 500. */
  INTERNAL: 'INTERNAL',
} as const;
export type TAppErrorCode = (typeof AppErrorCode)[keyof typeof AppErrorCode];

/** HTTP status for each error code. */
export const APP_ERROR_HTTP_STATUS: Record<TAppErrorCode, number> = {
  VALIDATION_FAILED: 400,
  SESSION_INVALID: 511,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CUSTOMER_NOT_FOUND: 404,
  DEVICE_NOT_FOUND: 404,
  PRODUCT_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  OTP_INVALID: 400,
  OTP_EXPIRED: 400,
  MPIN_INVALID: 400,
  MPIN_LOCKED: 429,
  MPIN_NOT_SET: 400,
  AUTH_SESSION_INVALID: 400,
  REQUEST_TOKEN_INVALID: 400,
  RATE_LIMITED: 429,
  IMEI_IN_USE: 409,
  ENROLMENT_TOKEN_INVALID: 400,
  ENROLMENT_IMEI_MISMATCH: 409,
  ALREADY_ENROLLED: 409,
  DEVICE_NOT_ENROLLED: 409,
  INVALID_LOAN_TERMS: 400,
  INVALID_PAYMENT: 400,
  STATUS_CHANGE_NOT_ALLOWED: 409,
  EMI_ALREADY_PAID: 409,
  MEDIA_TOO_LARGE: 413,
  MEDIA_TYPE_NOT_ALLOWED: 415,
  WITNESS_NOT_ENABLED: 409,
  PENALTY_NOT_DUE: 409,
  NOTHING_TO_WAIVE: 409,
  NOTHING_DUE: 409,
  COMMAND_NOT_AVAILABLE: 409,
  COMMAND_NOT_PENDING: 409,
  LOAN_NOT_COMPLETED: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  CONSENT_REQUIRED: 409,
  LOAN_COMPLETED: 409,
  SMS_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  NO_KEYS: 409,
  INSUFFICIENT_KEYS: 409,
  USER_INACTIVE: 403,
  MOBILE_IN_USE: 409,
  SIGNUP_ALREADY_REQUESTED: 409,
  SIGNUP_ALREADY_DECIDED: 409,
  KEY_REQUEST_ALREADY_DECIDED: 409,
  ROLE_NOT_ALLOWED: 409,
  OAUTH_NOT_LINKED: 403,
  OAUTH_FAILED: 400,
  PAYMENT_GATEWAY_DISABLED: 409,
  PRICES_NOT_SET: 409,
  PAYMENT_SIGNATURE_INVALID: 400,
  PAYMENT_GATEWAY_UNAVAILABLE: 503,
  FINANCER_UNAVAILABLE: 503,
  FINANCER_HANDOFF_NOT_APPLICABLE: 409,
  PLAN_NOT_FOUND: 404,
  PLAN_NOT_APPLICABLE: 409,
  ACTIVATION_CODE_NOT_FOUND: 404,
  ACTIVATION_ALREADY_REDEEMED: 409,
  ACTIVATION_FOR_ANOTHER_PHONE: 409,
  MDM_UNAVAILABLE: 503,
  PAYMENT_LOCK_NOT_ALLOWED: 409,
  NOT_FOR_THIS_DEVICE_FAMILY: 409,
  DEVICE_RELEASED: 409,
  MDM_WEBHOOK_SIGNATURE_INVALID: 401,
  API_KEY_INVALID: 401,
  INTERNAL: 500,
};

/** A business error with a stable code; thrown by services, mapped to HTTP by the server. */
export class AppError extends Error {
  readonly code: TAppErrorCode;
  readonly fields: TFieldError[] | undefined;

  constructor(code: TAppErrorCode, message?: string, fields?: TFieldError[]) {
    super(message ?? code);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
  }
}
