import { join } from 'node:path';
import { expect, test } from '../support/fixtures';
import { ARTIFACTS } from '../support/server';

/** The service worker of spec §2/§4: the offline-ready prompt, and cached screens open offline. */
test.use({ serviceWorkers: 'allow' });

test('the app says it is ready to work offline, and opens without a network', async ({ page, context }) => {
  await page.goto('/login');
  await expect(page.getByTestId('reload-prompt-message')).toHaveText('App ready to work offline');
  await page.screenshot({ path: join(ARTIFACTS, 'screenshots', '29-offline-ready.png') });
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('login-mobile')).toBeVisible();
  await page.screenshot({ path: join(ARTIFACTS, 'screenshots', '30-offline-login.png') });
  await context.setOffline(false);
});
