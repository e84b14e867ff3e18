/**
 * Dates are shown by the one India-time module (spec §1: fixed +05:30, `DD-MM-YYYY hh:mm A`),
 * under the names the pages use: formatDateTime for an instant (ISO 8601, '' when not one),
 * formatDate for a `YYYY-MM-DD` calendar date (not shifted, '' when not one).
 */

/** Money and mobiles are written by the domain's one formatter (paise → `₹8,814.86`, `+91 98765 43210`). */
export { formatIndianMobile as formatMobile, formatRupees } from '@kisht/domain/common/format';
export {
  formatCalendarDate as formatDate,
  formatIstDateTime as formatDateTime,
} from '@kisht/domain/common/time';

/**
 * Parses what a person typed as rupees (`12999`, `12,999.5`) into integer paise. Returns null for
 * an empty, negative or malformed value, or one with more than two decimals. Works on the digits,
 * not on floats, so `1.005` is rejected rather than rounded.
 */
export const rupeesToPaise = (text: string): number | null => {
  const compact = text.replace(/[\s,₹]/g, '');
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(compact);
  if (!match) return null;
  const rupees = Number(match[1]);
  const paise = Number((match[2] ?? '').padEnd(2, '0'));
  const total = rupees * 100 + paise;
  return Number.isSafeInteger(total) ? total : null;
};

/** Integer paise as an editable rupees value: 1299900 → `12999`, 1299950 → `12999.50`. */
export const paiseToRupeesInput = (paise: number): string => {
  const rupees = Math.trunc(paise / 100);
  const rest = Math.abs(paise % 100);
  return rest === 0 ? String(rupees) : `${rupees}.${String(rest).padStart(2, '0')}`;
};

/**
 * Parses a percentage a year (`10.5`) into basis points (1050). Returns null for an empty or
 * malformed value or one with more than two decimals.
 */
export const percentToBps = (text: string): number | null => {
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
};

/** Basis points as a percentage for display: 1050 → `10.5`. */
export const bpsToPercent = (bps: number): string => String(bps / 100);
