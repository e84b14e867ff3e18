import type { TAppConfig, TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import { useSelector } from 'react-redux';
import { ORG_ID } from '../config';
import { selectOrgConfig } from '../ui-slice';
import { api } from './api';

/** How long the public configs stay cached once unused, seconds; they change rarely. */
const CONFIG_CACHE_SECONDS = 60 * 60;

/**
 * The organisation's white-label config (spec §1) and the client-contract config (spec §7). Both
 * are fetched once at start (app/bootstrap.ts) and kept in the ui slice as org_config and
 * app_config; screens read them from there.
 */
export const orgConfigApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrgAppConfig: build.query<TOrgAppConfig, number>({
      query: (orgId) => ({ url: paths.orgs.appConfig, params: { org_id: orgId } }),
      providesTags: (_result, _error, orgId) => [{ type: 'OrgConfig', id: orgId }],
      keepUnusedDataFor: CONFIG_CACHE_SECONDS,
    }),
    getClientConfig: build.query<TAppConfig, void>({
      query: () => paths.orgs.clientConfig,
      keepUnusedDataFor: CONFIG_CACHE_SECONDS,
    }),
  }),
});

/** The organisation's config from the store, or null until (or unless) it has loaded. */
export const useOrgConfig = (): TOrgAppConfig | null => useSelector(selectOrgConfig);

/** The organisation id to send on sign-in: the config's, else the one this page load runs for. */
export const useOrgId = (): number => useOrgConfig()?.orgId ?? ORG_ID;
