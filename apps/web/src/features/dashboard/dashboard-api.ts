import { paths } from '@kisht/domain/paths';
import type { TDashboard } from '@kisht/domain/stats/stats.schema';
import { api } from '../../lib/http/api';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<TDashboard, void>({
      query: () => paths.stats.dashboard,
      providesTags: ['Dashboard'],
    }),
  }),
});

export const { useGetDashboardQuery } = dashboardApi;
