import { defineConfig } from 'vitest/config';
import { MODULE_MOCKING_TESTS, SERVER_TEST_SETUP } from './vitest.config';

/** The server test files that vi.mock a module, each in a module graph of its own (isolate). */
export default defineConfig({
  test: {
    name: 'server-isolated',
    include: MODULE_MOCKING_TESTS,
    ...SERVER_TEST_SETUP,
    isolate: true,
  },
});
