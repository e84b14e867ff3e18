import { defineConfig } from 'vitest/config';
import { TEST_TIMEOUT_MS } from './src/test/timeouts';

export default defineConfig({
  resolve: {
    alias: {
      // vite-plugin-pwa's virtual module exists only in a Vite build; tests use a stand-in.
      'virtual:pwa-register/react': new URL('./src/test/pwa-register-react.ts', import.meta.url).pathname,
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // The one timeout policy of the web tests (src/test/timeouts.ts, why: a shared 2-core CI
    // machine); testing-library's waits get theirs in the setup file.
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
  },
});
