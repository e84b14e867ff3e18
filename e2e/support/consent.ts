import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** A valid 1×1 PNG: the signature the API set-up signs with. */
const SIGNATURE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Journey set-up through the API: records the customer's consent to remote locking (issue 12),
 * which the enrolment QR needs: a signature upload, the English text's version, the consent.
 */
export const recordConsentViaApi = async (
  page: Page,
  baseURL: string | undefined,
  customerId: number,
): Promise<void> => {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const auth = { authorization: `Bearer ${token}` };
  const signature = await (
    await page.request.post(`${baseURL}/api/customer/signature`, {
      headers: auth,
      multipart: {
        customer_id: String(customerId),
        kind: 'customer_signature',
        file: { name: 'signature.png', mimeType: 'image/png', buffer: SIGNATURE_PNG },
      },
    })
  ).json();
  expect(signature.response, JSON.stringify(signature)).toBe('success');
  const text = await (
    await page.request.get(`${baseURL}/api/customer/consent_text?customer_id=${customerId}&language=en`, {
      headers: auth,
    })
  ).json();
  const consent = await (
    await page.request.post(`${baseURL}/api/customer/consent`, {
      headers: auth,
      data: {
        customer_id: customerId,
        language: 'en',
        textVersion: text.data.textVersion,
        signature_media_id: signature.data.id,
      },
    })
  ).json();
  expect(consent.response, JSON.stringify(consent)).toBe('success');
};

/**
 * On add_customer's consent step (after "Next: consent to remote locking"): confirms the customer
 * read the text, has them sign on the pad, records the consent and continues to the enrolment QR.
 */
export const signConsentInUi = async (page: Page): Promise<void> => {
  await expect(page.getByTestId('consent-text')).toBeVisible();
  await page.getByRole('checkbox', { name: /has read this text/ }).check();
  const canvas = page.getByTestId('signature-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let x = 20; x <= 200; x += 20) {
    await page.mouse.move(box.x + x, box.y + box.height / 2 + (x % 40 === 0 ? 25 : -25));
  }
  await page.mouse.up();
  await page.getByTestId('signature-save').click();
  await expect(page.getByTestId('consent-recorded')).toBeVisible();
  await page.getByTestId('add-customer-consent-continue').click();
};
