import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  ACTIVATION_CODE,
  expect,
  expectTranslated,
  freshImei,
  freshMobile,
  IN_PHONE,
  openDrawerItem,
  SHOTS,
  setLanguage,
  shot,
  test,
} from '../support/fixtures';

/**
 * Issue 14, extended warranty (app_type 5): the demo retailer sells a warranty on a phone (plan,
 * buyer, model, IMEI, term with its end date shown), gets the code and downloads the PDF
 * certificate, which is in the UI's language: English, then Hindi. The screen is photographed in
 * both at 412×915, and so is the certificate's first page when poppler's pdftoppm is on the
 * machine.
 */

test.use({ ...IN_PHONE, signedInAs: 'demoRetailer' });

/** The translation sections whose keys must never show untranslated. */
const SECTIONS = ['warranty', 'validation', 'pages', 'nav'];

/** Whether a program is on the PATH (pdftoppm comes with poppler-utils, which tests never install). */
const hasProgram = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Clicks a certificate button, checks the download is a PDF and saves it as `name`.pdf; returns its path. */
const downloadCertificate = async (page: Page, testId: string, name: string): Promise<string> => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  expect(download.suggestedFilename()).toMatch(/^warranty-.+\.pdf$/);
  const file = join(SHOTS, `${name}.pdf`);
  await download.saveAs(file);
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(5_000);
  if (hasProgram('pdftoppm')) {
    // First page at 60 dpi: <name>-1.png, renamed to <name>.png beside the screen shots.
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', file, join(SHOTS, name)]);
    renameSync(join(SHOTS, `${name}-1.png`), join(SHOTS, `${name}.png`));
  }
  return file;
};

test('a retailer sells an extended warranty and downloads its certificate in English and Hindi', async ({
  page,
  context,
  baseURL,
}) => {
  await page.goto('/dashboard');
  await openDrawerItem(page, 'extendedWarranty', /\/extended_warranty$/);
  await expect(page.getByTestId('warranty-sell-form')).toBeVisible();

  await page.getByRole('combobox', { name: /^Warranty plan/ }).click();
  await page.getByRole('option', { name: /^Extended Warranty 1 year ·/ }).click();
  await page.getByTestId('warranty-firstName').fill('Sunita');
  await page.getByTestId('warranty-lastName').fill('Verma');
  await page.getByTestId('warranty-mobile').fill(freshMobile());
  await page.getByRole('combobox', { name: /^Phone model/ }).click();
  await page.getByRole('option').first().click();
  // A wrong check digit is refused before anything is sent.
  const imei = freshImei();
  await page.getByTestId('warranty-imei').fill(`${imei.slice(0, 14)}${(Number(imei[14]) + 1) % 10}`);
  await page.getByTestId('warranty-submit').click();
  await expect(page.getByText('IMEI must be 15 digits with a valid check digit')).toBeVisible();
  await page.getByTestId('warranty-imei').fill(imei);
  await page.getByTestId('warranty-startDate').fill('2026-03-01');
  await expect(page.getByTestId('warranty-end-date')).toHaveText('28-02-2027');
  await page.getByTestId('warranty-submit').click();

  const code = (await page.getByTestId('warranty-code').textContent()) ?? '';
  expect(code).toMatch(ACTIVATION_CODE);
  const row = page.getByTestId(/^warranty-row-\d+$/).filter({ hasText: code });
  await expect(row).toContainText('Sunita Verma');
  await expect(row).toContainText('01-03-2026 to 28-02-2027');
  await downloadCertificate(page, 'warranty-sold-certificate', '14-warranty-certificate-en');
  await expectTranslated(page, SECTIONS);
  await shot(page, '14-warranty-en');

  // The list is the server's: after a reload (in Hindi) the sale is there with its certificate.
  await setLanguage(context, baseURL!, 'hn');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hn');
  await expect(row).toContainText('01-03-2026 से 28-02-2027 तक');
  const rowId = (await row.getAttribute('data-testid'))!.replace('warranty-row-', '');
  await downloadCertificate(page, `warranty-certificate-${rowId}`, '14-warranty-certificate-hn');
  await expectTranslated(page, SECTIONS);
  await shot(page, '14-warranty-hn');
});
