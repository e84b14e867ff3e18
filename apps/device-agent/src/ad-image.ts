import { createHash } from 'node:crypto';

/** Largest advertisement image the phone takes (the server's upload limit, 5 MB). */
export const AD_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** How long the phone waits for an advertisement image, ms. */
export const AD_IMAGE_TIMEOUT_MS = 15_000;

/**
 * Before a show_ad with an image is shown (device protocol, show_ad): fetches `imageUrl` (no
 * session: the address is signed and expires with the command) and checks its SHA-256 against
 * `imageSha256`. Resolves to null when the ad has no image or the image is the one named, else to
 * the error the failed ack carries: "ad image: fetch failed: …", "ad image: HTTP 403",
 * "ad image: larger than 5 MB", "ad image: sha256 mismatch", "ad image: imageSha256 missing".
 * Never throws. `fetchImpl` replaces the global fetch in tests.
 */
export const checkAdImage = async (
  args: Record<string, unknown>,
  fetchImpl: typeof fetch = fetch,
): Promise<string | null> => {
  const { imageUrl, imageSha256 } = args;
  if (typeof imageUrl !== 'string' || imageUrl === '') return null;
  if (typeof imageSha256 !== 'string') return 'ad image: imageSha256 missing';
  let bytes: Uint8Array;
  try {
    const response = await fetchImpl(imageUrl, { signal: AbortSignal.timeout(AD_IMAGE_TIMEOUT_MS) });
    if (!response.ok) return `ad image: HTTP ${response.status}`;
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    return `ad image: fetch failed: ${(error as Error).message}`;
  }
  if (bytes.byteLength > AD_IMAGE_MAX_BYTES) return 'ad image: larger than 5 MB';
  const digest = createHash('sha256').update(bytes).digest('hex');
  return digest === imageSha256.toLowerCase() ? null : 'ad image: sha256 mismatch';
};
