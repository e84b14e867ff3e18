import { z } from 'zod';

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

/**
 * A row id (customer, EMI, media, organisation, product, financer, …): a positive integer no larger
 * than ID_MAX, because every id column is PostgreSQL `serial`/`integer`. Bounding it here makes an
 * id the database cannot hold a 400 naming the field instead of an out-of-range error (a 500).
 */
export const ZId = z.number().int().positive().max(ID_MAX, `Must be at most ${ID_MAX}`);

/** ZId for querystring and multipart fields, which arrive as text: `'42'` → 42, same bounds. */
export const ZQueryId = z.coerce.number().int().positive().max(ID_MAX, `Must be at most ${ID_MAX}`);

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

/** A mobile number field: input as 10 digits (or with +91), output E.164. */
export const ZMobile = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const mobile = normaliseIndianMobile(value);
    if (!mobile) {
      ctx.addIssue({ code: 'custom', message: 'Enter a 10-digit mobile number starting with 6, 7, 8 or 9' });
      return z.NEVER;
    }
    return mobile;
  });

/** An IMEI field: 15 digits with a valid Luhn check digit. */
export const ZImei = z
  .string()
  .trim()
  .refine(isValidImei, { message: 'IMEI must be 15 digits with a valid check digit' });
