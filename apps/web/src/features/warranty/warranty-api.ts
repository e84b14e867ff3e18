import { AppType } from '@kisht/domain/common/enums';
import type { warrantyContract } from '@kisht/domain/contract/warranty';
import { paths } from '@kisht/domain/paths';
import type { TCertificateLanguage } from '@kisht/domain/plans/warranty.schema';
import type { TApiError } from '../../lib/http/base-query';
import { contractBlobRequest } from '../../lib/http/contract-download';
import { fetchBlob, type TStoreAccess } from '../../lib/http/direct-blob';
import type { TActivationsFilter, TPlansFilter } from '../../lib/http/plans-api';

/** extended_warranty's plans (GET plans?app_type=5, lib/http/plans-api's listPlans). */
export const WARRANTY_PLANS: TPlansFilter = { appType: AppType.EXTENDED_WARRANTY };
/**
 * The warranties the signed-in person may see (GET plans/activations?app_type=5, lib/http/plans-api's
 * listActivations): a seller its own and its mini-retailers' sales, a customer their own.
 */
export const WARRANTIES: TActivationsFilter = { appTypes: String(AppType.EXTENDED_WARRANTY) };

type TCertificate = (typeof warrantyContract)['certificate'];

/**
 * Fetches a warranty's PDF certificate (GET paths.plans.warrantyCertificate) in `language` through
 * the app's base query, so it carries the same spec §7 headers, 511 handling and error messages as
 * every call; a blob request (the PDF is binary, which a text file request would garble). Resolves
 * to the PDF's Blob or the TApiError; never throws. The Blob stays out of the store.
 */
export const fetchWarrantyCertificate = (
  options: { activationId: number; language: TCertificateLanguage },
  store: TStoreAccess,
): Promise<{ blob: Blob } | { error: TApiError }> =>
  fetchBlob(
    contractBlobRequest<TCertificate>(
      { path: paths.plans.warrantyCertificate, method: 'GET' },
      { activation_id: options.activationId, lang: options.language },
    ),
    store,
    'warrantyCertificate',
  );
