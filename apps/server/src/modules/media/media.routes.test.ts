import { ZFailure } from '@kisht/domain/common/envelope';
import { AppErrorCode } from '@kisht/domain/common/errors';
import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/media.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import {
  apiGet,
  apiPost,
  apiUpload,
  customerIdNamed,
  JPEG_BYTES,
  PDF_BYTES,
  PNG_1X1,
} from '../../test/fixtures';
import { bearer, type TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const customerNamed = (firstName: string, token = retailer) => customerIdNamed(t, token, firstName);
const mediaCount = async () =>
  Number((await queryRows(t.app.ctx.db, sql`select count(*)::int as n from media`))[0]!.n);

describe('customer photo and invoice (/upload/update_customer_details)', () => {
  it('stores a photo under the organisation path, shows it on customer_details and serves its bytes', async () => {
    const aarav = await customerNamed('Aarav');
    const uploaded = await apiUpload(
      t,
      retailer,
      paths.customers.uploadImage,
      { customer_id: aarav, kind: 'customer_profile' },
      // The client says PNG; the bytes say JPEG, and the bytes win.
      { bytes: JPEG_BYTES, name: 'photo.png', type: 'image/png' },
    );
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.data).toMatchObject({ kind: 'customer_profile', mimeType: 'image/jpeg' });
    expect(uploaded.body.data.imageName).toMatch(/^41\/customer_profile\/[0-9a-f-]{36}\.jpg$/);

    const details = await apiGet(t, retailer, `${paths.customers.details}?customer_id=${aarav}`);
    expect(details.body.data.photoImageName).toBe(uploaded.body.data.imageName);

    const file = await t.app.inject({
      method: 'GET',
      url: `${paths.media.file}?image_name=${encodeURIComponent(uploaded.body.data.imageName)}`,
      headers: bearer(retailer),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(new Uint8Array(file.rawPayload)).toEqual(JPEG_BYTES);
  });

  it('takes a PDF invoice under customer_invoice_attachment', async () => {
    const aarav = await customerNamed('Aarav');
    const uploaded = await apiUpload(
      t,
      retailer,
      paths.customers.uploadImage,
      { customer_id: aarav, kind: 'customer_invoice_attachment' },
      { bytes: PDF_BYTES, name: 'invoice.pdf' },
    );
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.data.imageName).toMatch(/^41\/customer_invoice_attachment\/.+\.pdf$/);
  });

  it('refuses bad input with a 4xx naming the field, and writes nothing', async () => {
    const aarav = await customerNamed('Aarav');
    const before = await mediaCount();
    const noFile = await apiUpload(t, retailer, paths.customers.uploadImage, {
      customer_id: aarav,
      kind: 'customer_profile',
    });
    expect(noFile.status).toBe(400);
    expect(noFile.body.fields.map((f: { field: string }) => f.field)).toEqual(['file']);

    const badKind = await apiUpload(
      t,
      retailer,
      paths.customers.uploadImage,
      { customer_id: aarav, kind: 'selfie' },
      { bytes: JPEG_BYTES },
    );
    expect(badKind.status).toBe(400);
    expect(badKind.body.fields[0].field).toBe('kind');

    const notAnImage = await apiUpload(
      t,
      retailer,
      paths.customers.uploadImage,
      { customer_id: aarav, kind: 'customer_profile' },
      { bytes: new TextEncoder().encode('<script>alert(1)</script>'), type: 'image/jpeg' },
    );
    expect(notAnImage.status).toBe(415);
    expect(notAnImage.body).toMatchObject({ code: 'MEDIA_TYPE_NOT_ALLOWED', fields: [{ field: 'file' }] });

    const pdfPhoto = await apiUpload(
      t,
      retailer,
      paths.customers.uploadImage,
      { customer_id: aarav, kind: 'customer_profile' },
      { bytes: PDF_BYTES },
    );
    expect(pdfPhoto.status).toBe(415);

    const tooBig = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    tooBig.set(JPEG_BYTES);
    const big = await apiUpload(
      t,
      retailer,
      paths.customers.uploadImage,
      { customer_id: aarav, kind: 'customer_profile' },
      { bytes: tooBig },
    );
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'MEDIA_TOO_LARGE', fields: [{ field: 'file' }] });

    const json = await apiPost(t, retailer, paths.customers.uploadImage, { customer_id: aarav });
    expect(json.status).toBe(400);
    expect(json.body.fields[0].field).toBe('file');
    expect(await mediaCount()).toBe(before);
  });

  it('answers 404 for another organisation’s customer and file, and 511 without a session', async ({
    otherRetailer: other,
  }) => {
    const kiran = await customerNamed('Kiran', other);
    const before = await mediaCount();
    const foreign = await apiUpload(
      t,
      retailer,
      paths.customers.uploadImage,
      { customer_id: kiran, kind: 'customer_profile' },
      { bytes: JPEG_BYTES },
    );
    expect(foreign.status).toBe(404);
    expect(await mediaCount()).toBe(before);

    const theirs = await apiUpload(
      t,
      other,
      paths.customers.uploadImage,
      { customer_id: kiran, kind: 'customer_profile' },
      { bytes: JPEG_BYTES },
    );
    const url = `${paths.media.file}?image_name=${encodeURIComponent(theirs.body.data.imageName)}`;
    expect((await apiGet(t, retailer, url)).status).toBe(404);
    // Even with the path rewritten to our organisation, the file is not ours.
    const forged = theirs.body.data.imageName.replace(/^46\//, '41/');
    expect(
      (await apiGet(t, retailer, `${paths.media.file}?image_name=${encodeURIComponent(forged)}`)).status,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(511);
  });
});

describe('documents (customer_document)', () => {
  it('lists, adds and deletes documents; the mini-retailer cannot see the retailer’s customer', async ({
    miniRetailer: mini,
  }) => {
    const aarav = await customerNamed('Aarav');
    const empty = await apiGet(t, retailer, `${paths.customers.documents}?customer_id=${aarav}`);
    expect(empty.body.data).toMatchObject({
      photo: null,
      invoice: null,
      documents: [],
      witnessRequired: false,
    });

    const pan = await apiUpload(
      t,
      retailer,
      paths.customers.documents,
      { customer_id: aarav, document_type: 'pan_card' },
      { bytes: PDF_BYTES },
    );
    expect(pan.status).toBe(200);
    expect(pan.body.data).toMatchObject({ kind: 'customer_document', documentType: 'pan_card' });
    await apiUpload(
      t,
      retailer,
      paths.customers.documents,
      { customer_id: aarav, document_type: 'aadhaar_front' },
      { bytes: JPEG_BYTES },
    );
    const listed = await apiGet(t, retailer, `${paths.customers.documents}?customer_id=${aarav}`);
    expect(listed.body.data.documents.map((d: { documentType: string }) => d.documentType)).toEqual([
      'aadhaar_front',
      'pan_card',
    ]);
    expect(listed.body.data.documents[0].uploadedByName).toBe('Ravi Mobiles');

    const deleted = await apiPost(t, retailer, paths.customers.deleteDocument, {
      customer_id: aarav,
      media_id: pan.body.data.id,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.documents).toHaveLength(1);
    const gone = `${paths.media.file}?image_name=${encodeURIComponent(pan.body.data.imageName)}`;
    expect((await apiGet(t, retailer, gone)).status).toBe(404);

    expect((await apiGet(t, mini, `${paths.customers.documents}?customer_id=${aarav}`)).status).toBe(404);
  });

  it('refuses a bad document type or media id and other tenants’ ids', async ({ otherRetailer: other }) => {
    const aarav = await customerNamed('Aarav');
    const before = await mediaCount();
    const bad = await apiUpload(
      t,
      retailer,
      paths.customers.documents,
      { customer_id: aarav, document_type: 'passport photo' },
      { bytes: PDF_BYTES },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('document_type');
    const badList = await apiGet(t, retailer, `${paths.customers.documents}?customer_id=abc`);
    expect(badList.status).toBe(400);
    expect(badList.body.fields[0].field).toBe('customer_id');
    const badDelete = await apiPost(t, retailer, paths.customers.deleteDocument, { customer_id: aarav });
    expect(badDelete.status).toBe(400);
    expect(badDelete.body.fields[0].field).toBe('media_id');
    expect(await mediaCount()).toBe(before);

    const kiran = await customerNamed('Kiran', other);
    const theirs = await apiUpload(
      t,
      other,
      paths.customers.documents,
      { customer_id: kiran, document_type: 'pan_card' },
      { bytes: PDF_BYTES },
    );
    expect((await apiGet(t, retailer, `${paths.customers.documents}?customer_id=${kiran}`)).status).toBe(404);
    const foreignDelete = await apiPost(t, retailer, paths.customers.deleteDocument, {
      customer_id: aarav,
      media_id: theirs.body.data.id,
    });
    expect(foreignDelete.status).toBe(404);
    expect(foreignDelete.body.fields[0].field).toBe('media_id');
    const crossDelete = await apiPost(t, retailer, paths.customers.deleteDocument, {
      customer_id: kiran,
      media_id: theirs.body.data.id,
    });
    expect(crossDelete.status).toBe(404);
  });
});

describe('signatures', () => {
  it('stores the customer signature as PNG and refuses a JPEG', async () => {
    const aarav = await customerNamed('Aarav');
    const saved = await apiUpload(
      t,
      retailer,
      paths.customers.signature,
      { customer_id: aarav, kind: 'customer_signature' },
      { bytes: PNG_1X1, name: 'signature.png', type: 'image/png' },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.imageName).toMatch(/^41\/customer_signature\/.+\.png$/);
    const jpeg = await apiUpload(
      t,
      retailer,
      paths.customers.signature,
      { customer_id: aarav, kind: 'customer_signature' },
      { bytes: JPEG_BYTES },
    );
    expect(jpeg.status).toBe(415);
    const media = await apiGet(t, retailer, `${paths.customers.documents}?customer_id=${aarav}`);
    expect(media.body.data.signature.id).toBe(saved.body.data.id);
  });

  it('takes a witness signature only where the witness layout flag is on', async ({
    otherRetailer: shree,
  }) => {
    const aarav = await customerNamed('Aarav');
    const before = await mediaCount();
    const refused = await apiUpload(
      t,
      retailer,
      paths.customers.signature,
      { customer_id: aarav, kind: 'witness_signature' },
      { bytes: PNG_1X1 },
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'WITNESS_NOT_ENABLED', fields: [{ field: 'kind' }] });
    expect(await mediaCount()).toBe(before);

    const kiran = await customerNamed('Kiran', shree);
    const witness = await apiUpload(
      t,
      shree,
      paths.customers.signature,
      { customer_id: kiran, kind: 'witness_signature' },
      { bytes: PNG_1X1 },
    );
    expect(witness.status).toBe(200);
    const media = await apiGet(t, shree, `${paths.customers.documents}?customer_id=${kiran}`);
    expect(media.body.data).toMatchObject({
      witnessRequired: true,
      witnessSignature: { id: witness.body.data.id },
    });
    // Our retailer cannot sign for their customer.
    const foreign = await apiUpload(
      t,
      retailer,
      paths.customers.signature,
      { customer_id: kiran, kind: 'customer_signature' },
      { bytes: PNG_1X1 },
    );
    expect(foreign.status).toBe(404);
  });
});

describe('malformed multipart bodies (issue 12)', () => {
  const BOUNDARY = '----kisht-test-boundary';
  const uploads: { route: string; fields: Record<string, string>; bytes: Uint8Array }[] = [
    { route: paths.customers.uploadImage, fields: { kind: 'customer_profile' }, bytes: JPEG_BYTES },
    { route: paths.customers.documents, fields: { document_type: 'pan_card' }, bytes: PDF_BYTES },
    { route: paths.customers.signature, fields: { kind: 'customer_signature' }, bytes: PNG_1X1 },
  ];
  /** A multipart body with the text fields and `file`; `complete: false` stops it halfway through the file. */
  const multipartBody = (fields: Record<string, string | number>, bytes: Uint8Array, complete: boolean) => {
    const text = Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('');
    const fileHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const content = complete ? bytes : bytes.subarray(0, Math.floor(bytes.length / 2));
    return Buffer.concat([
      Buffer.from(text + fileHead),
      Buffer.from(content),
      Buffer.from(complete ? `\r\n--${BOUNDARY}--\r\n` : ''),
    ]);
  };
  const send = (route: string, payload: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
    t.app.inject({
      method: 'POST',
      url: route,
      headers: { ...bearer(retailer), 'content-type': contentType },
      payload,
    });

  it.each(uploads)(
    '$route: a body cut off in the file answers 400 naming body, and writes nothing',
    async ({ route, fields, bytes }) => {
      const aarav = await customerNamed('Aarav');
      const before = await mediaCount();
      const truncated = await send(route, multipartBody({ customer_id: aarav, ...fields }, bytes, false));
      expect(truncated.statusCode).toBe(400);
      const body = ZFailure.parse(truncated.json());
      expect(body.code).toBe(AppErrorCode.VALIDATION_FAILED);
      expect(body.fields).toEqual([{ field: 'body', message: expect.any(String) }]);
      expect(await mediaCount()).toBe(before);
      // The same body, finished, is a good upload: only the truncation was wrong.
      expect(
        (await send(route, multipartBody({ customer_id: aarav, ...fields }, bytes, true))).statusCode,
      ).toBe(200);
    },
  );

  it.each(uploads)(
    '$route: a multipart content type without a boundary answers 400 naming body',
    async ({ route, fields, bytes }) => {
      const aarav = await customerNamed('Aarav');
      const before = await mediaCount();
      const response = await send(
        route,
        multipartBody({ customer_id: aarav, ...fields }, bytes, true),
        'multipart/form-data',
      );
      expect(response.statusCode).toBe(400);
      expect(ZFailure.parse(response.json()).fields).toEqual([
        { field: 'body', message: expect.any(String) },
      ]);
      expect(await mediaCount()).toBe(before);
    },
  );

  it.each(uploads)(
    '$route: customer_id 2^31 answers 400 naming customer_id',
    async ({ route, fields, bytes }) => {
      const before = await mediaCount();
      const response = await apiUpload(
        t,
        retailer,
        route,
        { customer_id: 2_147_483_648, ...fields },
        { bytes },
      );
      expect(response.status).toBe(400);
      expect(response.body.fields.map((f: { field: string }) => f.field)).toEqual(['customer_id']);
      expect(await mediaCount()).toBe(before);
    },
  );
});
