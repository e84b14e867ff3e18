import { defineConfig } from 'vitest/config';
import { MODULE_MOCKING_TESTS, WEB_TEST_SETUP } from './vitest.config';

/** The web test files that vi.mock a module, each in a module graph and jsdom of its own (isolate). */
export default defineConfig({
  resolve: WEB_TEST_SETUP.resolve,
  test: {
    ...WEB_TEST_SETUP.test,
    name: 'web-isolated',
    include: MODULE_MOCKING_TESTS,
    isolate: true,
  },
});
