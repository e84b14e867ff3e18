import { z } from 'zod';
import {
  ZConsentText,
  ZConsentTextQuery,
  ZCustomerConsent,
  ZCustomerConsentAnswer,
  ZMyConsent,
  ZRecordConsentRequest,
} from '../customers/consent.schema';
import {
  ZCustomerIdQuery,
  ZCustomerListQuery,
  ZCustomerPage,
  ZLoanDefaults,
  ZStatusChange,
} from '../customers/customers.schema';
import { paths } from '../paths';
import { ZDashboard, ZDashboardQuery } from '../stats/stats.schema';
import { defineRoutes } from './define';

/**
 * The customers routes of the wire contract (contract/define.ts): the customer list, status history,
 * loan defaults, the consent to remote locking and the dashboard counts. Every route needs a session;
 * a customer outside the actor's scope answers 404.
 */
export const customersContract = defineRoutes({
  /** Customers of the retailer (and their mini-retailers), newest first, a page at a time, filtered. */
  list: { method: 'GET', path: paths.customers.list, query: ZCustomerListQuery, response: ZCustomerPage },
  /** A customer's status changes, newest first. */
  statusHistory: {
    method: 'GET',
    path: paths.customers.statusHistory,
    query: ZCustomerIdQuery,
    response: z.array(ZStatusChange),
  },
  /** The organisation's loan terms add_customer starts with (annual interest rate); not for customers (403). */
  loanDefaults: { method: 'GET', path: paths.customers.loanDefaults, response: ZLoanDefaults },
  /**
   * The consent to remote locking in the customer's language, with its version (sent back when
   * recording), to show before signing; not for customers (403).
   */
  consentText: {
    method: 'GET',
    path: paths.customers.consentText,
    query: ZConsentTextQuery,
    response: ZConsentText,
  },
  /** The customer's recorded consent to remote locking, null while none is; not for customers (403). */
  consent: {
    method: 'GET',
    path: paths.customers.consent,
    query: ZCustomerIdQuery,
    response: ZCustomerConsentAnswer,
  },
  /**
   * Record the customer's signed consent to remote locking (needed before the enrolment QR); recorded
   * once, a repeat answers the consent that stands. Not for customers (403).
   */
  recordConsent: {
    method: 'POST',
    path: paths.customers.consent,
    body: ZRecordConsentRequest,
    response: ZCustomerConsent,
  },
  /** The logged-in customer's own consents to remote locking (customer users only; others 403). */
  myConsents: { method: 'GET', path: paths.customers.myConsents, response: z.array(ZMyConsent) },
  /** Customer counts by status: all the actor's retailers, or one with retailer_id. */
  dashboard: { method: 'GET', path: paths.stats.dashboard, query: ZDashboardQuery, response: ZDashboard },
});
