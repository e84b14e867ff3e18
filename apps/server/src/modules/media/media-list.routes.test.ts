import { ZMediaPage } from '@kisht/domain/media/media.schema';
import { paths } from '@kisht/domain/paths';
import { describe, expect } from 'vitest';
import { apiGet, apiUpload, customerIdNamed, PNG_1X1 } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const PNG = { bytes: PNG_1X1, name: 'a.png', type: 'image/png' };
const list = async (token: string, query = '') => {
  const answer = await apiGet(t, token, `${paths.media.file}${query}`);
  expect(answer.status).toBe(200);
  return ZMediaPage.parse(answer.body.data);
};

describe('GET /api/medias (the media list, spec §7)', () => {
  it("lists the actor's customers' files and own files, metadata only, newest first, paged; nothing of others", async ({
    otherRetailer: other,
    miniRetailer: mini,
  }) => {
    const aarav = await customerIdNamed(t, retailer, 'Aarav');
    const photo = await apiUpload(
      t,
      retailer,
      paths.customers.uploadImage,
      { customer_id: aarav, kind: 'customer_profile' },
      PNG,
    );
    const ad = await apiUpload(t, retailer, paths.advertisements.upload, { title: 'Sale' }, PNG);
    await apiUpload(t, other, paths.advertisements.upload, { title: 'Theirs' }, PNG);

    const page = await list(retailer, '?pageSize=100');
    const ids = page.items.map((item) => item.id);
    expect(ids).toContain(photo.body.data.id);
    expect(page.items[0]).toMatchObject({
      kind: 'advertisement',
      customerId: null,
      mimeType: 'image/png',
      url: `${paths.advertisements.image}?advertisement_id=${ad.body.data.id}`,
    });
    const item = page.items.find((i) => i.id === photo.body.data.id)!;
    expect(item).toMatchObject({ customerId: aarav, kind: 'customer_profile' });
    expect(item.url).toBe(`${paths.media.file}?image_name=${encodeURIComponent(photo.body.data.imageName)}`);
    expect(JSON.stringify(page)).not.toContain('content');

    const first = await list(retailer, '?pageSize=1');
    expect(first.items).toHaveLength(1);
    expect(first.total).toBe(page.total);
    expect((await list(retailer, '?pageSize=1&page=2')).items[0]!.id).toBe(ids[1]);

    // The other organisation sees only its own ad; a mini-retailer not the parent's customers or files.
    const theirs = (await list(other, '?pageSize=100')).items;
    expect(theirs[0]!.kind).toBe('advertisement');
    expect(theirs.map((i) => i.id).filter((id) => ids.includes(id))).toEqual([]);
    const miniIds = (await list(mini, '?pageSize=100')).items.map((i) => i.id);
    expect(miniIds).not.toContain(photo.body.data.id);
  });

  it('answers 400 naming pageSize', async () => {
    const answer = await apiGet(t, retailer, `${paths.media.file}?pageSize=1000`);
    expect(answer.status).toBe(400);
    expect(answer.body.fields[0].field).toBe('pageSize');
  });
});
