import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import { paths } from '@kisht/domain/paths';
import type { TestApp } from './harness';
import { bearer } from './harness';

let counter = 0;
/** A fresh Luhn-valid IMEI, unique within the test run. */
export const freshImei = (): string => {
  counter += 1;
  const body = `86${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 1e5).padStart(5, '0')}${String(counter).padStart(4, '0')}`;
  return `${body}${imeiCheckDigit(body)}`;
};

/** A valid add-customer body for the given product; override any field. */
export const customerBody = (productId: number, overrides: Record<string, unknown> = {}) => ({
  firstName: 'Meera',
  lastName: 'Nair',
  email: 'meera@example.in',
  mobile: '9123456780',
  imei1: freshImei(),
  imei2: freshImei(),
  productId,
  pricePaise: 1_799_900,
  downPaymentPaise: 299_900,
  loanAmountPaise: 1_500_000,
  annualRateBps: 1400,
  tenureMonths: 6,
  ...overrides,
});

/** GET with a bearer token, returning the parsed envelope and status. */
export const apiGet = async (t: TestApp, token: string, url: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  return { status: response.statusCode, body: response.json() };
};

/** POST JSON with a bearer token, returning the parsed envelope and status. */
export const apiPost = async (t: TestApp, token: string, url: string, payload: Record<string, unknown>) => {
  const response = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  return { status: response.statusCode, body: response.json() };
};

/** POST multipart/form-data (text fields, then `file` when given) with a bearer token. */
export const apiUpload = async (
  t: TestApp,
  token: string,
  url: string,
  fields: Record<string, string | number>,
  file?: { bytes: Uint8Array; name?: string; type?: string },
) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  if (file) {
    form.append(
      'file',
      new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? 'application/octet-stream' }),
      file.name ?? 'upload.bin',
    );
  }
  const response = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload: form });
  return { status: response.statusCode, body: response.json() };
};

/** A valid 1×1 PNG (a signature's shape, as canvas.toBlob makes it). */
export const PNG_1X1 = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** The start of a JPEG file (SOI + JFIF APP0): enough for content sniffing. */
export const JPEG_BYTES = Uint8Array.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xd9,
]);

/** A minimal PDF header and trailer: enough for content sniffing. */
export const PDF_BYTES = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** The id of the newest customer the list search finds by `firstName`, as `token` sees the list. */
export const customerIdNamed = async (t: TestApp, token: string, firstName: string): Promise<number> =>
  (await apiGet(t, token, `${paths.customers.list}?search=${firstName}`)).body.data.items[0].id as number;
