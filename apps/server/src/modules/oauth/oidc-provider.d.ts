/**
 * The little of `oidc-provider` (a devDependency; it ships no types and @types/oidc-provider is not
 * installed) that the local OpenID provider of oauth.routes.test.ts uses.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  type TAccount = { accountId: string; claims: () => Record<string, unknown> };

  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount?: (ctx: unknown, id: string) => TAccount | Promise<TAccount>;
      },
    );
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
