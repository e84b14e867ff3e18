/** India Standard Time offset (spec §1: dates are shown in the fixed +05:30 offset), minutes. */
export const IST_OFFSET_MINUTES = 330;
const IST_OFFSET_MS = IST_OFFSET_MINUTES * 60_000;

/** The +05:30 calendar date of an instant, `YYYY-MM-DD`. */
export const istDate = (at: Date = new Date()): string =>
  new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);

/** Adds days to a `YYYY-MM-DD` date. */
export const addDays = (isoDate: string, days: number): string =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The UTC instant at which the +05:30 month containing `at` began (00:00 IST on the 1st). */
export const istMonthStart = (at: Date = new Date()): Date => {
  const monthStartIst = `${istDate(at).slice(0, 7)}-01T00:00:00Z`;
  return new Date(Date.parse(monthStartIst) - IST_OFFSET_MS);
};
