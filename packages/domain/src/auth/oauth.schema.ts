import { z } from 'zod';
import { ZQueryId } from '../common/identifiers';

/** GET /api/auth/getOauthUrl query: the organisation whose shop signs in with Google. */
export const ZOauthUrlQuery = z.object({ org_id: ZQueryId });
export type TOauthUrlQuery = z.input<typeof ZOauthUrlQuery>;

/** The Google (OpenID Connect) authorization URL to send the browser to. */
export const ZOauthUrl = z.object({ url: z.string() });
export type TOauthUrl = z.infer<typeof ZOauthUrl>;

/**
 * GET /api/auth/oauth/callback query, as the provider redirects back (RFC 6749 §4.1.2): `code` and
 * `state` on success, `error` (and `error_description`) on refusal. Unknown parameters (`iss`,
 * `scope`, `authuser`, …) are kept for the token check.
 */
export const ZOauthCallbackQuery = z.looseObject({
  state: z.string().max(4096).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});
export type TOauthCallbackQuery = z.infer<typeof ZOauthCallbackQuery>;

/** POST /api/auth/oauth/complete: the one-time ticket the callback put in the login page's URL. */
export const ZOauthCompleteRequest = z.object({ ticket: z.string().min(1).max(2048) });
export type TOauthCompleteRequest = z.infer<typeof ZOauthCompleteRequest>;

// Zod-free (oauth-params.ts) so the login page reads it without zod; re-exported for existing imports.
export { OAUTH_RESULT_PARAMS } from './oauth-params';
