import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { customerTag } from '../../lib/http/tags';

/** create-customer-hdb: hands the customer to HDB now; the details (with the reference) are refetched. */
export const financerHandoffApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendToHdb: build.mutation<TCustomerDetails, number>({
      query: (customerId) => ({
        url: paths.customers.createHdb,
        method: 'POST',
        body: { customer_id: customerId },
      }),
      // Also after a failure: the hand-off is then marked failed.
      invalidatesTags: (_result, _error, customerId) => [customerTag(customerId)],
    }),
  }),
});

export const { useSendToHdbMutation } = financerHandoffApi;
