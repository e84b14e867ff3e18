export const TRUNCATE_AT = 10;
export const ELLIPSIS = '...';
const DAYS_PER_YEAR = 365;

/**
 * Cuts a string longer than `max` characters to its first `max` characters followed by `...`
 * (spec §9: strings over 10 characters are truncated with an ellipsis). A string of exactly `max`
 * characters is returned whole. Characters are Unicode code points, so an emoji is never split
 * into half a surrogate pair; a combining sign (a Devanagari matra) still counts as its own
 * character. null or undefined gives an empty string.
 */
export const truncate = (text: string | null | undefined, max = TRUNCATE_AT): string => {
  if (!text) return '';
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  return `${characters.slice(0, max).join('')}${ELLIPSIS}`;
};

/**
 * Whole years remaining from a number of days ahead, rounded down with a 365-day year
 * (spec §9): 364 → 0, 365 → 1, 730 → 2. Zero for a negative, zero or non-finite input.
 */
export const remainingYears = (daysAhead: number): number => {
  if (!Number.isFinite(daysAhead) || daysAhead <= 0) return 0;
  return Math.floor(daysAhead / DAYS_PER_YEAR);
};
