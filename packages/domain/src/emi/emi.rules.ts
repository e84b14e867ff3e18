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

/** How interest is charged: on the reducing balance (the default), or flat on the whole principal. */
export type TInterestMethod = 'reducing' | 'flat';

export type TEmiScheduleInput = {
  /** Amount financed, paise (> 0). */
  principalPaise: number;
  /** Interest method; 'reducing' when absent. */
  method?: TInterestMethod;
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
 * Flat-rate schedule: total interest = principal × annual rate × months / 12, rounded to the paisa,
 * spread evenly; principal spread evenly; the last instalment absorbs the remainders of both.
 * Inputs are already validated by buildEmiSchedule.
 */
const buildFlatSchedule = (input: TEmiScheduleInput): TInstalment[] => {
  const { principalPaise, annualRateBps, tenureMonths, firstDueDate } = input;
  const totalInterest = Math.round((principalPaise * annualRateBps * tenureMonths) / 10_000 / 12);
  const principalEach = Math.floor(principalPaise / tenureMonths);
  const interestEach = Math.floor(totalInterest / tenureMonths);
  const schedule: TInstalment[] = [];
  let balance = principalPaise;
  for (let i = 1; i <= tenureMonths; i += 1) {
    const isLast = i === tenureMonths;
    const principal = isLast ? balance : principalEach;
    const interest = isLast ? totalInterest - interestEach * (tenureMonths - 1) : interestEach;
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

/**
 * Builds the instalment schedule for a loan. Amounts are integer paise; each month's interest is
 * the outstanding balance times the monthly rate, rounded to the paisa; the EMI is rounded to the
 * paisa and the last instalment absorbs rounding, so principals sum exactly to the amount financed
 * and amounts sum exactly to principal + interest.
 * Throws AppError(INVALID_LOAN_TERMS) for a non-positive or fractional principal, a negative rate or
 * a tenure outside 1–120 months. Source: reducing-balance EMI; `method: 'flat'` gives the flat-rate
 * schedule instead (see buildFlatSchedule).
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
  if (input.method === 'flat') return buildFlatSchedule(input);
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

/** Where an instalment stands on a given day. */
export type TInstalmentStatus = 'paid' | 'overdue' | 'due_today' | 'upcoming';

/**
 * The status of an instalment on `today` (`YYYY-MM-DD`, +05:30 calendar day): paid once paidPaise
 * covers amountPaise; otherwise overdue after its due date, due_today on it, upcoming before it.
 * A partial payment leaves it unpaid (see outstandingPaise).
 */
export const instalmentStatus = (
  instalment: { dueDate: string; amountPaise: number; paidPaise: number },
  today: string,
): TInstalmentStatus => {
  if (instalment.paidPaise >= instalment.amountPaise) return 'paid';
  if (instalment.dueDate < today) return 'overdue';
  return instalment.dueDate === today ? 'due_today' : 'upcoming';
};

/** Amount still owed on an instalment, paise (never negative). */
export const outstandingPaise = (instalment: { amountPaise: number; paidPaise: number }): number =>
  Math.max(0, instalment.amountPaise - instalment.paidPaise);

/** One slice of a payment applied to one instalment. */
export type TAllocation = { instalmentId: number; amountPaise: number };

/**
 * Applies a payment to the chosen instalments, earliest first, filling each before the next; the
 * last one may be left partly paid. Returns the allocations. Throws AppError(INVALID_PAYMENT) when
 * the amount is not a positive whole number of paise or exceeds what the chosen instalments owe.
 */
export const allocatePayment = (
  instalments: { id: number; instalmentNo: number; amountPaise: number; paidPaise: number }[],
  amountPaise: number,
): TAllocation[] => {
  const owed = instalments.reduce((total, i) => total + outstandingPaise(i), 0);
  if (!Number.isInteger(amountPaise) || amountPaise <= 0) {
    throw new AppError(AppErrorCode.INVALID_PAYMENT, 'Amount must be more than zero', [
      { field: 'amountPaise', message: 'Amount must be more than zero' },
    ]);
  }
  if (amountPaise > owed) {
    throw new AppError(AppErrorCode.INVALID_PAYMENT, 'Amount is more than the chosen instalments owe', [
      { field: 'amountPaise', message: `At most ${owed} paise is owed on the chosen instalments` },
    ]);
  }
  const allocations: TAllocation[] = [];
  let left = amountPaise;
  for (const instalment of [...instalments].sort((a, b) => a.instalmentNo - b.instalmentNo)) {
    if (left === 0) break;
    const slice = Math.min(left, outstandingPaise(instalment));
    if (slice === 0) continue;
    allocations.push({ instalmentId: instalment.id, amountPaise: slice });
    left -= slice;
  }
  return allocations;
};

/** Whole days from `from` to `to` (`YYYY-MM-DD` each); negative when `to` is earlier. */
const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * The penalty send_penalty may levy on an instalment today under the organisation's rule, paise:
 * 0 when penalties are off, the instalment is paid, not more than `graceDays` days overdue, or
 * already carries a penalty (one per instalment). 'flat' gives flatPaise; 'percent' gives
 * percentBps of the instalment's own amount (without penalty), rounded to the paisa.
 */
export const penaltyDuePaise = (
  instalment: { dueDate: string; amountPaise: number; paidPaise: number; penaltyPaise: number },
  rule: { kind: 'none' | 'flat' | 'percent'; flatPaise: number; percentBps: number; graceDays: number },
  today: string,
): number => {
  if (rule.kind === 'none' || instalment.penaltyPaise > 0) return 0;
  if (outstandingPaise(instalment) === 0) return 0;
  if (daysBetween(instalment.dueDate, today) <= rule.graceDays) return 0;
  if (rule.kind === 'flat') return rule.flatPaise;
  return Math.round((instalment.amountPaise * rule.percentBps) / 10_000);
};

/**
 * Whole days an unpaid instalment is past its due date on `today` (`YYYY-MM-DD`, +05:30 calendar
 * day): 0 when it is paid, due today or not yet due.
 */
export const daysOverdue = (
  instalment: { dueDate: string; amountPaise: number; paidPaise: number },
  today: string,
): number => (instalmentStatus(instalment, today) === 'overdue' ? daysBetween(instalment.dueDate, today) : 0);

/** What a borrower owes on one instalment today (their own loan view). Money in paise. */
export type TBorrowerDue = {
  /** Whole days past the due date; 0 unless overdue. */
  daysOverdue: number;
  /**
   * The instalment's late fee: the penalty levied on it (penaltyPaise) plus the one the
   * organisation's rule adds today (penaltyDuePaise), so the borrower sees it before it is levied.
   */
  lateFeePaise: number;
  /** What clears the instalment today, late fee included: outstanding + the fee not yet levied. */
  totalDuePaise: number;
};

/**
 * The borrower's figures of an instalment on `today`: days overdue, the late fee (levied or due under
 * the organisation's rule, see penaltyDuePaise) and the total due including it. A levied penalty is
 * already part of amountPaise, so only the fee not yet levied is added to what is outstanding.
 */
export const borrowerDue = (
  instalment: { dueDate: string; amountPaise: number; paidPaise: number; penaltyPaise: number },
  rule: { kind: 'none' | 'flat' | 'percent'; flatPaise: number; percentBps: number; graceDays: number },
  today: string,
): TBorrowerDue => {
  const feeDue = penaltyDuePaise(instalment, rule, today);
  return {
    daysOverdue: daysOverdue(instalment, today),
    lateFeePaise: instalment.penaltyPaise + feeDue,
    totalDuePaise: outstandingPaise(instalment) + feeDue,
  };
};

/**
 * A payment's receipt number: `KR-{orgId}-{n}` with n, the organisation's own running number from 1,
 * zero-padded to 6 digits (wider past 999,999). Unique in the organisation.
 */
export const receiptNumber = (orgId: number, n: number): string =>
  `KR-${orgId}-${String(n).padStart(6, '0')}`;
