import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/upload-limits';

/** Spec §5 and §9: the longer side of an uploaded image, in pixels. */
export const MAX_IMAGE_SIDE = 1200;
/** Spec §5 and §9: the encoder quality passed to `toBlob` (browsers ignore it for PNG). */
export const IMAGE_QUALITY = 0.8;
/** Spec §9: the upload size limit, 5 MB in bytes (the domain's, which the server enforces). */
export { MAX_UPLOAD_BYTES };

const JPEG = 'image/jpeg';
const PNG = 'image/png';
/** `image/jpg` and `image/pjpeg` are non-standard names some systems give JPEG files. */
const JPEG_TYPES: ReadonlySet<string> = new Set([JPEG, 'image/jpg', 'image/pjpeg']);

export type ImageSize = { width: number; height: number };

/** True when the file is at most `MAX_UPLOAD_BYTES` (5 MB, spec §9); exactly 5 MB passes. */
export const isWithinUploadLimit = (file: File): boolean => file.size <= MAX_UPLOAD_BYTES;

/**
 * Scales a size in pixels so its longer side is at most `max`, keeping the proportions and
 * rounding to whole pixels (never below 1): 4000×3000 → 1200×900. A size that already fits is
 * returned unchanged (rounded); images are never enlarged. Spec §5.
 */
export const fitWithin = (width: number, height: number, max = MAX_IMAGE_SIDE): ImageSize => {
  const longer = Math.max(width, height);
  if (longer <= max) return { width: Math.round(width), height: Math.round(height) };
  const scale = max / longer;
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
};

/** `photo.heic` → `photo.png`; a name without an extension gets one. */
const withExtension = (name: string, extension: string): string => {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  return `${base}.${extension}`;
};

const readAsDataUrl = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('Error reading file'));
    reader.readAsDataURL(file);
  });

const loadImage = (source: string): Promise<HTMLImageElement> =>
  new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('Error loading image'));
    image.src = source;
  });

const toBlob = (canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob> =>
  new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => {
        if (!blob) {
          reject(new Error('Error creating blob'));
          return;
        }
        resolve(blob);
      },
      type,
      quality,
    );
  });

/**
 * Re-encodes an image picked for upload (spec §5): the longer side is scaled down to at most
 * 1200 px, proportionally (never up), and exported at quality 0.8. A JPEG stays a JPEG
 * (`image/jpeg`, same name); anything else becomes a PNG with its extension changed to `.png`.
 * Rejects with Error 'Error reading file' (FileReader failed), 'Error loading image' (the browser
 * cannot decode it), 'Canvas context is not supported' (no 2D context) or 'Error creating blob'
 * (the canvas would not encode).
 */
export const compressImage = async (file: File): Promise<File> => {
  const image = await loadImage(await readAsDataUrl(file));
  const size = fitWithin(image.naturalWidth || image.width, image.naturalHeight || image.height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Canvas context is not supported');
  context.drawImage(image, 0, 0, size.width, size.height);
  const isJpeg = JPEG_TYPES.has(file.type);
  const type = isJpeg ? JPEG : PNG;
  const blob = await toBlob(canvas, type, IMAGE_QUALITY);
  const name = isJpeg ? file.name : withExtension(file.name, 'png');
  return new File([blob], name, { type });
};
