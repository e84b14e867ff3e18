import { test as base } from '@playwright/test';

/** Playwright's test with baseURL pointing at the server global-setup started. */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as an object pattern
  baseURL: async ({}, use) => {
    const url = process.env.KISHT_E2E_BASE_URL;
    if (!url) throw new Error('KISHT_E2E_BASE_URL is not set: the global setup did not start the server');
    await use(url);
  },
});
export { expect } from '@playwright/test';
