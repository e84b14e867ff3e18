import type { customersContract } from '@kisht/domain/contract/customers';
import type { TContractData } from '@kisht/domain/contract/define';
import type { emiContract } from '@kisht/domain/contract/emi';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TDashboard = (typeof customersContract)['dashboard'];
type TTotalOutstanding = (typeof emiContract)['totalOutstanding'];

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Customer counts by status of all the actor's shops, or (a retailer) of one shop: itself or a
     * mini-retailer, `retailer_id`. The cache key is that shop id.
     */
    getDashboard: build.query<TContractData<TDashboard>, number | undefined>({
      query: (retailerId) =>
        contractRequest<TDashboard>(
          { path: paths.stats.dashboard, method: 'GET' },
          retailerId === undefined ? {} : { params: { retailer_id: retailerId } },
        ),
      providesTags: ['Dashboard'],
    }),
    /** Money figures of the actor's customers, paise: outstanding, overdue, collected (month, all). */
    getTotalOutstanding: build.query<TContractData<TTotalOutstanding>, void>({
      query: () => contractRequest<TTotalOutstanding>({ path: paths.stats.totalOutstanding, method: 'GET' }),
      providesTags: ['Outstanding'],
    }),
  }),
});

export const { useGetDashboardQuery, useGetTotalOutstandingQuery } = dashboardApi;
