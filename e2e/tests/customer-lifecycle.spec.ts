import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { signConsentInUi } from '../support/consent';
import { expect, test } from '../support/fixtures';
import { loginToDashboard } from '../support/login';
import { ARTIFACTS } from '../support/server';

/**
 * Issue 4 journey: a retailer adds a customer with photo, invoice, a document and a signature,
 * records two payments, and finds the figures on the list, customer_details and the dashboard.
 */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, 'screenshots', `${name}.png`), fullPage: true });
const rupeesToNumber = (text: string) => Number(text.replace(/[^\d.]/g, ''));

/** A 2×2 PNG: a real image the browser can decode and compress. */
const PHOTO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const INVOICE_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

test.use({ serviceWorkers: 'block' });

test('a retailer adds a customer with photo, documents and signature, then records two payments', async ({
  page,
}) => {
  await loginToDashboard(page, '9876543210');
  const countIn = (text: string | null) => Number(/(\d+)/.exec(text ?? '')?.[1]);
  await expect(page.getByTestId('dashboard-total')).toContainText(/\d/);
  const totalBefore = countIn(await page.getByTestId('dashboard-total').textContent());

  // 1. The guided form: personal → address → device → product & financer → loan.
  await page.getByTestId('nav-add-customer').click();
  await page.getByLabel('First name').fill('Deepa');
  await page.getByLabel('Last name').fill('Shah');
  await page.getByLabel('Mobile number').fill('9123400011');
  await page.getByTestId('add-customer-next').click();
  await page.getByLabel('House, street and area').fill('7, Law Garden');
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'Gujarat', exact: true }).click();
  await page.getByRole('combobox', { name: 'City' }).click();
  await page.getByRole('option', { name: 'Ahmedabad', exact: true }).click();
  await page.getByTestId('add-customer-next').click();
  await page.getByLabel('IMEI 1').fill('353322112233441');
  await page.getByLabel('IMEI 2').fill('865432109876549');
  await page.getByTestId('add-customer-next').click();
  await page.getByRole('combobox', { name: 'Product' }).click();
  await page.getByRole('option', { name: /Redmi Note 14 5G/ }).click();
  await page.getByTestId('add-customer-next').click();
  await page.getByLabel('Down payment (₹)').fill('2999');
  await page.getByRole('combobox', { name: 'Tenure' }).click();
  await page.getByRole('option', { name: '6 months', exact: true }).click();
  await page.getByTestId('add-customer-submit').click();

  // 2. Step 6: photo, invoice, a PAN card and the customer's signature.
  await expect(page).toHaveURL(/\/add_customer\?customer_id=\d+$/);
  const customerId = Number(new URL(page.url()).searchParams.get('customer_id'));
  await page.getByTestId('customer-photo-input').setInputFiles({
    name: 'deepa.png',
    mimeType: 'image/png',
    buffer: PHOTO_PNG,
  });
  await expect(page.getByTestId('customer-photo-thumbnail')).toBeVisible();
  await page.getByTestId('customer-invoice-input').setInputFiles({
    name: 'invoice.pdf',
    mimeType: 'application/pdf',
    buffer: INVOICE_PDF,
  });
  await expect(page.getByTestId('customer-invoice-view')).toBeVisible();
  await page.getByTestId('customer-document-type').click();
  await page.getByRole('option', { name: 'PAN card' }).click();
  await page.getByTestId('customer-document-input').setInputFiles({
    name: 'pan.pdf',
    mimeType: 'application/pdf',
    buffer: INVOICE_PDF,
  });
  await expect(page.getByTestId('customer-documents-card')).toContainText('PAN card');

  await page.getByTestId('customer-signature-sign').click();
  await expect(page).toHaveURL(/\/signature\?customer_id=\d+$/);
  const canvas = page.getByTestId('signature-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let x = 20; x <= 200; x += 20) {
    await page.mouse.move(box.x + x, box.y + box.height / 2 + (x % 40 === 0 ? 25 : -25));
  }
  await page.mouse.up();
  await shot(page, '50-signature');
  await page.getByTestId('signature-save').click();
  await expect(page).toHaveURL(/\/add_customer\?customer_id=\d+$/);
  await expect(page.getByTestId('customer-signature-thumbnail')).toBeVisible();
  await shot(page, '51-attachments');
  await page.getByTestId('add-customer-finish-continue').click();
  // Step 7: the consent to remote locking, before the enrolment QR (issue 12).
  await signConsentInUi(page);
  await expect(page).toHaveURL(/\/customer_navigate\?customer_id=\d+/);

  // 3. customer_documents lists what was uploaded.
  await page.goto(`/customer_documents?customer_id=${customerId}`);
  await expect(page.getByTestId('customer-documents-card')).toContainText('PAN card');
  await expect(page.getByTestId('customer-photo-thumbnail')).toBeVisible();

  // 4. Two payments: instalment 1 in full, then ₹500 towards instalment 2.
  await page.goto(`/emi_details?customer_id=${customerId}`);
  await page.getByTestId('emi-select-1').click();
  const first = rupeesToNumber(await page.getByTestId('emi-pay-amount').inputValue());
  await page.getByTestId('emi-pay-mode').click();
  await page.getByTestId('emi-pay-mode-cash').click();
  await page.getByTestId('emi-pay-submit').click();
  const receipt = page.getByRole('dialog', { name: 'Payment receipt' });
  await expect(receipt.getByTestId('receipt-no')).toHaveText(/KR-41-\d{6}/);
  await receipt.getByTestId('receipt-close').click();
  await expect(page.getByTestId('emi-row-1').getByTestId('instalment-status')).toHaveText('Paid');

  await page.getByTestId('emi-select-2').click();
  await page.getByTestId('emi-pay-amount').fill('500');
  await page.getByTestId('emi-pay-mode').click();
  await page.getByTestId('emi-pay-mode-upi').click();
  await page.getByTestId('emi-pay-reference').fill('UPI-DEEPA-2');
  await page.getByTestId('emi-pay-submit').click();
  await expect(receipt.getByTestId('receipt-reference')).toHaveText('UPI-DEEPA-2');
  await receipt.getByTestId('receipt-close').click();
  await expect(page.getByTestId('emi-row-2').getByTestId('emi-row-paid')).toContainText('500.00');
  const paid = rupeesToNumber((await page.getByTestId('emi-total-paid').textContent()) ?? '');
  expect(paid).toBeCloseTo(first + 500, 2);
  await shot(page, '52-emi-after-two-payments');

  // 5. The list finds her; customer_details shows her photo and the payments on the schedule.
  await page.getByTestId('nav-customers').click();
  await page.getByTestId('customer-search').fill('Deepa');
  const row = page.getByTestId(`customer-row-${customerId}`);
  await expect(row).toContainText('Deepa Shah');
  await page.goto(`/customer_details/${customerId}`);
  await expect(page.getByTestId('customer-name')).toHaveText('Deepa Shah');
  await expect(page.getByTestId('customer-avatar').locator('img')).toBeVisible();
  await shot(page, '53-customer-details');

  // 6. The dashboard counts one more customer (inactive until the phone enrols) and the money.
  await page.getByTestId('nav-dashboard').click();
  await expect(page.getByTestId('dashboard-total')).toContainText(String(totalBefore + 1));
  await expect(page.getByTestId('dashboard-collected-month-value')).not.toHaveText('N/A');
  await shot(page, '54-dashboard');
});
