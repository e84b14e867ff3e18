import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { ASYNC_UTIL_TIMEOUT_MS } from './timeouts';

// The web tests' one timeout policy (test/timeouts.ts): findBy* and waitFor wait this long.
configure({ asyncUtilTimeout: ASYNC_UTIL_TIMEOUT_MS });

// Render tests never reach a network: without a test's stubApi (vi.stubGlobal, undone by
// vi.unstubAllGlobals after each test), a request stays pending, like one to a slow server. A
// query that starts as a test ends (a poll, a refetch on focus) would otherwise reach jsdom's
// real fetch, fail, and raise its error toast after the test's window is gone.
globalThis.fetch = () => new Promise<Response>(() => {});

// The web project shares one jsdom and module graph per worker across files (vitest.config.ts): what
// a test leaves mounted, stubbed or faked must not reach the next file's tests.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
