import { ZAppConfig, ZOrgAppConfig, ZOrgAppConfigQuery } from '../orgs/orgs.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The organisation routes of the wire contract (contract/define.ts): what the app loads before
 * login. Both are public (no session). The device-control settings are the devices module's
 * (devicesContract.getDeviceSettings / saveDeviceSettings).
 */
export const orgsContract = defineRoutes({
  /** The white-label configuration (theme, layout, pages, API base URL) of an organisation (public). */
  appConfig: {
    method: 'GET',
    path: paths.orgs.appConfig,
    query: ZOrgAppConfigQuery,
    response: ZOrgAppConfig,
  },
  /** The client-contract settings: request-token secret, auth-header window, cache times (public). */
  clientConfig: { method: 'GET', path: paths.orgs.clientConfig, response: ZAppConfig },
});
