/**
 * Upload limits without zod, so the web app's image and upload helpers do not load it (issue 17);
 * media.schema.ts re-exports them.
 */

/** Spec §9: the 5 MB file size constant; the server refuses larger uploads (design §6). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
