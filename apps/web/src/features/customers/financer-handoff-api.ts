import type { TContractData } from '@kisht/domain/contract/define';
import type { financersContract } from '@kisht/domain/contract/financers';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { customerTag } from '../../lib/http/tags';

type TCreateHdb = (typeof financersContract)['createHdb'];

/** create-customer-hdb: hands the customer to HDB now; the details (with the reference) are refetched. */
export const financerHandoffApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendToHdb: build.mutation<TContractData<TCreateHdb>, number>({
      query: (customerId) =>
        contractRequest<TCreateHdb>(
          { path: paths.customers.createHdb, method: 'POST' },
          { body: { customer_id: customerId } },
        ),
      // Also after a failure: the hand-off is then marked failed.
      invalidatesTags: (_result, _error, customerId) => [customerTag(customerId)],
    }),
  }),
});

export const { useSendToHdbMutation } = financerHandoffApi;
