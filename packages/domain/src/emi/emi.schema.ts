import { z } from 'zod';
import { ZIsoDate, zPage } from '../common/envelope';
import { ZId } from '../common/identifiers';

/** Payment modes a retailer records (spec §2 multiple_emi_paid). */
export const PAYMENT_MODES = ['cash', 'upi', 'card', 'bank_transfer', 'cheque'] as const;
export type TPaymentMode = (typeof PAYMENT_MODES)[number];
/**
 * Every mode a recorded payment can have: the retailer's (PAYMENT_MODES), or 'online' when the
 * customer paid through the payment gateway (recorded by the server, never chosen by hand).
 */
export const RECORDED_PAYMENT_MODES = [...PAYMENT_MODES, 'online'] as const;
export type TRecordedPaymentMode = (typeof RECORDED_PAYMENT_MODES)[number];

/** Instalment status on today's +05:30 date (see instalmentStatus). */
export const ZInstalmentStatus = z.enum(['paid', 'overdue', 'due_today', 'upcoming']);

/** One instalment with what was paid and what is still owed. Money in paise. */
export const ZInstalmentRow = z.object({
  id: ZId,
  instalmentNo: z.number().int(),
  dueDate: ZIsoDate,
  amountPaise: z.number().int(),
  principalPaise: z.number().int(),
  interestPaise: z.number().int(),
  paidPaise: z.number().int(),
  outstandingPaise: z.number().int(),
  status: ZInstalmentStatus,
  /** Late-payment penalty levied on this instalment (send_penalty), paise; part of amountPaise. */
  penaltyPaise: z.number().int(),
  /** Amount waived by the retailer (update_emi_status), paise; part of paidPaise, never collected. */
  waivedPaise: z.number().int(),
  /** The penalty send_penalty would levy today under the organisation's rule, paise; 0 when none is due. */
  penaltyDuePaise: z.number().int(),
});
export type TInstalmentRow = z.infer<typeof ZInstalmentRow>;

/** A recorded payment and how it was applied. receivedAt ISO 8601 UTC. */
export const ZPayment = z.object({
  id: ZId,
  /** Human receipt number, unique in the organisation, e.g. KR-41-000123. */
  receiptNo: z.string(),
  amountPaise: z.number().int(),
  mode: z.enum(RECORDED_PAYMENT_MODES),
  reference: z.string().nullable(),
  receivedAt: z.string(),
  recordedByName: z.string().nullable(),
  allocations: z.array(z.object({ instalmentNo: z.number().int(), amountPaise: z.number().int() })),
});
export type TPayment = z.infer<typeof ZPayment>;

/** emi_details / view_emi_details: the schedule, totals and payments of one customer's loan. */
export const ZEmiDetails = z.object({
  customerId: ZId,
  customerName: z.string(),
  customerStatus: z.number().int(),
  instalments: z.array(ZInstalmentRow),
  totals: z.object({
    amountPaise: z.number().int(),
    paidPaise: z.number().int(),
    outstandingPaise: z.number().int(),
    overduePaise: z.number().int(),
  }),
  payments: z.array(ZPayment),
});
export type TEmiDetails = z.infer<typeof ZEmiDetails>;

/**
 * Record a payment against one or several instalments (multiple_emi_paid). The amount is applied
 * to the chosen instalments earliest first; the last may stay partly paid.
 */
export const ZRecordPaymentRequest = z.object({
  customer_id: ZId,
  emi_ids: z.array(ZId).min(1, 'Choose at least one instalment').max(120),
  amountPaise: z.number().int('Amount must be whole paise').positive('Amount must be more than zero'),
  mode: z.enum(PAYMENT_MODES),
  reference: z.string().trim().max(80).optional(),
});
export type TRecordPaymentRequest = z.input<typeof ZRecordPaymentRequest>;

/** The receipt of a recorded payment, and the customer's status after it (5 when the loan is paid off). */
export const ZPaymentReceipt = ZPayment.extend({ customerStatus: z.number().int() });
export type TPaymentReceipt = z.infer<typeof ZPaymentReceipt>;

/** up_coming_emi ranges: due today, due in the next 7 days (today included), or overdue. */
export const UPCOMING_RANGES = ['today', 'week', 'overdue'] as const;

