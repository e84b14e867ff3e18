import type { Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { signConsentInUi } from './consent';
import { expect } from './fixtures';

/**
 * Journey helpers of the device families (issue 15): the add-customer form with a device family,
 * and a real QR decoder run on what the page shows of its QR.
 */

/**
 * Decodes the QR code the element `testId` (the enrolment QR) shows, with jsQR, from a screenshot
 * of it: the pixels a camera pointed at the screen would see, at the page's scale, enlarged
 * `scale` times pixel for pixel first when `scale` > 1. Returns the text it encodes, or null when
 * jsQR finds no QR code.
 */
export const decodeQrOnPage = async (
  page: Page,
  scale = 1,
  testId = 'enrolment-qr',
): Promise<string | null> => {
  const element = page.getByTestId(testId);
  await expect(element).toBeVisible();
  const png = PNG.sync.read(await element.screenshot());
  const image = scale > 1 ? enlarged(png, scale) : png;
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
};

/** `png` enlarged `factor` times, each pixel copied into a factor × factor square. */
const enlarged = (png: PNG, factor: number): { data: Buffer; width: number; height: number } => {
  const width = png.width * factor;
  const height = png.height * factor;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const from = ((Math.floor(y / factor) * png.width + Math.floor(x / factor)) * 4) | 0;
      png.data.copy(data, (y * width + x) * 4, from, from + 4);
    }
  }
  return { data, width, height };
};

/** The customer a journey adds through add_customer. */
export type TFamilyCustomer = {
  firstName: string;
  lastName: string;
  mobile: string;
  /** The device type's label in the form (Device policy controller, Managed Android API, …). */
  deviceType: 'Managed Android API' | 'Link-based family-locking app' | 'Apple';
  /** The app type the form must have chosen for that family (its default). */
  appType: string;
  imei1: string;
  imei2: string;
  /** Apple only. */
  serialNumber?: string;
  /** `YYYY-MM-DD`; absent: a month from today. */
  firstDueDate?: string;
};

/**
 * Adds a customer through the guided add_customer form as a retailer does (personal → address →
 * device with its family → product → loan), skips the attachments, signs the consent to remote
 * locking and lands on customer_navigate; returns the customer id.
 */
export const addFamilyCustomerInUi = async (page: Page, customer: TFamilyCustomer): Promise<number> => {
  await page.goto('/dashboard');
  await page.getByTestId('nav-add-customer').click();
  await page.getByLabel('First name').fill(customer.firstName);
  await page.getByLabel('Last name').fill(customer.lastName);
  await page.getByLabel('Mobile number').fill(customer.mobile);
  await page.getByTestId('add-customer-next').click();
  await page.getByLabel('House, street and area').fill('12, FC Road');
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'Maharashtra', exact: true }).click();
  await page.getByRole('combobox', { name: 'City' }).click();
  await page.getByRole('option', { name: 'Pune', exact: true }).click();
  await page.getByTestId('add-customer-next').click();
  await page.getByRole('combobox', { name: 'Device type' }).click();
  await page.getByRole('option', { name: customer.deviceType, exact: true }).click();
  // The family decides the app types offered; it starts on its default.
  await expect(page.getByRole('combobox', { name: 'App type' })).toHaveText(customer.appType);
  await page.getByLabel('IMEI 1').fill(customer.imei1);
  await page.getByLabel('IMEI 2').fill(customer.imei2);
  if (customer.serialNumber) await page.getByLabel('Serial number').fill(customer.serialNumber);
  await page.getByTestId('add-customer-next').click();
  // Only the family's phones are offered (issue 28): an iPhone for Apple, an Android phone otherwise.
  await page.getByRole('combobox', { name: 'Product' }).click();
  if (customer.deviceType === 'Apple')
    await expect(page.getByRole('option', { name: /Redmi Note 14 5G/ })).toHaveCount(0);
  else await expect(page.getByRole('option', { name: /iPhone/ })).toHaveCount(0);
  await page
    .getByRole('option', { name: customer.deviceType === 'Apple' ? /iPhone 15/ : /Redmi Note 14 5G/ })
    .click();
  await page.getByTestId('add-customer-next').click();
  await page.getByLabel('Down payment (₹)').fill('2999');
  await page.getByRole('combobox', { name: 'Tenure' }).click();
  await page.getByRole('option', { name: '6 months', exact: true }).click();
  if (customer.firstDueDate) await page.getByLabel('First due date (optional)').fill(customer.firstDueDate);
  await expect(page.getByTestId('emi-preview-amount')).toContainText('₹');
  await page.getByTestId('add-customer-submit').click();
  await expect(page).toHaveURL(/\/add_customer\?customer_id=\d+$/);
  const customerId = Number(new URL(page.url()).searchParams.get('customer_id'));
  await page.getByTestId('add-customer-finish-continue').click();
  // The customer's signed consent to remote locking comes before any QR (issue 12).
  await signConsentInUi(page);
  await expect(page).toHaveURL(new RegExp(`/customer_navigate\\?customer_id=${customerId}`));
  return customerId;
};

/** Fails when the page shows the "Coming soon" placeholder of a screen not built yet. */
export const expectNotComingSoon = async (page: Page) => {
  await expect(page.getByTestId('coming-soon')).toHaveCount(0);
  await expect(page.getByText(/coming soon/i)).toHaveCount(0);
};
