import { describe, expect, it } from 'vitest';
import { paiseToRupees, shortenAmount } from './amount';

describe('shortenAmount (spec §9, rupees)', () => {
  it.each([
    // Units and their thresholds.
    [999, '999'],
    [1000, '1K'],
    [1500, '1.50K'],
    [2000, '2K'],
    [99_999, '100K'],
    [100_000, '1L'],
    [250_000, '2.50L'],
    [9_999_999, '100L'],
    [10_000_000, '1Cr'],
    [12_345_678, '1.23Cr'],
    [2_500_000_000, '250Cr'],
    // Two decimals; only a trailing .00 is dropped.
    [99.5, '99.50'],
    [12.34, '12.34'],
    [0.5, '0.50'],
    [1010, '1.01K'],
    [1001, '1K'],
    [1234.5, '1.23K'],
    // Half away from zero, decided on the decimal text, not the float product.
    [1005, '1.01K'],
    [1.005, '1.01'],
    [1004.999, '1K'],
    [0.005, '0.01'],
    [-0.005, '-0.01'],
    // The unit comes from the value before rounding.
    [99_999.999, '100K'],
    [999.999, '1000'],
    [999.994, '999.99'],
    // Negative amounts keep their sign.
    [-1500, '-1.50K'],
    [-250_000, '-2.50L'],
    [-12_345_678, '-1.23Cr'],
    [-99.5, '-99.50'],
    [-1005, '-1.01K'],
  ])('%d → %s', (value, expected) => {
    expect(shortenAmount(value)).toBe(expected);
  });

  it.each([[null], [undefined], [Number.NaN], [Number.POSITIVE_INFINITY], [0], [-0], [0.004], [-0.004]])(
    '%s shows N/A',
    (value) => {
      expect(shortenAmount(value)).toBe('N/A');
    },
  );
});

describe('paiseToRupees', () => {
  it.each([
    [150_000, 1500],
    [881_486, 8814.86],
    [5, 0.05],
    [0, 0],
    [-100, -1],
  ])('%i paise → %d rupees', (paise, rupees) => {
    expect(paiseToRupees(paise)).toBe(rupees);
  });

  it('feeds shortenAmount: 2,50,000.00 rupees in paise → 2.50L', () => {
    expect(shortenAmount(paiseToRupees(25_000_000))).toBe('2.50L');
  });
});
