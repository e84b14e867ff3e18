import { compressImage, isWithinUploadLimit } from './image';

/** The content type of a PDF document. */
export const PDF_MIME_TYPE = 'application/pdf';

/** Why a picked file cannot be uploaded; each has a message under `upload.errors`. */
export type TUploadProblem = 'tooLarge' | 'notAllowed' | 'unreadable';

export type TPreparedUpload = { file: File } | { problem: TUploadProblem };

export type TPrepareUploadOptions = {
  /** Whether a PDF is accepted here (documents, invoice), as well as images. */
  canBePdf: boolean;
};

const isPdf = (file: File): boolean =>
  file.type === PDF_MIME_TYPE || (file.type === '' && file.name.toLowerCase().endsWith('.pdf'));

const isImage = (file: File): boolean => file.type.startsWith('image/');

/**
 * Gets a picked file ready to upload (spec §5, §9): an image is compressed (longer side at most
 * 1200 px, quality 0.8, compressImage), a PDF is sent as it is where PDFs are accepted. Anything
 * else is 'notAllowed'; an image the browser cannot decode is 'unreadable'; a file still over
 * MAX_UPLOAD_BYTES (5 MB) after compression is 'tooLarge'. Never throws.
 */
export const prepareUploadFile = async (
  file: File,
  options: TPrepareUploadOptions,
): Promise<TPreparedUpload> => {
  let prepared: File;
  if (isPdf(file)) {
    if (!options.canBePdf) return { problem: 'notAllowed' };
    prepared = file;
  } else if (isImage(file)) {
    try {
      prepared = await compressImage(file);
    } catch {
      return { problem: 'unreadable' };
    }
  } else {
    return { problem: 'notAllowed' };
  }
  return isWithinUploadLimit(prepared) ? { file: prepared } : { problem: 'tooLarge' };
};

/** The `accept` attribute of a file input for images, and PDFs where they are accepted. */
export const uploadAccept = ({ canBePdf }: TPrepareUploadOptions): string =>
  canBePdf ? `image/*,${PDF_MIME_TYPE}` : 'image/*';

/**
 * A multipart/form-data body: the text fields first, then the file as `file` (the server reads
 * the fields before the file).
 */
export const toUploadBody = (fields: Record<string, string | number>, file: File): FormData => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
  body.append('file', file, file.name);
  return body;
};
