import type { TContractData } from '@kisht/domain/contract/define';
import type { plansContract } from '@kisht/domain/contract/plans';
import { paths } from '@kisht/domain/paths';
import { api, PLANS_CACHE_SECONDS } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { PLANS_TAG } from '../../lib/http/tags';

/** Which plans a plan screen sells: anti-hacking (tiers 8, 12, 13) or family care (7). */
export type TPlanKind = 'antihacking' | 'familycare';

type TAntihacking = (typeof plansContract)['antihacking'];
type TFamilycare = (typeof plansContract)['familycare'];

/**
 * What only the anti-hacking and family-care screens read (issue 14): the plans of a kind. The
 * sale and the plans sold are lib/http/plans-api's, the products lib/http/products-api's, shared
 * with the other screens. Spec §7: plans are cached 5 s (PLANS_CACHE_SECONDS), so a changed catalogue shows up soon.
 */
export const plansApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The active plans of a kind (spec §7 get_plans_antihacking / get_plans_familycare; spec §3 names: app_type). */
    getSellablePlans: build.query<TContractData<TAntihacking | TFamilycare>, TPlanKind>({
      query: (kind) =>
        kind === 'antihacking'
          ? contractRequest<TAntihacking>({ path: paths.plans.antihacking, method: 'GET' })
          : contractRequest<TFamilycare>({ path: paths.plans.familycare, method: 'GET' }),
      providesTags: [PLANS_TAG],
      keepUnusedDataFor: PLANS_CACHE_SECONDS,
    }),
  }),
});

export const { useGetSellablePlansQuery } = plansApi;
