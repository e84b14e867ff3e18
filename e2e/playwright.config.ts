import { execSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

/** Debian's chromium (never a downloaded browser build), with the flags this sandbox needs. */
const chromiumPath = process.env.CHROMIUM_PATH ?? execSync('which chromium').toString().trim();

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
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
