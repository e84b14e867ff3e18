import { ZCreateHdbRequest } from '../catalogue/financer-handoff.schema';
import { ZCustomerDetails } from '../customers/customers.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/** The financer hand-off routes of the wire contract (contract/define.ts; issue 13). */
export const financersContract = defineRoutes({
  /**
   * Hand a customer to HDB now (spec §7 create-customer-hdb); answers the customer's details with
   * the financer's reference. Whoever may see the customer.
   */
  createHdb: {
    method: 'POST',
    path: paths.customers.createHdb,
    body: ZCreateHdbRequest,
    response: ZCustomerDetails,
  },
});
