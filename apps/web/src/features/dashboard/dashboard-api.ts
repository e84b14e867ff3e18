import type { TTotalOutstanding } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import type { TDashboard } from '@kisht/domain/stats/stats.schema';
import { api } from '../../lib/http/api';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Customer counts by status of all the actor's shops, or (a retailer) of one shop: itself or a
     * mini-retailer, `retailer_id`. The cache key is that shop id.
     */
    getDashboard: build.query<TDashboard, number | undefined>({
      query: (retailerId) =>
        retailerId === undefined
          ? paths.stats.dashboard
          : { url: paths.stats.dashboard, params: { retailer_id: retailerId } },
      providesTags: ['Dashboard'],
    }),
    /** Money figures of the actor's customers, paise: outstanding, overdue, collected (month, all). */
    getTotalOutstanding: build.query<TTotalOutstanding, void>({
      query: () => paths.stats.totalOutstanding,
      providesTags: ['Outstanding'],
    }),
  }),
});

export const { useGetDashboardQuery, useGetTotalOutstandingQuery } = dashboardApi;
