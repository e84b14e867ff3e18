import { paths } from '../paths';
import { ZWarrantyCertificateQuery } from '../plans/warranty.schema';
import { defineRoutes } from './define';

/**
 * The extended-warranty routes of the wire contract (contract/define.ts; issue 14, app_type 5).
 * The sale itself is plans' (plansContract.sell).
 */
export const warrantyContract = defineRoutes({
  /**
   * The PDF certificate of an extended warranty sold, in one of the app languages (default en);
   * a download. Session required; a warranty the actor may not see answers 404.
   */
  certificate: {
    method: 'GET',
    path: paths.plans.warrantyCertificate,
    query: ZWarrantyCertificateQuery,
    response: 'file',
  },
});
