import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROVISIONING_EXTRAS } from '@kisht/domain/devices/protocol.schema';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readQrPayload } from './qr';
import { createProvisioningPayload, TEST_ENROLMENT_TOKEN } from './test-support';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kisht-qr-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readQrPayload', () => {
  it('reads the token and server URL from the provisioning JSON text', async () => {
    const payload = createProvisioningPayload({ serverUrl: 'https://shop.example.in/' });

    const qr = await readQrPayload(JSON.stringify(payload));

    expect(qr.enrolmentToken).toBe(TEST_ENROLMENT_TOKEN);
    expect(qr.serverUrl).toBe('https://shop.example.in');
    expect(qr.provisioning).toEqual(payload);
  });

  it('decodes a PNG of the QR code written by the qrcode package', async () => {
    const payload = createProvisioningPayload({ serverUrl: 'http://192.168.1.20:8080' });
    const file = join(dir, 'enrol.png');
    await QRCode.toFile(file, JSON.stringify(payload), { errorCorrectionLevel: 'M' });

    const qr = await readQrPayload(file);

    expect(qr.enrolmentToken).toBe(TEST_ENROLMENT_TOKEN);
    expect(qr.serverUrl).toBe('http://192.168.1.20:8080');
  });

  it('decodes a PNG made with toBuffer whose name does not end in .png', async () => {
    const file = join(dir, 'scan');
    await writeFile(file, await QRCode.toBuffer(JSON.stringify(createProvisioningPayload())));

    expect((await readQrPayload(file)).enrolmentToken).toBe(TEST_ENROLMENT_TOKEN);
  });

  it('reads the provisioning JSON from a text file', async () => {
    const file = join(dir, 'payload.json');
    await writeFile(file, JSON.stringify(createProvisioningPayload()));

    expect((await readQrPayload(file)).enrolmentToken).toBe(TEST_ENROLMENT_TOKEN);
  });

  it('rejects text that is neither JSON nor a file', async () => {
    await expect(readQrPayload('hello there')).rejects.toThrow(/not JSON and not an existing file/);
  });

  it('rejects broken JSON', async () => {
    await expect(readQrPayload('{"android.app.extra')).rejects.toThrow(/QR payload is not JSON/);
  });

  it('rejects a JSON that is not an object', async () => {
    const file = join(dir, 'list.json');
    await writeFile(file, '[1, 2]');
    await expect(readQrPayload(file)).rejects.toThrow(/not a JSON object/);
  });

  it('rejects a provisioning JSON without the admin extras bundle', async () => {
    const text = JSON.stringify(createProvisioningPayload({ extras: null }));
    await expect(readQrPayload(text)).rejects.toThrow(
      /no android\.app\.extra\.PROVISIONING_ADMIN_EXTRAS_BUNDLE object/,
    );
  });

  it('rejects extras without a token, or with a short one', async () => {
    const missing = createProvisioningPayload({ extras: { [PROVISIONING_EXTRAS.serverUrl]: 'http://x' } });
    await expect(readQrPayload(JSON.stringify(missing))).rejects.toThrow(/ENROLMENT_TOKEN/);
    const short = createProvisioningPayload({ token: 'abc' });
    await expect(readQrPayload(JSON.stringify(short))).rejects.toThrow(/ENROLMENT_TOKEN/);
  });

  it('rejects extras whose server URL is missing or not http(s)', async () => {
    const missing = createProvisioningPayload({
      extras: { [PROVISIONING_EXTRAS.enrolmentToken]: TEST_ENROLMENT_TOKEN },
    });
    await expect(readQrPayload(JSON.stringify(missing))).rejects.toThrow(/SERVER_URL/);
    const ftp = createProvisioningPayload({ serverUrl: 'ftp://shop.example.in' });
    await expect(readQrPayload(JSON.stringify(ftp))).rejects.toThrow(/must be an http\(s\) URL/);
  });

  it('says which PNG file is missing', async () => {
    await expect(readQrPayload(join(dir, 'nope.png'))).rejects.toThrow(/QR image not found: .*nope\.png/);
  });

  it('rejects a PNG with no QR code in it', async () => {
    const blank = new PNG({ width: 64, height: 64 });
    blank.data.fill(255);
    const file = join(dir, 'blank.png');
    await writeFile(file, PNG.sync.write(blank));

    await expect(readQrPayload(file)).rejects.toThrow(/no QR code found in .*blank\.png/);
  });

  it('rejects a .png file that is not a PNG', async () => {
    const file = join(dir, 'fake.png');
    await writeFile(file, 'not an image');
    await expect(readQrPayload(file)).rejects.toThrow(/is not a PNG image/);
  });

  it('rejects a QR that holds something other than the provisioning JSON', async () => {
    const file = join(dir, 'url.png');
    await QRCode.toFile(file, 'https://kisht.in/download');
    await expect(readQrPayload(file)).rejects.toThrow(/QR payload is not JSON/);
  });
});
