import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { AgentProcess } from '../support/agent-process';
import { addCustomerWithEnrolledPhone } from '../support/enrolled-phone';
import {
  expect,
  expectTranslated,
  freshImei,
  freshMobile,
  IN_PHONE,
  test,
  viewportShot,
} from '../support/fixtures';

/**
 * Issue 16 journey: the retailer composes an advertisement with an image on send_advertisement,
 * sends it to two enrolled phones chosen by hand, sees the progress reach 2 done, and both phones
 * (the reference agent CLI, which fetches the image and checks its digest) show it. Compose, send
 * and progress are photographed at 412×915 in English and Hindi; the dashboard then shows the ad
 * as a card, dismissed for good (`showAd`).
 */

test.use({ ...IN_PHONE, signedInAs: 'demoRetailer', serviceWorkers: 'block' });

/** Moves the app to `path` as its own links do, without loading the app again. */
const navigateInApp = (page: Page, path: string) =>
  page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);

/** A 600×300 PNG banner drawn in the page (what a shop would pick from its gallery). */
const bannerPng = async (page: Page): Promise<Buffer> => {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 600;
    canvas.height = 300;
    const context = canvas.getContext('2d')!;
    const gradient = context.createLinearGradient(0, 0, 600, 300);
    gradient.addColorStop(0, '#ff9800');
    gradient.addColorStop(1, '#c2185b');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 600, 300);
    context.fillStyle = '#fff';
    context.font = 'bold 56px sans-serif';
    context.fillText('Diwali Sale', 140, 170);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
};

const SECTIONS = ['advertisements', 'commandState', 'bulkLock'];

test('an advertisement with an image: composed, sent to two phones by selection, shown by both', async ({
  page,
  baseURL,
}) => {
  const phones = [new AgentProcess('agent-ad-1'), new AgentProcess('agent-ad-2')];
  const names = ['Meena', 'Farhan'];
  try {
    await page.goto('/dashboard');
    const customerIds: number[] = [];
    for (const [index, agent] of phones.entries()) {
      customerIds.push(
        await addCustomerWithEnrolledPhone(page, baseURL, agent, {
          firstName: names[index]!,
          lastName: 'Adtest',
          mobile: freshMobile('7'),
          imei1: freshImei(),
          imei2: freshImei(),
          pricePaise: 1_299_900,
          loanAmountPaise: 1_000_000,
          statePath: join(mkdtempSync(join(tmpdir(), 'kisht-e2e-ad-')), 'device.json'),
        }),
      );
    }

    // 1. Compose: title, text, an image (compressed in the browser), preview; save.
    await navigateInApp(page, '/send_advertisement');
    await page.getByTestId('ad-title').fill('Diwali sale');
    await page.getByTestId('ad-text').fill('Zero down payment on every phone this week. Visit us!');
    await page
      .getByTestId('ad-image-input')
      .setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: await bannerPng(page) });
    await expect(page.getByTestId('ad-image-preview')).toBeVisible();
    await viewportShot(page, 'ads-compose-en');
    await page.getByTestId('ad-save').click();
    const row = page.locator('[data-testid^="ad-row-"]').first();
    await expect(row).toContainText('Diwali sale');
    await expect(row.locator('img')).toBeVisible();

    // 2. Send to both customers, chosen by hand; the confirmation counts 2 phones.
    await row.getByRole('button').click();
    await page.getByTestId('ad-target-selection').check();
    for (const [index, id] of customerIds.entries()) {
      await page.getByTestId('bulk-search').fill(names[index]!);
      await page.getByTestId(`bulk-customer-${id}`).click();
    }
    await expect(page.getByTestId('bulk-selected-count')).toContainText('2');
    await viewportShot(page, 'ads-send-en');
    await page.getByTestId('ad-send-submit').click();
    await expect(page.getByRole('dialog')).toContainText('2 phones');
    await page.getByTestId('ad-send-confirm').click();

    // 3. Progress reaches 2 done; both phones show the ad.
    await expect(page.getByTestId('ad-count-done')).toHaveText('2', { timeout: 30_000 });
    for (const agent of phones) await agent.waitFor(/showing ad #\d+: "Diwali sale"/);
    await viewportShot(page, 'ads-progress-en');
    const progressUrl = new URL(page.url());

    // 4. The same screens in Hindi.
    await navigateInApp(page, '/language');
    await page.getByTestId('language-option-hn').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'hn');
    await navigateInApp(page, `${progressUrl.pathname}${progressUrl.search}`);
    await expect(page.getByTestId('ad-send-progress-label')).toContainText('फ़ोन ने जवाब दिया');
    await expectTranslated(page, SECTIONS);
    await viewportShot(page, 'ads-progress-hn');
    await page.getByTestId('ad-send-done').click();
    await expect(page.getByTestId('ad-compose')).toContainText('नया विज्ञापन');
    await expectTranslated(page, SECTIONS);
    await viewportShot(page, 'ads-compose-hn');
    await row.getByRole('button').click();
    await page.getByTestId('ad-target-selection').check();
    await expect(page.getByTestId('ad-send-panel')).toContainText('किसे भेजें');
    await expectTranslated(page, SECTIONS);
    await viewportShot(page, 'ads-send-hn');

    // 5. The dashboard shows the newest ad as a card (spec §3 showAd); dismissed, it stays away.
    await navigateInApp(page, '/dashboard');
    await expect(page.getByTestId('current-ad-card')).toContainText('Diwali sale');
    await viewportShot(page, 'ads-dashboard-hn');
    await page.getByTestId('current-ad-dismiss').click();
    await expect(page.getByTestId('current-ad-card')).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('showAd'))).toBe('0');
  } finally {
    for (const agent of phones) await agent.stop();
  }
});
