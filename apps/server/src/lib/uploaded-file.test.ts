import { describe, expect, it } from 'vitest';
import { JPEG_BYTES, PDF_BYTES, PNG_1X1, pngHeader } from '../test/fixtures';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE_PX, sniffUpload } from './uploaded-file';

const IMAGES = ['image/png', 'image/jpeg'] as const;
const refusal = { message: 'Upload an image' };
const codeOf = (bytes: Uint8Array, accepted: readonly string[] = IMAGES) =>
  sniffUpload(bytes, accepted, refusal).then(
    (mime) => mime,
    (error: { code: string; fields: { field: string }[] }) => `${error.code} ${error.fields[0]?.field}`,
  );

describe('sniffUpload (issue 27)', () => {
  it('takes small images and a PDF where PDFs are accepted, by their bytes', async () => {
    expect(await codeOf(PNG_1X1)).toBe('image/png');
    expect(await codeOf(JPEG_BYTES)).toBe('image/jpeg');
    expect(await codeOf(PDF_BYTES, ['application/pdf'])).toBe('application/pdf');
  });

  it('takes an image at the limits', async () => {
    expect(MAX_IMAGE_SIDE_PX * (MAX_IMAGE_PIXELS / MAX_IMAGE_SIDE_PX)).toBe(MAX_IMAGE_PIXELS);
    expect(await codeOf(pngHeader(MAX_IMAGE_SIDE_PX, MAX_IMAGE_PIXELS / MAX_IMAGE_SIDE_PX))).toBe(
      'image/png',
    );
  });

  it('refuses an image over 8000 px a side, over 40 megapixels, or with no size, naming file', async () => {
    expect(await codeOf(pngHeader(20_000, 20_000))).toBe('MEDIA_TOO_LARGE file');
    expect(await codeOf(pngHeader(MAX_IMAGE_SIDE_PX + 1, 1))).toBe('MEDIA_TOO_LARGE file');
    expect(await codeOf(pngHeader(7_000, 7_000))).toBe('MEDIA_TOO_LARGE file');
    expect(await codeOf(JPEG_BYTES.slice(0, 20))).toBe('MEDIA_TOO_LARGE file');
  });

  it('refuses a type not accepted, naming file', async () => {
    expect(await codeOf(PDF_BYTES)).toBe('MEDIA_TYPE_NOT_ALLOWED file');
    expect(await codeOf(new Uint8Array())).toBe('MEDIA_TYPE_NOT_ALLOWED file');
  });
});
