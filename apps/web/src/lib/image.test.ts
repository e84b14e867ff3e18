import { afterEach, describe, expect, it, vi } from 'vitest';
import { compressImage, fitWithin, IMAGE_QUALITY, isWithinUploadLimit, MAX_UPLOAD_BYTES } from './image';

describe('fitWithin (spec §5: longer side ≤ 1200 px, proportional, never enlarged)', () => {
  it.each([
    [1200, 1200, 1200, 1200],
    [800, 600, 800, 600],
    [1, 1, 1, 1],
    [1201, 1201, 1200, 1200],
    [1600, 1200, 1200, 900],
    [1200, 1600, 900, 1200],
    [4000, 3000, 1200, 900],
    [4032, 3024, 1200, 900],
    [1920, 1080, 1200, 675],
    [1080, 1920, 675, 1200],
    [1200, 1201, 1199, 1200],
    [2500, 1667, 1200, 800],
    [1999, 1000, 1200, 600],
    // A very thin image keeps at least one pixel.
    [3000, 1, 1200, 1],
  ])('%i×%i → %i×%i', (width, height, expectedWidth, expectedHeight) => {
    expect(fitWithin(width, height)).toEqual({ width: expectedWidth, height: expectedHeight });
  });

  it('takes another limit', () => {
    expect(fitWithin(1000, 750, 500)).toEqual({ width: 500, height: 375 });
  });
});

describe('isWithinUploadLimit (spec §9: 5 MB)', () => {
  it('is 5 MiB in bytes', () => {
    expect(MAX_UPLOAD_BYTES).toBe(5_242_880);
  });

  it.each([
    [0, true],
    [1, true],
    [MAX_UPLOAD_BYTES - 1, true],
    [MAX_UPLOAD_BYTES, true],
    [MAX_UPLOAD_BYTES + 1, false],
  ])('%i bytes → %s', (size, expected) => {
    const file = new File([new Uint8Array(size)], 'photo.jpg', { type: 'image/jpeg' });
    expect(isWithinUploadLimit(file)).toBe(expected);
  });
});

/*
 * jsdom decodes no images and has no canvas, so the browser's APIs are replaced here; compressImage
 * itself runs unchanged, and FileReader is jsdom's own unless a test breaks it.
 */
type BrowserStub = {
  imageEvent?: 'load' | 'error';
  naturalSize?: { width: number; height: number };
  hasContext?: boolean;
  blob?: Blob | null;
};

const stubBrowser = ({
  imageEvent = 'load',
  naturalSize = { width: 4000, height: 3000 },
  hasContext = true,
  blob = new Blob(['encoded'], { type: 'image/jpeg' }),
}: BrowserStub = {}) => {
  const imageSources: string[] = [];
  vi.spyOn(HTMLImageElement.prototype, 'src', 'set').mockImplementation(function (
    this: HTMLImageElement,
    value: string,
  ) {
    imageSources.push(value);
    queueMicrotask(() => this.dispatchEvent(new Event(imageEvent)));
  });
  vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(naturalSize.width);
  vi.spyOn(HTMLImageElement.prototype, 'naturalHeight', 'get').mockReturnValue(naturalSize.height);
  const drawImage = vi.fn();
  const context = { drawImage } as unknown as CanvasRenderingContext2D;
  const getContext = vi
    .spyOn(HTMLCanvasElement.prototype, 'getContext')
    .mockReturnValue(hasContext ? context : null);
  const encoded: { width: number; height: number; type?: string; quality?: unknown }[] = [];
  const toBlob = vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (
    this: HTMLCanvasElement,
    callback: BlobCallback,
    type?: string,
    quality?: unknown,
  ) {
    encoded.push({ width: this.width, height: this.height, type, quality });
    queueMicrotask(() => callback(blob));
  });
  return { imageSources, drawImage, getContext, toBlob, encoded };
};

const picked = (name: string, type: string) => new File(['raw image bytes'], name, { type });

