import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';

/** The longest side an uploaded image may have, px (issue 27). */
export const MAX_IMAGE_SIDE_PX = 8_000;
/** The most pixels an uploaded image may have: 40 megapixels (issue 27). */
export const MAX_IMAGE_PIXELS = 40_000_000;

const TOO_MANY_PIXELS = `The image is larger than ${MAX_IMAGE_SIDE_PX} px a side or ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`;

/**
 * What an uploaded file is, from its bytes, never from the client: its content type (file-type)
 * when it is one of `accepted`, else MEDIA_TYPE_NOT_ALLOWED (field `file`, with `refusal`'s
 * message). An image's pixel size is read from its header (image-size) before anything stores,
 * serves or decodes it: one over MAX_IMAGE_SIDE_PX a side or MAX_IMAGE_PIXELS is refused with
 * MEDIA_TOO_LARGE (field `file`), as is an image whose header gives no size. A 389 KB PNG can
 * claim 20,000 × 20,000 pixels: 1.6 GB to whoever decodes it.
 */
export const sniffUpload = async (
  bytes: Uint8Array,
  accepted: readonly string[],
  refusal: { message: string; fieldMessage?: string },
): Promise<string> => {
  const sniffed = bytes.byteLength > 0 ? await fileTypeFromBuffer(bytes) : undefined;
  if (!sniffed || !accepted.includes(sniffed.mime)) {
    throw new AppError(AppErrorCode.MEDIA_TYPE_NOT_ALLOWED, refusal.message, [
      { field: 'file', message: refusal.fieldMessage ?? `Upload one of: ${accepted.join(', ')}` },
    ]);
  }
  if (sniffed.mime.startsWith('image/')) {
    let size: { width?: number; height?: number } | undefined;
    try {
      size = imageSize(bytes);
    } catch {
      size = undefined;
    }
    const { width = 0, height = 0 } = size ?? {};
    if (
      width <= 0 ||
      height <= 0 ||
      width > MAX_IMAGE_SIDE_PX ||
      height > MAX_IMAGE_SIDE_PX ||
      width * height > MAX_IMAGE_PIXELS
    ) {
      const message = width > 0 && height > 0 ? TOO_MANY_PIXELS : 'The image gives no size in its header';
      throw new AppError(AppErrorCode.MEDIA_TOO_LARGE, message, [{ field: 'file', message }]);
    }
  }
  return sniffed.mime;
};
