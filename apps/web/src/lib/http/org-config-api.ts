import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import { ORG_ID } from '../config';
import { api } from './api';

/**
 * The organisation's white-label config (spec §1). Shared by the theme, the app bar and the
 * sign-in screens, so it lives in lib rather than in one feature.
 */
export const orgConfigApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrgAppConfig: build.query<TOrgAppConfig, number>({
      query: (orgId) => ({ url: paths.orgs.appConfig, params: { org_id: orgId } }),
      providesTags: (_result, _error, orgId) => [{ type: 'OrgConfig', id: orgId }],
      keepUnusedDataFor: 60 * 60,
    }),
  }),
});

/** The config of this build's organisation, fetching it on first use. */
export const useOrgConfig = () => orgConfigApi.useGetOrgAppConfigQuery(ORG_ID);

/** The organisation id to send on sign-in: the config's, else the build's. */
export const useOrgId = (): number => useOrgConfig().data?.orgId ?? ORG_ID;
