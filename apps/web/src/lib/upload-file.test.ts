import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/media.schema';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compressImage } from './image';
import { prepareUploadFile, toUploadBody, uploadAccept } from './upload-file';

vi.mock('./image', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./image')>()),
  compressImage: vi.fn(),
}));
const compress = vi.mocked(compressImage);

/** A file of `size` bytes (its content does not matter here). */
const fileOf = (name: string, type: string, size = 1000) => new File([new Uint8Array(size)], name, { type });

afterEach(() => {
  compress.mockReset();
});

describe('prepareUploadFile (spec §5, §9)', () => {
  it('compresses an image and uploads the compressed file', async () => {
    const compressed = fileOf('photo.jpg', 'image/jpeg', 300_000);
    compress.mockResolvedValue(compressed);
    const picked = fileOf('photo.jpg', 'image/jpeg', 4_000_000);
    expect(await prepareUploadFile(picked, { canBePdf: false })).toEqual({ file: compressed });
    expect(compress).toHaveBeenCalledWith(picked);
  });

  it('sends a PDF as it is where PDFs are accepted, and refuses it elsewhere', async () => {
    const pdf = fileOf('invoice.pdf', 'application/pdf');
    expect(await prepareUploadFile(pdf, { canBePdf: true })).toEqual({ file: pdf });
    expect(await prepareUploadFile(pdf, { canBePdf: false })).toEqual({ problem: 'notAllowed' });
    expect(compress).not.toHaveBeenCalled();
  });

  it('knows a PDF by its name when the browser gives no type', async () => {
    const pdf = fileOf('scan.PDF', '');
    expect(await prepareUploadFile(pdf, { canBePdf: true })).toEqual({ file: pdf });
  });

  it('refuses a file still over 5 MB after compression, and accepts exactly 5 MB', async () => {
    compress.mockResolvedValue(fileOf('huge.png', 'image/png', MAX_UPLOAD_BYTES + 1));
    expect(await prepareUploadFile(fileOf('huge.png', 'image/png'), { canBePdf: false })).toEqual({
      problem: 'tooLarge',
    });
    const atLimit = fileOf('ok.png', 'image/png', MAX_UPLOAD_BYTES);
    compress.mockResolvedValue(atLimit);
    expect(await prepareUploadFile(fileOf('ok.png', 'image/png'), { canBePdf: false })).toEqual({
      file: atLimit,
    });
    expect(
      await prepareUploadFile(fileOf('big.pdf', 'application/pdf', MAX_UPLOAD_BYTES + 1), { canBePdf: true }),
    ).toEqual({ problem: 'tooLarge' });
  });

  it('says an image the browser cannot decode is unreadable', async () => {
    compress.mockRejectedValue(new Error('Error loading image'));
    expect(await prepareUploadFile(fileOf('photo.heic', 'image/heic'), { canBePdf: false })).toEqual({
      problem: 'unreadable',
    });
  });

  it('refuses anything that is neither an image nor a PDF', async () => {
    expect(await prepareUploadFile(fileOf('notes.txt', 'text/plain'), { canBePdf: true })).toEqual({
      problem: 'notAllowed',
    });
  });
});

describe('upload helpers', () => {
  it('accepts images, and PDFs only where they are allowed', () => {
    expect(uploadAccept({ canBePdf: false })).toBe('image/*');
    expect(uploadAccept({ canBePdf: true })).toBe('image/*,application/pdf');
  });

  it('puts the text fields before the file (the server reads them first)', () => {
    const file = fileOf('a.png', 'image/png');
    const body = toUploadBody({ customer_id: 5, kind: 'customer_profile' }, file);
    expect([...body.keys()]).toEqual(['customer_id', 'kind', 'file']);
    expect(body.get('customer_id')).toBe('5');
    expect((body.get('file') as File).name).toBe('a.png');
  });
});
