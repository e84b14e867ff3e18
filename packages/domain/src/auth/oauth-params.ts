/**
 * Query parameters the OAuth callback's redirect to the web app's login page carries. Kept apart
 * from oauth.schema.ts (which re-exports it) so the login page reads it without loading zod.
 */
export const OAUTH_RESULT_PARAMS = { ticket: 'oauth_ticket', error: 'oauth_error' } as const;
