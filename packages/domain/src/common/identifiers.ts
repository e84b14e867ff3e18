import { z } from 'zod';
import { ID_MAX, INVALID_MOBILE_MESSAGE, isValidImei, normaliseIndianMobile } from './identifier-rules';

// The zod-free rules live in identifier-rules.ts; re-exported so existing imports keep working.
export {
  ID_MAX,
  INVALID_MOBILE_MESSAGE,
  imeiCheckDigit,
  isLuhnValid,
  isValidImei,
  MOBILE_PREFIX,
  normaliseIndianMobile,
} from './identifier-rules';

/**
 * A row id (customer, EMI, media, organisation, product, financer, …): a positive integer no larger
 * than ID_MAX, because every id column is PostgreSQL `serial`/`integer`. Bounding it here makes an
 * id the database cannot hold a 400 naming the field instead of an out-of-range error (a 500).
 */
export const ZId = z.number().int().positive().max(ID_MAX, `Must be at most ${ID_MAX}`);

/** ZId for querystring and multipart fields, which arrive as text: `'42'` → 42, same bounds. */
export const ZQueryId = z.coerce.number().int().positive().max(ID_MAX, `Must be at most ${ID_MAX}`);

/** A mobile number field: input as 10 digits (or with +91), output E.164. */
export const ZMobile = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const mobile = normaliseIndianMobile(value);
    if (!mobile) {
      ctx.addIssue({ code: 'custom', message: INVALID_MOBILE_MESSAGE });
      return z.NEVER;
    }
    return mobile;
  });

/** An IMEI field: 15 digits with a valid Luhn check digit. */
export const ZImei = z
  .string()
  .trim()
  .refine(isValidImei, { message: 'IMEI must be 15 digits with a valid check digit' });
