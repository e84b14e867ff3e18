import { defineConfig } from 'vitest/config';

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
    // Form journeys in jsdom take a few seconds each; on a busy two-core machine 5 s is too tight.
    testTimeout: 20_000,
  },
});
