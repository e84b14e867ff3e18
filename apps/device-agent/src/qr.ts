import { readFile } from 'node:fs/promises';
import { ANDROID_PROVISIONING_KEYS, PROVISIONING_EXTRAS } from '@kisht/domain/devices/protocol.schema';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** What the agent needs from an enrolment QR. */
export type TQrPayload = {
  /** The one-time enrolment token (admin extras `in.kisht.ENROLMENT_TOKEN`). */
  enrolmentToken: string;
  /** The API server to enrol with (admin extras `in.kisht.SERVER_URL`), without a trailing slash. */
  serverUrl: string;
  /** The whole provisioning JSON as scanned, for display and debugging. */
  provisioning: Record<string, unknown>;
};

/** Thrown when a QR input cannot be read, decoded or understood; the message says which. */
export class QrPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QrPayloadError';
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Same minimum as ZEnrolDeviceRequest.token, so a truncated scan fails here with a clear message. */
const MIN_TOKEN_LENGTH = 16;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Decodes the QR code in a PNG image and returns its text. Throws QrPayloadError when the bytes are
 * not a readable PNG or the image holds no QR code.
 */
export const decodeQrPng = (png: Buffer, label = 'image'): string => {
  let image: PNG;
  try {
    image = PNG.sync.read(png);
  } catch (error) {
    throw new QrPayloadError(`${label} is not a readable PNG image (${(error as Error).message})`);
  }
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const code = jsQR(pixels, image.width, image.height);
  if (!code) throw new QrPayloadError(`no QR code found in ${label}`);
  return code.data;
};

/**
 * Parses the text of an enrolment QR: the Android device-owner provisioning JSON whose admin extras
 * bundle (`android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE`) carries the enrolment token and
 * server URL. Throws QrPayloadError for text that is not a JSON object, a missing extras bundle, a
 * missing or short token, or a server URL that is not http(s).
 */
export const parseQrPayloadText = (text: string): TQrPayload => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new QrPayloadError(
      'QR payload is not JSON: expected the Android provisioning JSON or a path to a PNG of the QR',
    );
  }
  if (!isRecord(json)) throw new QrPayloadError('QR payload is not a JSON object');

  const extras = json[ANDROID_PROVISIONING_KEYS.adminExtrasBundle];
  if (!isRecord(extras)) {
    throw new QrPayloadError(
      `QR payload has no ${ANDROID_PROVISIONING_KEYS.adminExtrasBundle} object: not a Kisht enrolment QR`,
    );
  }

  const token = extras[PROVISIONING_EXTRAS.enrolmentToken];
  if (typeof token !== 'string' || token.trim().length < MIN_TOKEN_LENGTH) {
    throw new QrPayloadError(
      `QR payload's admin extras have no valid ${PROVISIONING_EXTRAS.enrolmentToken} (a string of at least ${MIN_TOKEN_LENGTH} characters)`,
    );
  }

  const serverUrl = extras[PROVISIONING_EXTRAS.serverUrl];
  if (typeof serverUrl !== 'string' || !URL.canParse(serverUrl)) {
    throw new QrPayloadError(`QR payload's admin extras have no valid ${PROVISIONING_EXTRAS.serverUrl}`);
  }
  const { protocol } = new URL(serverUrl);
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new QrPayloadError(`${PROVISIONING_EXTRAS.serverUrl} must be an http(s) URL, got ${serverUrl}`);
  }

  return { enrolmentToken: token.trim(), serverUrl: serverUrl.replace(/\/+$/, ''), provisioning: json };
};

/**
 * Reads an enrolment QR given as the CLI's `--qr` value: the provisioning JSON itself (text starting
 * with `{`), or a path to a file holding it: a PNG of the QR code (decoded with pngjs + jsQR) or a
 * JSON text file. Returns the token and server URL. Throws QrPayloadError with a message a person
 * can act on: file not found, not a PNG with a QR in it, not JSON, or JSON without the Kisht extras.
 */
export const readQrPayload = async (input: string): Promise<TQrPayload> => {
  const trimmed = input.trim();
  if (trimmed.startsWith('{')) return parseQrPayloadText(trimmed);

  let bytes: Buffer;
  try {
    bytes = await readFile(trimmed);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENAMETOOLONG' || code === 'EISDIR') {
      if (/\.png$/i.test(trimmed)) throw new QrPayloadError(`QR image not found: ${trimmed}`);
      throw new QrPayloadError(
        'QR payload is not JSON and not an existing file: give the provisioning JSON or a path to a PNG of the QR',
      );
    }
    throw new QrPayloadError(`cannot read ${trimmed}: ${(error as Error).message}`);
  }

  const isPng = bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE);
  if (isPng) return parseQrPayloadText(decodeQrPng(bytes, trimmed));
  if (/\.png$/i.test(trimmed)) throw new QrPayloadError(`${trimmed} is not a PNG image`);
  return parseQrPayloadText(bytes.toString('utf8'));
};
