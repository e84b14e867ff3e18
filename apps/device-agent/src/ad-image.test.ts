import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AD_IMAGE_MAX_BYTES, checkAdImage } from './ad-image';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const answering = (body: Uint8Array, status = 200): typeof fetch =>
  (async () => new Response(body, { status })) as unknown as typeof fetch;

describe('checkAdImage (show_ad image before showing)', () => {
  it('passes an ad without an image, and an image whose digest matches', async () => {
    expect(await checkAdImage({ title: 'Sale' })).toBeNull();
    const url = 'https://kisht.example/api/device/ad_image?media_id=1';
    expect(await checkAdImage({ imageUrl: url, imageSha256: digest(PNG) }, answering(PNG))).toBeNull();
  });

  it('fails with a clear error on a digest mismatch, an HTTP error, a fetch failure, a missing digest, too large', async () => {
    const url = 'https://kisht.example/img';
    expect(await checkAdImage({ imageUrl: url, imageSha256: 'a'.repeat(64) }, answering(PNG))).toBe(
      'ad image: sha256 mismatch',
    );
    expect(await checkAdImage({ imageUrl: url, imageSha256: digest(PNG) }, answering(PNG, 403))).toBe(
      'ad image: HTTP 403',
    );
    const refusing = (async () => {
      throw new Error('connect ECONNREFUSED');
    }) as unknown as typeof fetch;
    expect(await checkAdImage({ imageUrl: url, imageSha256: digest(PNG) }, refusing)).toBe(
      'ad image: fetch failed: connect ECONNREFUSED',
    );
    expect(await checkAdImage({ imageUrl: url }, answering(PNG))).toBe('ad image: imageSha256 missing');
    const big = new Uint8Array(AD_IMAGE_MAX_BYTES + 1);
    expect(await checkAdImage({ imageUrl: url, imageSha256: digest(big) }, answering(big))).toBe(
      'ad image: larger than 5 MB',
    );
  });
});
