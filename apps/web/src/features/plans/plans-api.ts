import { paths } from '@kisht/domain/paths';
import type { TSellablePlan } from '@kisht/domain/plans/plans.schema';
import { api, PLANS_CACHE_SECONDS } from '../../lib/http/api';
import { PLANS_TAG } from '../../lib/http/tags';

/** Which plans a plan screen sells: anti-hacking (tiers 8, 12, 13) or family care (7). */
export type TPlanKind = 'antihacking' | 'familycare';

/**
 * What only the anti-hacking and family-care screens read (issue 14): the plans of a kind. The
 * sale and the plans sold are lib/http/plans-api's, the products lib/http/products-api's, shared
 * with the other screens. Spec §7: plans are cached 5 s (PLANS_CACHE_SECONDS), so a changed catalogue shows up soon.
 */
export const plansApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The active plans of a kind (spec §7 get_plans_antihacking / get_plans_familycare; spec §3 names: app_type). */
    getSellablePlans: build.query<TSellablePlan[], TPlanKind>({
      query: (kind) => (kind === 'antihacking' ? paths.plans.antihacking : paths.plans.familycare),
      providesTags: [PLANS_TAG],
      keepUnusedDataFor: PLANS_CACHE_SECONDS,
    }),
  }),
});

export const { useGetSellablePlansQuery } = plansApi;
