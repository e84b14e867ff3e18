/// <reference types="vite/client" />

// An interface, not a type: it merges into Vite's own ImportMetaEnv declaration.
interface ImportMetaEnv {
  /** Organisation whose white-label config this build shows (spec §1 config: 41). */
  readonly VITE_ORG_ID?: string;
  /** API origin; empty means same origin (the server serves this app). */
  readonly VITE_API_BASE_URL?: string;
}
