import { MISSING_AMOUNT, paiseToRupees, shortenAmount } from '../../lib/amount';
import { formatRupees } from '../../lib/format';

/**
 * A dashboard money figure: `short` is the spec §9 shortened rupees (`1.50L`; `N/A` for zero or
 * missing) and `full` the exact amount (`₹1,50,000.00`) for the tooltip. `hasRupeeSign` is false
 * for N/A, which takes no ₹.
 */
export const moneyFigure = (paise: number | null | undefined) => {
  const short = shortenAmount(paise === null || paise === undefined ? paise : paiseToRupees(paise));
  return {
    short,
    hasRupeeSign: short !== MISSING_AMOUNT,
    full: paise === null || paise === undefined ? MISSING_AMOUNT : formatRupees(paise),
  };
};
