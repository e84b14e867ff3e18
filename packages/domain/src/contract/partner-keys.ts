import {
  ZCreatePartnerKey,
  ZPartnerKey,
  ZPartnerKeyQuery,
  ZPartnerKeyWithSecret,
} from '../partner-api/partner-api.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The organisation admin's partner API keys (issue 30, docs/partner-api.md). Another
 * organisation's ids answer 404; anyone but the organisation admin 403.
 */
export const partnerKeysContract = defineRoutes({
  /** The organisation's keys, newest first (never their secrets). */
  list: { method: 'GET', path: paths.partnerKeys.keys, response: ZPartnerKey.array() },
  /** Makes a key: answers its whole text, shown this once. */
  create: {
    method: 'POST',
    path: paths.partnerKeys.keys,
    body: ZCreatePartnerKey,
    response: ZPartnerKeyWithSecret,
  },
  /** Revokes a key: its next request answers 401, on every server process. */
  revoke: { method: 'DELETE', path: paths.partnerKeys.keys, query: ZPartnerKeyQuery, response: ZPartnerKey },
});
