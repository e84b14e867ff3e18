import { ZAuthSession } from '../auth/auth.schema';
import { ZOauthCallbackQuery, ZOauthCompleteRequest, ZOauthUrl, ZOauthUrlQuery } from '../auth/oauth.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/** The Sign in with Google routes of the wire contract (contract/define.ts; OpenID Connect). */
export const oauthContract = defineRoutes({
  /**
   * Start Sign in with Google: the provider's authorization URL for the organisation (public,
   * rate-limited; 404 when Google sign-in is not set up).
   */
  url: { method: 'GET', path: paths.oauth.url, query: ZOauthUrlQuery, response: ZOauthUrl },
  /**
   * The provider's redirect back (called by the browser on Google's behalf): a 302 to the login page
   * with a one-time ticket or an error, never an envelope.
   */
  callback: { method: 'GET', path: paths.oauth.callback, query: ZOauthCallbackQuery, response: 'protocol' },
  /** Exchange the one-time ticket for a session (public, rate-limited). */
  complete: {
    method: 'POST',
    path: paths.oauth.complete,
    body: ZOauthCompleteRequest,
    response: ZAuthSession,
  },
});
