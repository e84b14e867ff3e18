import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import {
  PROTOCOL_VERSION,
  type TServerKey,
  type TServerMessage,
  type TSignedMessage,
  ZServerMessage,
  ZSignedMessage,
} from './protocol.schema';

/**
 * Signed server → device messages (design §5, device protocol §5). Every message the server sends
 * a device is the JSON text of a ZServerMessage, signed with the organisation's Ed25519 key
 * (RFC 8032) and wrapped in a ZSignedMessage. Ed25519 rather than an HMAC with the device secret:
 * the device secret is also the MQTT password, so any broker (or its operator) sees it, and a key
 * the borrower can read out of the phone must not let anyone sign an unlock. The phone holds only
 * the public half. Uses node:crypto (server and reference agent; not for the browser).
 */

/** A signing key pair as stored: DER SPKI public key and DER PKCS#8 private key, base64. */
export type TStoredServerKey = TServerKey & { privateKey: string };

/** A key id: "k" and 16 random hex digits. */
const newKid = (): string => `k${randomBytes(8).toString('hex')}`;

/** A new Ed25519 key pair for an organisation (kid, public SPKI base64, private PKCS#8 base64). */
export const generateServerKey = (): TStoredServerKey => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    kid: newKid(),
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
};

/** The private KeyObject of a stored key. Throws when it is not an Ed25519 PKCS#8 key. */
export const privateKeyOf = (stored: Pick<TStoredServerKey, 'privateKey'>): KeyObject =>
  createPrivateKey({ key: Buffer.from(stored.privateKey, 'base64'), format: 'der', type: 'pkcs8' });

/** The public KeyObject of a device's server key. Throws when it is not an Ed25519 SPKI key. */
export const publicKeyOf = (key: Pick<TServerKey, 'publicKey'>): KeyObject => {
  const keyObject = createPublicKey({
    key: Buffer.from(key.publicKey, 'base64'),
    format: 'der',
    type: 'spki',
  });
  if (keyObject.asymmetricKeyType !== 'ed25519') throw new Error('the server key is not an Ed25519 key');
  return keyObject;
};

/** The base64url Ed25519 signature of `body`'s UTF-8 bytes. */
export const signBody = (privateKey: KeyObject, body: string): string =>
  sign(null, Buffer.from(body, 'utf8'), privateKey).toString('base64url');

/**
 * The MQTT payload (JSON text of a ZSignedMessage) for `message`, signed with key `kid`.
 */
export const signServerMessage = (
  key: { kid: string; privateKey: KeyObject },
  message: TServerMessage,
): string => {
  const body = JSON.stringify(message);
  const envelope: TSignedMessage = {
    v: PROTOCOL_VERSION,
    kid: key.kid,
    sig: signBody(key.privateKey, body),
    body,
  };
  return JSON.stringify(envelope);
};

/** Why a device refused a message on its cmd topic (device protocol §5). */
export type TRefusal =
  | 'not a signed message'
  | 'unknown key'
  | 'bad signature'
  | 'malformed body'
  | 'for another device';

/**
 * Opens a payload from the cmd topic: checks the envelope, the key id, the signature over the body
 * and that the body is a ZServerMessage for `deviceId`. Returns the message, or the refusal and a
 * detail. Never throws. Replay (an old version, an applied id, a sync of another connection) is the
 * caller's next check.
 */
export const openServerMessage = (
  payload: string,
  key: { kid: string; publicKey: KeyObject },
  deviceId: string,
): { message: TServerMessage } | { refusal: TRefusal; detail: string } => {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return { refusal: 'not a signed message', detail: 'not JSON' };
  }
  const envelope = ZSignedMessage.safeParse(json);
  if (!envelope.success) {
    return {
      refusal: 'not a signed message',
      detail: envelope.error.issues.map((i) => i.path.join('.')).join(', '),
    };
  }
  if (envelope.data.kid !== key.kid) return { refusal: 'unknown key', detail: envelope.data.kid };
  const isValid = verify(
    null,
    Buffer.from(envelope.data.body, 'utf8'),
    key.publicKey,
    Buffer.from(envelope.data.sig, 'base64url'),
  );
  if (!isValid) return { refusal: 'bad signature', detail: 'the signature does not match the body' };
  let body: unknown;
  try {
    body = JSON.parse(envelope.data.body);
  } catch {
    return { refusal: 'malformed body', detail: 'not JSON' };
  }
  const message = ZServerMessage.safeParse(body);
  if (!message.success) {
    const detail = message.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    return { refusal: 'malformed body', detail };
  }
  if (message.data.deviceId !== deviceId)
    return { refusal: 'for another device', detail: message.data.deviceId };
  return { message: message.data };
};
