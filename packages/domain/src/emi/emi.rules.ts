import { AppError, AppErrorCode } from '../common/errors';

/** One instalment of a schedule. Amounts in integer paise; dueDate is a UTC calendar date. */
export type TInstalment = {
  /** 1-based instalment number. */
  instalmentNo: number;
  /** Due date, `YYYY-MM-DD` (UTC calendar date). */
  dueDate: string;
  /** Amount due, paise = principalPaise + interestPaise. */
  amountPaise: number;
  principalPaise: number;
  interestPaise: number;
  /** Outstanding principal after this instalment is paid, paise. */
  balancePaise: number;
};

export type TEmiScheduleInput = {
  /** Amount financed, paise (> 0). */
  principalPaise: number;
  /** Annual interest rate in basis points (1050 = 10.5 % a year); 0 allowed. */
  annualRateBps: number;
  /** Number of monthly instalments (1–120). */
  tenureMonths: number;
  /** Due date of the first instalment, `YYYY-MM-DD`; later ones fall on the same day of later months. */
  firstDueDate: string;
};

/**
 * The reducing-balance EMI in paise before rounding: P·r·(1+r)^n / ((1+r)^n − 1) with r the monthly
 * rate; P/n when r = 0. Source: the standard annuity formula used by Indian lenders (RBI FAQ on EMI).
 */
export const emiAmountExact = (
  principalPaise: number,
  annualRateBps: number,
  tenureMonths: number,
): number => {
  const r = annualRateBps / 10_000 / 12;
  if (r === 0) return principalPaise / tenureMonths;
  const growth = (1 + r) ** tenureMonths;
  return (principalPaise * r * growth) / (growth - 1);
};

/** Adds whole months to a `YYYY-MM-DD` date, clamping to the month's last day (31 Jan + 1 → 28/29 Feb). */
export const addMonthsToDate = (isoDate: string, months: number): string => {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const monthIndex = m - 1 + months;
  const year = y + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d, lastDay);
  return `${year}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
};

/**
 * Builds the instalment schedule for a loan. Amounts are integer paise; each month's interest is
 * the outstanding balance times the monthly rate, rounded to the paisa; the EMI is rounded to the
 * paisa and the last instalment absorbs rounding, so principals sum exactly to the amount financed
 * and amounts sum exactly to principal + interest.
 * Throws AppError(INVALID_LOAN_TERMS) for a non-positive or fractional principal, a negative rate or
 * a tenure outside 1–120 months. Source: reducing-balance EMI.
 */
export const buildEmiSchedule = (input: TEmiScheduleInput): TInstalment[] => {
  const { principalPaise, annualRateBps, tenureMonths, firstDueDate } = input;
  if (!Number.isInteger(principalPaise) || principalPaise <= 0) {
    throw new AppError(AppErrorCode.INVALID_LOAN_TERMS, 'Loan amount must be more than zero', [
      { field: 'loanAmountPaise', message: 'Loan amount must be more than zero' },
    ]);
  }
  if (!Number.isInteger(annualRateBps) || annualRateBps < 0 || annualRateBps > 10_000) {
    throw new AppError(AppErrorCode.INVALID_LOAN_TERMS, 'Interest rate must be between 0 and 100%', [
      { field: 'annualRateBps', message: 'Interest rate must be between 0 and 100%' },
    ]);
  }
  if (!Number.isInteger(tenureMonths) || tenureMonths < 1 || tenureMonths > 120) {
    throw new AppError(AppErrorCode.INVALID_LOAN_TERMS, 'Tenure must be 1 to 120 months', [
      { field: 'tenureMonths', message: 'Tenure must be 1 to 120 months' },
    ]);
  }
  const monthlyRate = annualRateBps / 10_000 / 12;
  const emi = Math.round(emiAmountExact(principalPaise, annualRateBps, tenureMonths));
  const schedule: TInstalment[] = [];
  let balance = principalPaise;
  for (let i = 1; i <= tenureMonths; i += 1) {
    const interest = Math.round(balance * monthlyRate);
    const isLast = i === tenureMonths;
    // The last instalment clears the balance exactly; earlier ones never overshoot it.
    const principal = isLast ? balance : Math.min(balance, emi - interest);
    balance -= principal;
    schedule.push({
      instalmentNo: i,
      dueDate: addMonthsToDate(firstDueDate, i - 1),
      amountPaise: principal + interest,
      principalPaise: principal,
      interestPaise: interest,
      balancePaise: balance,
    });
  }
  return schedule;
};
