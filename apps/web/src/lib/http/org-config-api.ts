import type { TContractData } from '@kisht/domain/contract/define';
import type { orgsContract } from '@kisht/domain/contract/orgs';
import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { paths } from '@kisht/domain/paths';
import { useSelector } from 'react-redux';
import { ORG_ID } from '../config';
import { selectOrgConfig } from '../ui-slice';
import { api } from './api';
import { contractRequest } from './contract-request';
import { READABLE_OFFLINE } from './offline-reads';

type TAppConfigRoute = (typeof orgsContract)['appConfig'];
type TClientConfigRoute = (typeof orgsContract)['clientConfig'];

/** How long the public configs stay cached once unused, seconds; they change rarely. */
const CONFIG_CACHE_SECONDS = 60 * 60;

/**
 * The organisation's white-label config (spec §1) and the client-contract config (spec §7). Both
 * are fetched once at start (app/bootstrap.ts) and kept in the ui slice as org_config and
 * app_config; screens read them from there.
 */
export const orgConfigApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrgAppConfig: build.query<TContractData<TAppConfigRoute>, number>({
      query: (orgId) =>
        contractRequest<TAppConfigRoute>(
          { path: paths.orgs.appConfig, method: 'GET' },
          { params: { org_id: orgId } },
        ),
      providesTags: (_result, _error, orgId) => [{ type: 'OrgConfig', id: orgId }],
      keepUnusedDataFor: CONFIG_CACHE_SECONDS,
      // Offline, the app keeps the organisation's look and rules (issue 28); it is public data.
      extraOptions: READABLE_OFFLINE,
    }),
    getClientConfig: build.query<TContractData<TClientConfigRoute>, void>({
      query: () => contractRequest<TClientConfigRoute>({ path: paths.orgs.clientConfig, method: 'GET' }),
      keepUnusedDataFor: CONFIG_CACHE_SECONDS,
    }),
  }),
});

/** The organisation's config from the store, or null until (or unless) it has loaded. */
export const useOrgConfig = (): TOrgAppConfig | null => useSelector(selectOrgConfig);

/** The organisation id to send on sign-in: the config's, else the one this page load runs for. */
export const useOrgId = (): number => useOrgConfig()?.orgId ?? ORG_ID;