describe('compressImage (spec §5)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['phone.jpg', 'image/jpeg', 4000, 3000, 'phone.jpg', 'image/jpeg', 1200, 900],
    ['IMG_2041.JPEG', 'image/jpeg', 3024, 4032, 'IMG_2041.JPEG', 'image/jpeg', 900, 1200],
    ['old.jpg', 'image/jpg', 1000, 800, 'old.jpg', 'image/jpeg', 1000, 800],
    ['invoice.png', 'image/png', 800, 600, 'invoice.png', 'image/png', 800, 600],
    ['scan.webp', 'image/webp', 1500, 3000, 'scan.png', 'image/png', 600, 1200],
    ['IMG_0001.HEIC', 'image/heic', 4032, 3024, 'IMG_0001.png', 'image/png', 1200, 900],
    ['aadhaar.front.gif', 'image/gif', 1200, 1200, 'aadhaar.front.png', 'image/png', 1200, 1200],
    ['photo', '', 640, 480, 'photo.png', 'image/png', 640, 480],
  ])(
    '%s (%s, %i×%i) → %s (%s, %i×%i)',
    async (name, type, width, height, outName, outType, outWidth, outHeight) => {
      const blob = new Blob(['encoded'], { type: outType });
      const browser = stubBrowser({ naturalSize: { width, height }, blob });

      const result = await compressImage(picked(name, type));

      expect(browser.encoded).toEqual([{ width: outWidth, height: outHeight, type: outType, quality: 0.8 }]);
      expect(browser.getContext).toHaveBeenCalledWith('2d');
      expect(browser.drawImage).toHaveBeenCalledWith(expect.any(HTMLImageElement), 0, 0, outWidth, outHeight);
      expect(result).toBeInstanceOf(File);
      expect(result.name).toBe(outName);
      expect(result.type).toBe(outType);
      expect(await result.text()).toBe('encoded');
    },
  );

  it('loads the image from the file as a data URL', async () => {
    const browser = stubBrowser();
    await compressImage(picked('phone.jpg', 'image/jpeg'));
    expect(browser.imageSources).toHaveLength(1);
    expect(browser.imageSources[0]).toBe(`data:image/jpeg;base64,${btoa('raw image bytes')}`);
  });

  it('exports at quality 0.8', () => {
    expect(IMAGE_QUALITY).toBe(0.8);
  });

  it("rejects with 'Error reading file' when the FileReader fails", async () => {
    const browser = stubBrowser();
    vi.spyOn(FileReader.prototype, 'readAsDataURL').mockImplementation(function (this: FileReader) {
      queueMicrotask(() => this.dispatchEvent(new ProgressEvent('error')));
    });
    await expect(compressImage(picked('phone.jpg', 'image/jpeg'))).rejects.toThrow(
      new Error('Error reading file'),
    );
    expect(browser.imageSources).toHaveLength(0);
  });

  it("rejects with 'Error loading image' when the image cannot be decoded", async () => {
    const browser = stubBrowser({ imageEvent: 'error' });
    await expect(compressImage(picked('broken.jpg', 'image/jpeg'))).rejects.toThrow(
      new Error('Error loading image'),
    );
    expect(browser.getContext).not.toHaveBeenCalled();
  });

  it("rejects with 'Canvas context is not supported' when there is no 2D context", async () => {
    const browser = stubBrowser({ hasContext: false });
    await expect(compressImage(picked('phone.jpg', 'image/jpeg'))).rejects.toThrow(
      new Error('Canvas context is not supported'),
    );
    expect(browser.toBlob).not.toHaveBeenCalled();
  });

  it("rejects with 'Error creating blob' when the canvas gives no blob", async () => {
    stubBrowser({ blob: null });
    await expect(compressImage(picked('phone.jpg', 'image/jpeg'))).rejects.toThrow(
      new Error('Error creating blob'),
    );
  });
});