export const ZUpcomingEmiQuery = z.object({
  range: z.enum(UPCOMING_RANGES).default('week'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZUpcomingEmiItem = z.object({
  emiId: ZId,
  customerId: ZId,
  customerName: z.string(),
  mobile: z.string(),
  instalmentNo: z.number().int(),
  dueDate: ZIsoDate,
  outstandingPaise: z.number().int(),
  status: ZInstalmentStatus,
});
export type TUpcomingEmiItem = z.infer<typeof ZUpcomingEmiItem>;

export const ZUpcomingEmiPage = zPage(ZUpcomingEmiItem);
export type TUpcomingEmiPage = z.infer<typeof ZUpcomingEmiPage>;

/** upcoming_emi_counts: unpaid instalments due today, this week (next 7 days) and overdue. */
export const ZUpcomingEmiCounts = z.object({
  today: z.number().int(),
  week: z.number().int(),
  overdue: z.number().int(),
});
export type TUpcomingEmiCounts = z.infer<typeof ZUpcomingEmiCounts>;

/** getTotalOutStanding: money figures of the actor's customers, paise. */
export const ZTotalOutstanding = z.object({
  outstandingPaise: z.number().int(),
  overduePaise: z.number().int(),
  collectedPaise: z.number().int(),
  /** Collected since the 1st of the current month (+05:30). */
  collectedThisMonthPaise: z.number().int(),
});
export type TTotalOutstanding = z.infer<typeof ZTotalOutstanding>;

/**
 * One instalment as the borrower sees it in their own loan view: the row, plus how late it is, its
 * late fee and the total due including it (see borrowerDue). Money in paise.
 */
export const ZMyInstalmentRow = ZInstalmentRow.extend({
  /** Whole days past the due date (+05:30 calendar day); 0 unless the status is overdue. */
  daysOverdue: z.number().int().nonnegative(),
  /** Late fee: the penalty levied (penaltyPaise) plus the one the organisation's rule adds today. */
  lateFeePaise: z.number().int().nonnegative(),
  /** What clears the instalment today, late fee included; 0 once paid. */
  totalDuePaise: z.number().int().nonnegative(),
});
export type TMyInstalmentRow = z.infer<typeof ZMyInstalmentRow>;

/** The customer user's own view (spec §4 user type customer): their loans and how to pay. */
export const ZMyLoan = z.object({
  customerId: ZId,
  productName: z.string(),
  lockStatus: z.number().int(),
  instalments: z.array(ZMyInstalmentRow),
  totals: ZEmiDetails.shape.totals,
  payTo: z.object({
    retailerName: z.string(),
    /** UPI VPA of the retailer, or null when they have none. */
    upiId: z.string().nullable(),
    /**
     * A `upi://pay` link (NPCI UPI linking spec) for the earliest unpaid instalment's total due, late
     * fee included, or null when the retailer has no UPI ID or nothing is owed.
     */
    upiLink: z.string().nullable(),
    /**
     * True when the retailer uploaded their own QR image (retailer_payment_qr), which "How to pay"
     * shows instead of the generated one (GET paths.users.paymentQrImage?customer_id=).
     */
    hasQrImage: z.boolean().optional(),
    /** The loan's EMI PIN to quote when paying (customer_emi_pin), or null before one is issued. */
    emiPin: z.string().nullable(),
  }),
});
export type TMyLoan = z.infer<typeof ZMyLoan>;

/** EMI_EDIT: new loan terms before any payment; the schedule is rebuilt. Money in paise. */
export const ZEditEmiTermsRequest = z.object({
  customer_id: ZId,
  loanAmountPaise: z
    .number()
    .int('Amount must be whole paise')
    .positive('Loan amount must be more than zero'),
  annualRateBps: z.number().int().min(0).max(10_000),
  tenureMonths: z
    .number()
    .int()
    .min(1, 'Tenure must be 1 to 120 months')
    .max(120, 'Tenure must be 1 to 120 months'),
  interestMethod: z.enum(['reducing', 'flat']).default('reducing'),
  firstDueDate: ZIsoDate.optional(),
});
export type TEditEmiTermsRequest = z.input<typeof ZEditEmiTermsRequest>;

/**
 * The organisation's late-payment penalty rule (send_penalty; the spec names penalties but not their
 * amounts): once an instalment is more than `graceDays` days overdue, one penalty of `flatPaise`
 * ('flat') or `percentBps` of the instalment ('percent') may be levied on it. `kind: 'none'` turns
 * penalties off.
 */
export const ZPenaltyRule = z.object({
  kind: z.enum(['none', 'flat', 'percent']),
  flatPaise: z.number().int().nonnegative(),
  percentBps: z.number().int().min(0).max(10_000),
  graceDays: z.number().int().min(0).max(365),
});
export type TPenaltyRule = z.infer<typeof ZPenaltyRule>;

/** send_penalty: levy the organisation's penalty on one overdue instalment. */
export const ZSendPenaltyRequest = z.object({
  customer_id: ZId,
  emi_id: ZId,
});
export type TSendPenaltyRequest = z.input<typeof ZSendPenaltyRequest>;

/**
 * update_emi_status: the retailer waives what is still owed on an instalment ('waived'), or only
 * its unpaid penalty ('penalty_waived'). A reason is kept in the audit trail.
 */
export const ZUpdateEmiStatusRequest = z.object({
  customer_id: ZId,
  emi_id: ZId,
  status: z.enum(['waived', 'penalty_waived']),
  reason: z.string().trim().min(3, 'Say why, in a few words').max(200),
});
export type TUpdateEmiStatusRequest = z.input<typeof ZUpdateEmiStatusRequest>;

/** send_emialert: show the EMI reminder on the customer's phone (device command emi_alert). */
export const ZSendEmiAlertRequest = z.object({
  customer_id: ZId,
  /** Extra words for the reminder; the amount and due date are added by the server. */
  message: z.string().trim().max(160).optional(),
});
export type TSendEmiAlertRequest = z.input<typeof ZSendEmiAlertRequest>;

/**
 * customer_emi_pin: a 6-digit EMI PIN that identifies a loan when the customer pays: it goes in the
 * UPI payment note, and the customer list search finds the customer by it.
 */
export const ZCustomerEmiPin = z.object({
  customerId: ZId,
  emiPin: z.string().regex(/^\d{6}$/),
  /** ISO 8601 UTC. */
  updatedAt: z.string(),
});
export type TCustomerEmiPin = z.infer<typeof ZCustomerEmiPin>;

/** POST customer_emi_pin: issue a new EMI PIN (the old one stops matching). */
export const ZRotateEmiPinRequest = z.object({ customer_id: ZId });
export type TRotateEmiPinRequest = z.input<typeof ZRotateEmiPinRequest>;
