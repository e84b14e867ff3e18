import {
  expect,
  expectTranslated,
  IN_PHONE,
  openDrawerItem,
  setLanguage,
  shot,
  test,
} from '../support/fixtures';

/**
 * Issue 29, the collections view: the demo retailer opens Collections from the menu and sees its
 * open loans by days past due (Priya's first instalment is late), PAR 30, collection efficiency
 * and roll rates; the late bucket lists Priya with "Send reminder" and "Lock"; the view reads the
 * same in Hindi at a phone's size; both exports download.
 */
test.use({ ...IN_PHONE, signedInAs: 'demoRetailer' });

test('the collections view shows loans by days past due, drills into a bucket, downloads, and reads in Hindi', async ({
  page,
  context,
  baseURL,
}) => {
  await page.goto('/dashboard');
  await openDrawerItem(page, 'collections', /\/collections$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Collections' })).toBeVisible();
  await expect(page.getByText(/^As of \d{2}-\d{2}-\d{4}$/)).toBeVisible();
  const late = page.getByTestId('collections-bucket-1_30');
  await expect(late).toContainText(/1 loan · ₹[\d,]+\.\d{2} overdue/);
  await expect(page.getByTestId('collections-par30')).toContainText('%');
  await expect(page.getByTestId('collections-roll-rates').getByRole('row')).toHaveCount(7);
  // The payment-reminder schedule sits on the same view; the demo organisation starts without one.
  await expect(page.getByTestId('reminder-settings-summary')).toHaveText(
    'No payment reminders are sent. The retailer can turn them on.',
  );
  await shot(page, 'collections-en');

  const csv = page.waitForEvent('download');
  await page.getByTestId('collections-csv').click();
  expect((await csv).suggestedFilename()).toMatch(/^collections-\d{4}-\d{2}-\d{2}\.csv$/);
  const xlsx = page.waitForEvent('download');
  await page.getByTestId('collections-xlsx').click();
  expect((await xlsx).suggestedFilename()).toMatch(/^collections-\d{4}-\d{2}-\d{2}\.xlsx$/);

  await late.click();
  await expect(page).toHaveURL(/\/collections_loans\?bucket=1_30$/);
  const priya = page.getByTestId(/^collections-loan-\d+$/).filter({ hasText: 'Priya Patel' });
  await expect(priya).toContainText(/\d+ days late · due \d{2}-\d{2}-\d{4}/);
  await expect(priya.getByRole('button', { name: 'Send reminder' })).toBeVisible();
  await expect(priya.getByRole('button', { name: 'Lock' })).toBeVisible();
  await shot(page, 'collections-loans-en');

  await setLanguage(context, baseURL!, 'hn');
  await page.goto('/collections');
  await expect(page.getByRole('heading', { level: 1, name: 'वसूली' })).toBeVisible();
  await expect(page.getByTestId('collections-bucket-1_30')).toBeVisible();
  await expectTranslated(page, ['collections', 'nav']);
  await shot(page, 'collections-hn');
});
