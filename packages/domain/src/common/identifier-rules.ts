/**
 * The identifier rules without zod (IMEI check digit, id bounds, Indian mobile numbers), so that
 * code that only checks or formats a value (the web app's sign-in screens) does not load zod
 * (issue 17). The schemas built on them are in identifiers.ts, which re-exports these.
 */
/**
 * Luhn check (ISO/IEC 7812-1) over a string of digits, as used for the IMEI check digit
 * (3GPP TS 23.003 §6.2.1). Returns false for anything that is not all digits.
 */
export const isLuhnValid = (digits: string): boolean => {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
};

/** True for a 15-digit IMEI whose last digit is its Luhn check digit. */
export const isValidImei = (value: string): boolean => /^\d{15}$/.test(value) && isLuhnValid(value);

/** Computes the Luhn check digit for a 14-digit IMEI body (for factories and the demo seed). */
export const imeiCheckDigit = (body14: string): string => {
  for (let d = 0; d <= 9; d += 1) if (isLuhnValid(`${body14}${d}`)) return String(d);
  throw new Error(`not a digit string: ${body14}`);
};

/** The largest value of a PostgreSQL `integer` (and so of a `serial` id): 2^31 − 1. */
export const ID_MAX = 2_147_483_647;

/** Mobile prefix of spec §9. */
export const MOBILE_PREFIX = '+91';

/**
 * Normalises an Indian mobile number to E.164 (`+91XXXXXXXXXX`): accepts 10 digits starting 6–9,
 * optionally written with +91, 91 or 0 in front and spaces or dashes. Returns null when invalid.
 */
export const normaliseIndianMobile = (value: string): string | null => {
  const compact = value.replace(/[\s-]/g, '');
  const match = /^(?:\+91|91|0)?([6-9]\d{9})$/.exec(compact);
  return match ? `${MOBILE_PREFIX}${match[1]}` : null;
};

/** What is wrong with a mobile number normaliseIndianMobile refuses (ZMobile's issue message). */
export const INVALID_MOBILE_MESSAGE = 'Enter a 10-digit mobile number starting with 6, 7, 8 or 9';

/** A one-time password: 6 digits (auth ZVerifyOtpRequest; the sign-in screens check it without zod). */
export const OTP_PATTERN = /^\d{6}$/;
/** An MPIN: 4 digits (auth ZMpin; the sign-in screens check it without zod). */
export const MPIN_PATTERN = /^\d{4}$/;
