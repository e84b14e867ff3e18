import {
  ZCreateCustomerRequest,
  ZCustomerDetails,
  ZCustomerIdQuery,
  ZUpdateImeiRequest,
  ZUpdateStatusRequest,
} from '../customers/customers.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The customer-details routes of the wire contract (contract/define.ts): those that answer with
 * customer_details (spec §2), the customer with the phone's summary. A session is needed; a
 * customer outside the actor's scope answers 404.
 */
export const customerDetailsContract = defineRoutes({
  /** Add a customer, their phone and EMI schedule (status inactive). */
  create: {
    method: 'POST',
    path: paths.customers.create,
    body: ZCreateCustomerRequest,
    response: ZCustomerDetails,
  },
  /** A customer with the loan, the EMI schedule and the phone's state. */
  details: {
    method: 'GET',
    path: paths.customers.details,
    query: ZCustomerIdQuery,
    response: ZCustomerDetails,
  },
  /** Deactivate or reactivate a customer, with a reason for the audit trail (user.active_deactive). */
  updateStatus: {
    method: 'POST',
    path: paths.customers.updateStatus,
    body: ZUpdateStatusRequest,
    response: ZCustomerDetails,
  },
  /** Correct the phone's IMEIs and serial number (IMEI_EDIT). */
  updateImei: {
    method: 'POST',
    path: paths.customers.updateImei,
    body: ZUpdateImeiRequest,
    response: ZCustomerDetails,
  },
});
