import type { TContractData } from '@kisht/domain/contract/define';
import type { ledgerContract } from '@kisht/domain/contract/ledger';
import { paths } from '@kisht/domain/paths';
import { api } from './api';
import { contractRequest } from './contract-request';

type TAdminRetailers = (typeof ledgerContract)['adminRetailers'];

/**
 * The organisation's retailers matching a name, shop or mobile fragment (organisation admin), which
 * more than one feature reads: the admin home's retailers (credit keys) and the partner API key
 * form (the retailer a key books its loans under). Each search is its own cached list; a join
 * request approved refetches them all (`AdminRetailer` LIST).
 */
export const adminRetailersApi = api.injectEndpoints({
  endpoints: (build) => ({
    listAdminRetailers: build.query<TContractData<TAdminRetailers>, string>({
      query: (search) =>
        contractRequest<TAdminRetailers>(
          { path: paths.admin.retailers, method: 'GET' },
          { params: search ? { search } : {} },
        ),
      providesTags: (_result, _error, search) => [
        { type: 'AdminRetailer', id: 'LIST' },
        { type: 'AdminRetailer', id: `search:${search}` },
      ],
    }),
  }),
});

export const { useListAdminRetailersQuery } = adminRetailersApi;
