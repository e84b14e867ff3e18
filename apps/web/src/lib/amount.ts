/** Spec §9: the shortening units, largest first. Thresholds are in rupees. */
const UNITS = [
  { threshold: 10_000_000, exponent: 7, suffix: 'Cr' },
  { threshold: 100_000, exponent: 5, suffix: 'L' },
  { threshold: 1_000, exponent: 3, suffix: 'K' },
] as const;

export const MISSING_AMOUNT = 'N/A';

/**
 * Moves the decimal point of `value` by `places` through its decimal text, not by multiplying,
 * so `1.005` shifted by 2 is exactly `100.5` (a float multiply gives `100.49999…`).
 */
const shiftDecimal = (value: number, places: number): number => {
  const [mantissa, exponent = '0'] = String(value).split('e');
  return Number(`${mantissa}e${Number(exponent) + places}`);
};

/**
 * Shortens an amount in RUPEES for display (spec §9): ≥ 1,000 → `K`, ≥ 1,00,000 → `L`,
 * ≥ 1,00,00,000 → `Cr`; below 1,000 the number itself. Two decimals, rounded half away from
 * zero, and only a trailing `.00` is dropped: 1500 → `1.50K`, 2000 → `2K`, 250000 → `2.50L`,
 * 12345678 → `1.23Cr`, 99.5 → `99.50`.
 *
 * The unit is picked from the value before rounding, so 99,999.999 → `100K` (not `1L`) and
 * 999.999 → `1000`. A negative amount keeps its sign: -1500 → `-1.50K`.
 * Missing (null, undefined, NaN, ±Infinity) or zero shows `N/A`; so does an amount that rounds
 * to zero (|value| < 0.005), which would otherwise show `0` or `-0`.
 */
export const shortenAmount = (value: number | null | undefined): string => {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING_AMOUNT;
  const magnitude = Math.abs(value);
  const unit = UNITS.find((candidate) => magnitude >= candidate.threshold);
  const exponent = unit?.exponent ?? 0;
  // Hundredths of the unit, rounded half up on the magnitude = half away from zero on the value.
  const hundredths = Math.round(shiftDecimal(magnitude, 2 - exponent));
  if (hundredths === 0) return MISSING_AMOUNT;
  const whole = Math.floor(hundredths / 100);
  const fraction = hundredths % 100;
  const digits = fraction === 0 ? String(whole) : `${whole}.${String(fraction).padStart(2, '0')}`;
  return `${value < 0 ? '-' : ''}${digits}${unit?.suffix ?? ''}`;
};

/**
 * Converts an amount in integer paise (the API's unit) to rupees: 150000 → 1500. The result is a
 * plain number for display helpers such as `shortenAmount`; do not do money arithmetic on it.
 */
export const paiseToRupees = (paise: number): number => paise / 100;
