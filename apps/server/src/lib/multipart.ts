import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

const MALFORMED_BODY =
  'The upload is not well-formed multipart/form-data (cut off or malformed); send it again';

/**
 * Reads a multipart/form-data upload: its text fields, validated with `fields`, and exactly one
 * file part named `file`, buffered whole (the multipart plugin's fileSize limit bounds it).
 * Throws VALIDATION_FAILED naming the fields that fail (`file` when it is missing, or the body is
 * not multipart; `body` when the multipart stream is cut off or malformed) and MEDIA_TOO_LARGE when
 * the file passes the size limit.
 */
export const readUpload = async <T extends z.ZodType>(
  request: FastifyRequest,
  fields: T,
): Promise<{ fields: z.output<T>; bytes: Uint8Array }> => {
  const read = await readParts(request, fields, true);
  return { fields: read.fields, bytes: read.bytes! };
};

/**
 * As readUpload, but the `file` part may be left out (bytes undefined): an upload whose file is
 * optional (an advertisement without an image). A request that is not multipart still fails (file).
 */
export const readUploadWithOptionalFile = <T extends z.ZodType>(
  request: FastifyRequest,
  fields: T,
): Promise<{ fields: z.output<T>; bytes: Uint8Array | undefined }> => readParts(request, fields, false);

const readParts = async <T extends z.ZodType>(
  request: FastifyRequest,
  fields: T,
  isFileRequired: boolean,
): Promise<{ fields: z.output<T>; bytes: Uint8Array | undefined }> => {
  if (!request.isMultipart()) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Send the file as multipart/form-data', [
      { field: 'file', message: 'Send the file as multipart/form-data' },
    ]);
  }
  const values: Record<string, unknown> = {};
  let bytes: Uint8Array | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || bytes) {
          await part.toBuffer();
          throw new AppError(AppErrorCode.VALIDATION_FAILED, 'Send one file, in the field named file', [
            { field: part.fieldname, message: 'Send one file, in the field named file' },
          ]);
        }
        bytes = new Uint8Array(await part.toBuffer());
      } else {
        values[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(AppErrorCode.MEDIA_TOO_LARGE, 'The file is larger than 5 MB', [
        { field: 'file', message: 'The file is larger than 5 MB' },
      ]);
    }
    // The plugin's part/file/field limits (413) keep their own status.
    if (statusCode !== undefined && statusCode !== 400) throw error;
    // Everything else the parser raises is about the bytes the client sent: busboy's plain Errors
    // ('Unexpected end of form', 'Malformed part header', 'Multipart: Boundary not found') and the
    // plugin's 400s (premature close, __proto__ field names).
    request.log.info({ err: error }, 'malformed multipart body');
    throw new AppError(AppErrorCode.VALIDATION_FAILED, MALFORMED_BODY, [
      { field: 'body', message: MALFORMED_BODY },
    ]);
  }
  const parsed = fields.safeParse(values);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
  if (!bytes && isFileRequired) problems.push({ field: 'file', message: 'Choose a file to upload' });
  if (problems.length > 0 || !parsed.success) {
    const names = [...new Set(problems.map((p) => p.field))].join(', ');
    throw new AppError(AppErrorCode.VALIDATION_FAILED, `Invalid ${names}`, problems);
  }
  return { fields: parsed.data, bytes };
};
