import { ZConsentText } from '../customers/consent.schema';
import { ZCustomerListQuery, ZCustomerPage } from '../customers/customers.schema';
import {
  ZPartnerCommand,
  ZPartnerCommandRequest,
  ZPartnerConsentTextQuery,
  ZPartnerCreateLoan,
  ZPartnerCustomerParams,
  ZPartnerEnrolmentQr,
  ZPartnerLoan,
  ZPartnerPaymentHeaders,
  ZPartnerPaymentReceipt,
  ZPartnerPaymentRequest,
} from '../partner-api/partner-api.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The partner API, version 1 (issue 30, docs/partner-api.md): a lender's loan-management system
 * with an organisation's API key (`Authorization: Bearer kisht_pk_…`) and the scope each route
 * names. A missing, unknown or revoked key answers 401; a key without the scope 403; another
 * organisation's ids 404. Served with its own OpenAPI document (paths.partner.openapi).
 */
export const partnerApiContract = defineRoutes({
  /** The OpenAPI document of these routes. */
  openapi: { method: 'GET', path: paths.partner.openapi, response: 'protocol' },
  /** The consent text to show the customer before they sign, for the loan about to be created (scope devices). */
  consentText: {
    method: 'GET',
    path: paths.partner.consentText,
    query: ZPartnerConsentTextQuery,
    response: ZConsentText,
  },
  /**
   * The organisation's customers, newest first, a page at a time (scope read): the app's list and
   * filters (search by name, mobile or IMEI; status; one shop with retailer_id).
   */
  loans: { method: 'GET', path: paths.partner.customers, query: ZCustomerListQuery, response: ZCustomerPage },
  /** Creates the customer, phone and loan with the consent record (scope devices). */
  createLoan: {
    method: 'POST',
    path: paths.partner.customers,
    body: ZPartnerCreateLoan,
    response: ZPartnerLoan,
  },
  /** A customer's loan, schedule, paid-through date and phone state (scope read). */
  loan: {
    method: 'GET',
    path: paths.partner.customer,
    params: ZPartnerCustomerParams,
    response: ZPartnerLoan,
  },
  /** The enrolment QR the phone scans at set-up (scope devices); reserves an enrolment key. */
  enrolmentQr: {
    method: 'GET',
    path: paths.partner.enrolmentQr,
    params: ZPartnerCustomerParams,
    response: ZPartnerEnrolmentQr,
  },
  /** Lock, unlock or release the phone through the command gate (scope devices). */
  command: {
    method: 'POST',
    path: paths.partner.commands,
    params: ZPartnerCustomerParams,
    body: ZPartnerCommandRequest,
    response: ZPartnerCommand,
  },
  /** Records a payment, oldest instalments first, with a required Idempotency-Key (scope payments). */
  payment: {
    method: 'POST',
    path: paths.partner.payments,
    params: ZPartnerCustomerParams,
    headers: ZPartnerPaymentHeaders,
    body: ZPartnerPaymentRequest,
    response: ZPartnerPaymentReceipt,
  },
});
