/** How long the object URL of a saved file lives, ms: browsers read it after click() returns. */
const OBJECT_URL_LIFETIME_MS = 10_000;

export type TSaveTextFileOptions = {
  /** The file's contents. */
  text: string;
  /** The name the browser saves it under, e.g. `customers.csv`. */
  fileName: string;
  /** Its media type; CSV in UTF-8 by default. */
  mimeType?: string;
};

/**
 * Hands a file (a CSV export, a PDF certificate) to the browser to save as `fileName`: the Blob
 * behind a temporary object URL, opened through a hidden `<a download>`. The URL is revoked a
 * little later.
 */
export const saveBlob = (blob: Blob, fileName: string) => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
};

/** Hands a text file to the browser to save (a CSV export), as saveBlob does. */
export const saveTextFile = ({ text, fileName, mimeType = 'text/csv;charset=utf-8' }: TSaveTextFileOptions) =>
  saveBlob(new Blob([text], { type: mimeType }), fileName);
