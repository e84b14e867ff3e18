import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inboxOf } from '@kisht/device-agent/commands';
import {
  ZAdvertisement,
  ZAdvertisementSendProgress,
} from '@kisht/domain/advertisements/advertisements.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  apiGet,
  apiPost,
  apiUpload,
  customerBody,
  enrolReferenceAgent,
  PDF_BYTES,
  PNG_1X1,
  pngHeader,
  waitUntil,
} from '../../test/fixtures';
import { bearer, type TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { signAdImage } from './ad-image-url';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const PNG = { bytes: PNG_1X1, name: 'ad.png', type: 'image/png' };

const compose = (token: string, fields: Record<string, string>, file?: typeof PNG) =>
  apiUpload(t, token, paths.advertisements.upload, fields, file);

const writeCount = async (table: 'advertisements' | 'advertisement_sends' | 'media') =>
  Number((await queryRows(t.app.ctx.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n);

const addCustomer = async (token: string) => {
  const productId = (await apiGet(t, token, `${paths.catalogue.products}?device_type=0`)).body.data[0]
    .id as number;
  return (await apiPost(t, token, paths.customers.create, customerBody(productId))).body.data.id as number;
};

describe('/upload/update_retailer_ad', () => {
  it('saves an ad with a PNG image as a media row owned by the retailer; lists it, shows it as current, serves the image', async () => {
    const saved = await compose(retailer, { title: '  Diwali sale  ', text: 'Zero down payment' }, PNG);
    expect(saved.status).toBe(200);
    const ad = ZAdvertisement.parse(saved.body.data);
    expect(ad).toMatchObject({ title: 'Diwali sale', text: 'Zero down payment', hasImage: true, sends: [] });
    const [row] = await queryRows<{ kind: string; owner_user_id: number; customer_id: number | null }>(
      t.app.ctx.db,
      sql`select m.kind, m.owner_user_id, m.customer_id from media m
          join advertisements a on a.image_media_id = m.id where a.id = ${ad.id}`,
    );
    expect(row).toMatchObject({ kind: 'advertisement', owner_user_id: ad.retailerId, customer_id: null });

    const textOnly = ZAdvertisement.parse((await compose(retailer, { title: 'Open on Sunday' })).body.data);
    expect(textOnly).toMatchObject({ text: '', hasImage: false });
    const list = (await apiGet(t, retailer, paths.advertisements.list)).body.data as { id: number }[];
    expect(list.map((a) => a.id)).toEqual([textOnly.id, ad.id]);
    expect((await apiGet(t, retailer, paths.advertisements.current)).body.data.id).toBe(textOnly.id);

    const image = await t.app.inject({
      method: 'GET',
      url: `${paths.advertisements.image}?advertisement_id=${ad.id}`,
      headers: bearer(retailer),
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    // Issue 27: a stored image is never a page: nothing in it may run or load.
    expect(image.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(new Uint8Array(image.rawPayload)).toEqual(PNG_1X1);
  });

  it('answers 400 naming title and 415 naming file for a PDF, writing nothing', async () => {
    const before = [await writeCount('advertisements'), await writeCount('media')];
    const noTitle = await compose(retailer, { title: '   ', text: 'x' });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.fields.map((f: { field: string }) => f.field)).toContain('title');
    const long = await compose(retailer, { title: 'x'.repeat(81) });
    expect(long.body.fields[0].field).toBe('title');
    const pdf = await compose(
      retailer,
      { title: 'Sale' },
      { bytes: PDF_BYTES, name: 'ad.png', type: 'image/png' },
    );
    expect(pdf.status).toBe(415);
    expect(pdf.body.fields[0].field).toBe('file');
    expect([await writeCount('advertisements'), await writeCount('media')]).toEqual(before);
  });

  it('answers 413 naming file for a PNG claiming 20,000 × 20,000 pixels, writing nothing (issue 27)', async () => {
    const before = [await writeCount('advertisements'), await writeCount('media')];
    const bomb = await compose(
      retailer,
      { title: 'Sale' },
      { bytes: pngHeader(20_000, 20_000), name: 'ad.png', type: 'image/png' },
    );
    expect(bomb.status).toBe(413);
    expect(bomb.body).toMatchObject({
      code: 'MEDIA_TOO_LARGE',
      fields: [{ field: 'file', message: 'The image is larger than 8000 px a side or 40 megapixels' }],
    });
    expect([await writeCount('advertisements'), await writeCount('media')]).toEqual(before);
  });
});

describe('sending an advertisement', () => {
  it('shows it on two enrolled phones (reference agents fetch and check the image); progress counts 2 done; skips the not enrolled', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const stateDir = mkdtempSync(join(tmpdir(), 'kisht-agent-'));
    const phones = [
      await enrolReferenceAgent(t, retailer, join(stateDir, 'a.json')),
      await enrolReferenceAgent(t, retailer, join(stateDir, 'b.json')),
    ];
    try {
      const notEnrolled = await addCustomer(retailer);
      const ad = ZAdvertisement.parse(
        (await compose(retailer, { title: 'Diwali sale', text: 'Hi' }, PNG)).body.data,
      );
      const customerIds = [...phones.map((p) => p.customerId), notEnrolled];
      // Over HTTP, so the image address names the listening server.
      const response = await fetch(`${base}${paths.advertisements.send}`, {
        method: 'POST',
        headers: { ...bearer(retailer), 'content-type': 'application/json' },
        body: JSON.stringify({ advertisement_id: ad.id, customer_ids: customerIds }),
      });
      expect(response.status).toBe(200);
      const sent = ZAdvertisementSendProgress.parse(((await response.json()) as { data: unknown }).data);
      expect(sent.total).toBe(2);
      expect(sent.skipped).toEqual([{ customerId: notEnrolled, reason: 'not enrolled' }]);

      const progress = async () =>
        ZAdvertisementSendProgress.parse(
          (await apiGet(t, retailer, `${paths.advertisements.sendStatus}?send_id=${sent.id}`)).body.data,
        );
      await waitUntil(async () => (await progress()).counts.done === 2);
      expect((await progress()).skipped).toHaveLength(1);
      for (const { agent } of phones) {
        expect(inboxOf(agent.state).ads.at(-1)).toMatchObject({
          advertisementId: ad.id,
          title: 'Diwali sale',
          from: 'Ravi Mobiles',
        });
      }
      const listed = (await apiGet(t, retailer, paths.advertisements.list)).body.data[0];
      expect(listed.sends[0]).toMatchObject({ id: sent.id, total: 2, skippedCount: 1 });
      expect(listed.sends[0].counts.done).toBe(2);
      const [args] = await queryRows<{ args: { imageUrl: string; imageSha256: string } }>(
        t.app.ctx.db,
        sql`select args from device_commands where batch_id = ${sent.id} limit 1`,
      );
      expect(args!.args.imageUrl.startsWith(`${base}${paths.advertisements.deviceImage}?image=`)).toBe(true);
      expect(args!.args.imageSha256).toMatch(/^[0-9a-f]{64}$/);

      const preview = await apiGet(
        t,
        retailer,
        `${paths.advertisements.sendPreview}?advertisement_id=${ad.id}&filter=all_enrolled`,
      );
      expect(preview.body.data.total).toBeGreaterThanOrEqual(2);
    } finally {
      for (const { agent } of phones) await agent.stop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('serves the device image only with a valid, unexpired signature (403 otherwise)', async () => {
    const ad = ZAdvertisement.parse((await compose(retailer, { title: 'Sale' }, PNG)).body.data);
    const [{ image_media_id: mediaId }] = (await queryRows<{ image_media_id: number }>(
      t.app.ctx.db,
      sql`select image_media_id from advertisements where id = ${ad.id}`,
    )) as [{ image_media_id: number }];
    const secret = t.app.ctx.config.JWT_SECRET;
    const get = (exp: number, sig: string) =>
      t.app.inject({
        method: 'GET',
        url: `${paths.advertisements.deviceImage}?image=${mediaId}&exp=${exp}&sig=${sig}`,
      });
    const future = Math.floor(Date.now() / 1000) + 3600;
    const good = await get(future, signAdImage(secret, mediaId, future));
    expect(good.statusCode).toBe(200);
    expect(new Uint8Array(good.rawPayload)).toEqual(PNG_1X1);
    expect((await get(future + 1, signAdImage(secret, mediaId, future))).statusCode).toBe(403);
    const past = Math.floor(Date.now() / 1000) - 10;
    expect((await get(past, signAdImage(secret, mediaId, past))).statusCode).toBe(403);
    expect(
      (await get(future, signAdImage('another-secret-another-secret-000', mediaId, future))).statusCode,
    ).toBe(403);
  });

  it("answers 404 for another organisation's ad, customers and send, 400 naming the selection, 403 without feature access", async ({
    otherRetailer: other,
    miniRetailer: mini,
  }) => {
    const otherAd = ZAdvertisement.parse((await compose(other, { title: 'Theirs' })).body.data);
    const otherCustomer = await addCustomer(other);
    const mine = ZAdvertisement.parse((await compose(retailer, { title: 'Mine' })).body.data);
    const myCustomer = await addCustomer(retailer);
    const sendsBefore = await writeCount('advertisement_sends');

    const theirAd = await apiPost(t, retailer, paths.advertisements.send, {
      advertisement_id: otherAd.id,
      customer_ids: [myCustomer],
    });
    expect(theirAd.status).toBe(404);
    expect(theirAd.body.fields[0].field).toBe('advertisement_id');
    const theirCustomers = await apiPost(t, retailer, paths.advertisements.send, {
      advertisement_id: mine.id,
      customer_ids: [myCustomer, otherCustomer],
    });
    expect(theirCustomers.status).toBe(404);
    expect(theirCustomers.body.fields[0].field).toBe('customer_ids');
    const both = await apiPost(t, retailer, paths.advertisements.send, {
      advertisement_id: mine.id,
      customer_ids: [myCustomer],
      filter: 'all_enrolled',
    });
    expect(both.status).toBe(400);
    expect(both.body.fields[0].field).toBe('customer_ids');
    expect(
      (await apiGet(t, retailer, `${paths.advertisements.image}?advertisement_id=${otherAd.id}`)).status,
    ).toBe(404);
    expect(
      (
        await apiGet(
          t,
          retailer,
          `${paths.advertisements.sendPreview}?advertisement_id=${otherAd.id}&status=1`,
        )
      ).status,
    ).toBe(404);
    expect(await writeCount('advertisement_sends')).toBe(sendsBefore);

    // Their send is not ours to read.
    const theirSend = await apiPost(t, other, paths.advertisements.send, {
      advertisement_id: otherAd.id,
      filter: 'all_enrolled',
    });
    expect(theirSend.status).toBe(200);
    expect(
      (await apiGet(t, retailer, `${paths.advertisements.sendStatus}?send_id=${theirSend.body.data.id}`))
        .status,
    ).toBe(404);

    // A mini-retailer whose parent turned feature access off may not send.
    const miniId = (await apiGet(t, mini, paths.users.me)).body.data.id as number;
    await apiPost(t, retailer, paths.retailers.update, {
      user_id: miniId,
      userAccess: { feature_access: '0' },
    });
    const miniAd = ZAdvertisement.parse((await compose(mini, { title: 'Mini' })).body.data);
    const refused = await apiPost(t, mini, paths.advertisements.send, {
      advertisement_id: miniAd.id,
      filter: 'all_enrolled',
    });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('feature_access');
  });
});
