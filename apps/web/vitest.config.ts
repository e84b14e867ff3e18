import { configDefaults, defineConfig } from 'vitest/config';
import { TEST_TIMEOUT_MS } from './src/test/timeouts';

/**
 * Test files that replace a module with vi.mock. The web project shares one module graph and one
 * jsdom per worker (isolate: false), where a module another file loaded first stays real; these
 * files run in the `web-isolated` project (vitest.isolated.config.ts), each with modules of its own.
 */
export const MODULE_MOCKING_TESTS = [
  'src/app/shop-filter.test.tsx',
  'src/features/customers/pages/customer-navigate-page.test.tsx',
  'src/features/customers/pages/customer-list-page.test.tsx',
  'src/features/customers/pages/signature-page.test.tsx',
  'src/features/customers/pages/customer-documents-page.test.tsx',
  'src/features/ledger/pages/top-up-history-page.test.tsx',
  'src/features/payment-qr/pages/retailer-payment-qr-page.test.tsx',
  'src/features/emi/pages/emi-details-page.test.tsx',
  'src/lib/upload-file.test.ts',
];

/** What both web projects share: the resolve alias, jsdom, the setup file and the timeouts. */
export const WEB_TEST_SETUP = {
  resolve: {
    alias: {
      // vite-plugin-pwa's virtual module exists only in a Vite build; tests use a stand-in.
      'virtual:pwa-register/react': new URL('./src/test/pwa-register-react.ts', import.meta.url).pathname,
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // The one timeout policy of the web tests (src/test/timeouts.ts, why: a shared 2-core CI
    // machine); testing-library's waits get theirs in the setup file.
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
  },
};

export default defineConfig({
  resolve: WEB_TEST_SETUP.resolve,
  test: {
    ...WEB_TEST_SETUP.test,
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: [...configDefaults.exclude, ...MODULE_MOCKING_TESTS],
    // Files share a worker's modules and jsdom: setting up jsdom and importing React, MUI and the
    // app once per worker instead of once per file (issue 17). The setup file cleans up after each test.
    isolate: false,
  },
});
