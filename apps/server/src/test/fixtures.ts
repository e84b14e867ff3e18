import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
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

/**
 * A source of distinct client addresses (10.x.y.z, a new one each call) for inject's
 * `remoteAddress`: each request comes from its own address, so per-IP rate limits never answer in
 * a route's place. Each source counts on its own.
 */
export const distinctAddresses = (): (() => string) => {
  let counter = 0;
  return () => {
    counter += 1;
    return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
  };
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

/** PUT JSON with a bearer token, returning the parsed envelope and status. */
export const apiPut = async (t: TestApp, token: string, url: string, payload: Record<string, unknown>) => {
  const response = await t.app.inject({ method: 'PUT', url, headers: bearer(token), payload });
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

/**
 * Records a customer's consent to remote locking as the add-customer flow does (which the
 * enrolment QR needs): the signature uploaded as a customer_signature, the text of `language`
 * read, then the consent recorded against that text's version. Returns the recording's answer.
 */
export const recordConsent = async (t: TestApp, token: string, customerId: number, language = 'en') => {
  const signature = await apiUpload(
    t,
    token,
    paths.customers.signature,
    { customer_id: customerId, kind: 'customer_signature' },
    { bytes: PNG_1X1, name: 'signature.png', type: 'image/png' },
  );
  const text = await apiGet(
    t,
    token,
    `${paths.customers.consentText}?customer_id=${customerId}&language=${language}`,
  );
  return apiPost(t, token, paths.customers.consent, {
    customer_id: customerId,
    language,
    textVersion: text.body.data?.textVersion,
    signature_media_id: signature.body.data?.id,
  });
};

/**
 * recordConsent over real HTTP, for tests that talk to a listening server (`baseUrl`) rather than
 * through `inject`. Throws unless the consent is recorded.
 */
export const recordConsentOverHttp = async (baseUrl: string, token: string, customerId: number) => {
  const auth = bearer(token);
  const form = new FormData();
  form.append('customer_id', String(customerId));
  form.append('kind', 'customer_signature');
  form.append('file', new Blob([PNG_1X1 as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'signature.png');
  const signature = await fetch(`${baseUrl}${paths.customers.signature}`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  const signatureId = ((await signature.json()) as { data: { id: number } }).data.id;
  const text = await fetch(`${baseUrl}${paths.customers.consentText}?customer_id=${customerId}&language=en`, {
    headers: auth,
  });
  const { textVersion } = ((await text.json()) as { data: { textVersion: string } }).data;
  const recorded = await fetch(`${baseUrl}${paths.customers.consent}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      customer_id: customerId,
      language: 'en',
      textVersion,
      signature_media_id: signatureId,
    }),
  });
  if (!recorded.ok) throw new Error(`consent not recorded: ${recorded.status} ${await recorded.text()}`);
};

/**
 * The frame of a 1×1 JPEG (SOI, JFIF APP0, a baseline SOF0 giving its size, EOI): enough for
 * content sniffing and for reading its pixel size (issue 27: an image without one is refused).
 */
export const JPEG_BYTES = Uint8Array.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01, 0x03, 0x01, 0x11, 0x00, 0x02, 0x11, 0x01,
  0x03, 0x11, 0x01, 0xff, 0xd9,
]);

/**
 * The signature and IHDR chunk of a PNG claiming `width` × `height` pixels, and nothing else: a
 * decompression bomb's header (issue 27: 389 KB can claim 20,000 × 20,000), or a tiny image's.
 */
export const pngHeader = (width: number, height: number): Uint8Array<ArrayBuffer> => {
  const ihdr = Buffer.alloc(17);
  ihdr.write('IHDR', 0, 'latin1');
  ihdr.writeUInt32BE(width, 4);
  ihdr.writeUInt32BE(height, 8);
  ihdr.set([8, 6, 0, 0, 0], 12); // 8-bit RGBA, deflate, no filter, no interlace
  const chunk = Buffer.alloc(25);
  chunk.writeUInt32BE(13, 0);
  ihdr.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(ihdr), 21);
  return Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk]);
};

/** A minimal PDF header and trailer: enough for content sniffing. */
export const PDF_BYTES = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** The id of the newest customer the list search finds by `firstName`, as `token` sees the list. */
export const customerIdNamed = async (t: TestApp, token: string, firstName: string): Promise<number> =>
  (await apiGet(t, token, `${paths.customers.list}?search=${firstName}`)).body.data.items[0].id as number;

/** Polls `check` every 50 ms until it is true; throws after timeoutMs. */
export const waitUntil = async (check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met in time');
};

/**
 * Adds a customer through the API, fetches their enrolment QR over real HTTP (so it carries the
 * listening server's URL; call `t.app.listen` first) and enrols and starts a real reference agent
 * with it, its state file at `statePath`. The caller stops the agent.
 */
export const enrolReferenceAgent = async (
  t: TestApp,
  token: string,
  statePath: string,
  agentOptions: { pushToken?: string } = {},
) => {
  const { DeviceAgent } = await import('@kisht/device-agent/agent');
  const productId = (await apiGet(t, token, `${paths.catalogue.products}?device_type=0`)).body.data[0]
    .id as number;
  const body = customerBody(productId);
  const customerId = (await apiPost(t, token, paths.customers.create, body)).body.data.id as number;
  await recordConsent(t, token, customerId);
  const address = t.app.server.address() as AddressInfo;
  const response = await fetch(
    `http://127.0.0.1:${address.port}${paths.customers.qrCode}?customer_id=${customerId}`,
    { headers: bearer(token) },
  );
  const qr = ((await response.json()) as { data: { payload: string } }).data;
  const agent = await DeviceAgent.enrol({
    qr: qr.payload,
    imei1: body.imei1,
    imei2: body.imei2,
    statePath,
    ...agentOptions,
  });
  await agent.start();
  return { agent, customerId };
};

/**
 * The reason fields of a lock made by hand in a test (issue 25): a category that is not a payment
 * and a note, as a customer with nothing overdue needs. Spread into a request body.
 */
export const TEST_LOCK_REASON = {
  reason_category: 'customer_request',
  reason: 'Customer asked us to test the lock',
} as const;
