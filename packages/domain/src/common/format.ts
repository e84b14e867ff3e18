/**
 * How money and mobiles are written for people, the same on every screen, certificate, SMS and
 * lock screen: integer paise as rupees with Indian digit grouping, an Indian mobile grouped 5 + 5.
 */

const RUPEES = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Integer paise as rupees with Indian digit grouping: 881486 → `₹8,814.86`, 12345650 → `₹1,23,456.50`. */
export const formatRupees = (paise: number): string => RUPEES.format(paise / 100);

/** An Indian E.164 mobile as people read it (+919876543210 → `+91 98765 43210`); anything else as given. */
export const formatIndianMobile = (e164: string): string => {
  const match = /^\+91(\d{5})(\d{5})$/.exec(e164);
  return match ? `+91 ${match[1]} ${match[2]}` : e164;
};
