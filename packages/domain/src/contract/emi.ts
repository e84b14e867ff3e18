import { z } from 'zod';
import { ZCustomerIdQuery, ZCustomerListQuery } from '../customers/customers.schema';
import { ZDeviceCommand } from '../devices/devices.schema';
import {
  ZCustomerEmiPin,
  ZEditEmiTermsRequest,
  ZEmiDetails,
  ZMyLoan,
  ZPaymentReceipt,
  ZRecordPaymentRequest,
  ZRotateEmiPinRequest,
  ZSendEmiAlertRequest,
  ZSendPenaltyRequest,
  ZTotalOutstanding,
  ZUpcomingEmiCounts,
  ZUpcomingEmiPage,
  ZUpcomingEmiQuery,
  ZUpdateEmiStatusRequest,
} from '../emi/emi.schema';
import { ZIdempotencyKeyHeaders } from '../emi/idempotency-key';
import { paths } from '../paths';
import { defineRoutes } from './define';

/** The customer-list CSV's filters: the list's, without paging (one export holds every row, up to a cap). */
export const ZCustomerListCsvQuery = ZCustomerListQuery.omit({ page: true, pageSize: true });
export type TCustomerListCsvQuery = z.input<typeof ZCustomerListCsvQuery>;

/**
 * The EMI routes of the wire contract (contract/define.ts): the schedule, payments, waivers,
 * penalties, reminders, the EMI PIN, upcoming instalments, the money totals and the CSV exports.
 * Every route needs a session; a customer outside the actor's scope answers 404.
 */
export const emiContract = defineRoutes({
  /** A customer's EMI schedule with paid, outstanding and status of each instalment, totals and payments. */
  details: { method: 'GET', path: paths.emi.details, query: ZCustomerIdQuery, response: ZEmiDetails },
  /**
   * Record a payment against one or several instalments (partial allowed). Safe to retry with an
   * optional `Idempotency-Key` header (IDEMPOTENCY_KEY_HEADER, `headers`): the same key and request answer
   * the first receipt; the same key with another request answers 422 IDEMPOTENCY_KEY_REUSED.
   */
  pay: {
    method: 'POST',
    path: paths.emi.pay,
    headers: ZIdempotencyKeyHeaders,
    body: ZRecordPaymentRequest,
    response: ZPaymentReceipt,
  },
  /** Edit the loan terms before the first payment; the schedule is rebuilt (EMI_EDIT). */
  editTerms: { method: 'POST', path: paths.emi.editTerms, body: ZEditEmiTermsRequest, response: ZEmiDetails },
  /** Levy the organisation's late-payment penalty on an overdue instalment; answers the schedule. */
  sendPenalty: {
    method: 'POST',
    path: paths.customers.sendPenalty,
    body: ZSendPenaltyRequest,
    response: ZEmiDetails,
  },
  /** Waive what is owed on an instalment, or only its penalty, with a reason; answers the schedule. */
  updateStatus: {
    method: 'POST',
    path: paths.emi.updateStatus,
    body: ZUpdateEmiStatusRequest,
    response: ZEmiDetails,
  },
  /** Show the EMI reminder on the customer's phone (the emi_alert command). */
  sendAlert: {
    method: 'POST',
    path: paths.emi.sendAlert,
    body: ZSendEmiAlertRequest,
    response: ZDeviceCommand,
  },
  /** The loan's EMI PIN, issued on first ask. */
  emiPin: { method: 'GET', path: paths.emi.emiPin, query: ZCustomerIdQuery, response: ZCustomerEmiPin },
  /** Issue a new EMI PIN for the loan (the old one stops matching; audited). */
  rotateEmiPin: {
    method: 'POST',
    path: paths.emi.emiPin,
    body: ZRotateEmiPinRequest,
    response: ZCustomerEmiPin,
  },
  /** Unpaid instalments due today, this week, or overdue, earliest first, a page at a time. */
  upcoming: { method: 'GET', path: paths.emi.upcoming, query: ZUpcomingEmiQuery, response: ZUpcomingEmiPage },
  /** Counts of unpaid instalments by range (today, this week, overdue). */
  upcomingCounts: { method: 'GET', path: paths.emi.upcomingCounts, response: ZUpcomingEmiCounts },
  /** Outstanding, overdue and collected money of the actor's customers. */
  totalOutstanding: { method: 'GET', path: paths.stats.totalOutstanding, response: ZTotalOutstanding },
  /** The logged-in customer's own loans (customer users only; others 403). */
  myLoans: { method: 'GET', path: paths.emi.myLoans, response: z.array(ZMyLoan) },
  /** A customer's EMI schedule as a CSV download. */
  scheduleCsv: { method: 'GET', path: paths.emi.scheduleCsv, query: ZCustomerIdQuery, response: 'file' },
  /** The customer list (the list's filters, no paging) as a CSV download. */
  customersCsv: {
    method: 'GET',
    path: paths.customers.listCsv,
    query: ZCustomerListCsvQuery,
    response: 'file',
  },
});
