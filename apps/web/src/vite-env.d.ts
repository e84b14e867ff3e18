/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/react" />
/// <reference types="vite-plugin-pwa/client" />

// An interface, not a type: it merges into Vite's own ImportMetaEnv declaration.
interface ImportMetaEnv {
  /** Organisation this build runs for unless `?org=` or local storage account_id says otherwise (spec §1 config: 41). */
  readonly VITE_ORG_ID?: string;
  /** Where the organisation's config is fetched from; its apiBaseUrl then serves every other call. Empty: same origin. */
  readonly VITE_API_BASE_URL?: string;
}
