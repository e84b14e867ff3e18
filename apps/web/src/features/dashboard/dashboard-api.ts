import type { TTotalOutstanding } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import type { TDashboard } from '@kisht/domain/stats/stats.schema';
import { api } from '../../lib/http/api';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<TDashboard, void>({
      query: () => paths.stats.dashboard,
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
