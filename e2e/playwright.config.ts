import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './support/chromium';

export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/test-results',
  timeout: 180_000,
  expect: { timeout: 20_000 },
  // Each worker runs its own server and MDM fakes (support/stack.ts), so journeys never share data.
  workers: 2,
  retries: 0,
  reporter: [['list']],
  globalSetup: './support/global-setup.ts',
  use: {
    viewport: { width: 412, height: 915 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's chromium (never a downloaded browser build), with the flags this sandbox needs.
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    },
  },
});
