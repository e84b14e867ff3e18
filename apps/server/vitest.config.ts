import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that replace a module with vi.mock. The server project shares one module graph per
 * worker (isolate: false), where a module another file loaded first stays real; these files run in
 * the `server-isolated` project (vitest.isolated.config.ts), each with modules of its own.
 */
export const MODULE_MOCKING_TESTS = ['src/modules/auth/mpin-lockout.routes.test.ts'];

/** What both server projects share: the template database, the per-file pool hand-over, timeouts. */
export const SERVER_TEST_SETUP = {
  globalSetup: ['src/test/global-setup.ts'],
  setupFiles: ['src/test/setup-file.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...MODULE_MOCKING_TESTS],
    ...SERVER_TEST_SETUP,
    // Files share a worker's modules and its PGlite (test/pglite-pool.ts): importing the app and
    // opening a database once per worker instead of once per file halves the project's time
    // (issue 17). The test helpers keep no state a file could leak: the pool checks the schema.
    isolate: false,
  },
});
