import type { FastifyReply } from 'fastify';

/**
 * The Content-Security-Policy of every stored file Kisht serves back (ad images, documents,
 * payment QRs, receipts, certificates): nothing in it may run, load or be framed, even if a browser
 * were made to render it as a page (issue 27).
 */
export const STORED_FILE_CSP = "default-src 'none'; sandbox";

/**
 * Sends a stored file (`content` bytes of `mimeType`) with the headers every such answer carries:
 * its type, `cacheControl`, `nosniff`, STORED_FILE_CSP, and `disposition` (default `inline`;
 * `attachment; filename="…"` for a download). The one place these headers are set.
 */
export const sendStoredFile = (
  reply: FastifyReply,
  file: { mimeType: string; content: Uint8Array },
  options: { cacheControl: string; disposition?: string },
) =>
  reply
    .header('content-type', file.mimeType)
    .header('cache-control', options.cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', STORED_FILE_CSP)
    .header('content-disposition', options.disposition ?? 'inline')
    .send(Buffer.from(file.content));
