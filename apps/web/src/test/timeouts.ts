/**
 * One timeout policy for every web test (issue 12), read by the testing-library setup
 * (test/setup.ts) and the Vitest project (vitest.config.ts). Tests do not set their own.
 *
 * Why this long: CI and the developers share one 2-core machine, where the four test projects run
 * side by side and jsdom renders whole MUI screens. A first render there has taken 8 s (the
 * dashboard route test failed at testing-library's default 1 s), and a lazily loaded page chunk or
 * a polling screen's next round adds more. The values bound how long a broken test takes to fail,
 * not how long a passing one runs: a findBy* query or waitFor returns as soon as its condition
 * holds.
 */

/** How long a findBy* query or waitFor retries before failing, in ms (testing-library's default is 1 s). */
export const ASYNC_UTIL_TIMEOUT_MS = 15_000;

/** How long one test, or one hook, may run, in ms: room for several waits of ASYNC_UTIL_TIMEOUT_MS. */
export const TEST_TIMEOUT_MS = 60_000;
