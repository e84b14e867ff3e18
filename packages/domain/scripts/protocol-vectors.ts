import {
  createCipheriv,
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type KeyObject,
  sign,
} from 'node:crypto';
import { jsonText } from './json-text';

/**
 * Known-answer test vectors of the device protocol's crypto (docs/protocol/vectors.json), so a
 * device maker can check an implementation in any language against fixed inputs and outputs. The
 * generator writes the spec out again with node:crypto alone, independently of the code under
 * test: protocol-vectors.test.ts checks the real functions (offline-code.ts, device-pin.ts,
 * server-message.ts) against this file, and this file against the generator. Every input is fixed
 * (a sealed PIN's iv too, which the server draws at random), so the output never changes unless the
 * spec does. None of these keys or secrets is used anywhere else.
 */

/** Where the vectors live, from the repository root. */
export const PROTOCOL_VECTORS_FILE = 'docs/protocol/vectors.json';

/** A device secret as enrolment makes one (32 random bytes, base64url): here the bytes 0x00…0x1f. */
const DEVICE_SECRET = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
const DEVICE_ID = '0190f3a2-7c4e-7b1a-9d2e-3f4a5b6c7d8e';
const OTHER_DEVICE_ID = '0190f3a2-7c4e-7b1a-9d2e-000000000000';

/** The offline-code spec (docs/device-protocol.md, offline codes), written out again. */
const SLOT_MS = 30 * 60 * 1000;
const CODE_DIGITS = 8;
const offlineCodeKeyHex = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

const offlineCodeVector = (keyHex: string, challenge: string, action: 'unlock' | 'lock', slot: number) => {
  const message = `kisht-offline-v1|${DEVICE_ID}|${challenge}|${action}|${slot}`;
  const mac = createHmac('sha256', Buffer.from(keyHex, 'utf8')).update(message, 'utf8').digest();
  const truncated = mac.readUInt32BE(mac[mac.length - 1]! & 0x0f) & 0x7fffffff;
  const code = String(truncated % 10 ** CODE_DIGITS).padStart(CODE_DIGITS, '0');
  return {
    challenge,
    action,
    slot,
    slotStartsAt: new Date(slot * SLOT_MS).toISOString(),
    message,
    hmac: mac.toString('hex'),
    code,
  };
};

const offlineCodes = () => {
  const key = offlineCodeKeyHex(DEVICE_SECRET);
  const slots = ['2026-01-15T09:30:00Z', '2026-11-22T10:07:00Z'].map((at) =>
    Math.floor(Date.parse(at) / SLOT_MS),
  );
  const vectors = ['000000', '123456', '739201'].flatMap((challenge) =>
    (['unlock', 'lock'] as const).flatMap((action) =>
      slots.map((slot) => offlineCodeVector(key, challenge, action, slot)),
    ),
  );
  return {
    description: [
      'Offline codes (docs/device-protocol.md, offline codes; packages/domain/src/devices/offline-code.ts).',
      'key = lowercase hex SHA-256 of the UTF-8 device secret; the HMAC key is the UTF-8 bytes of that hex text (64 bytes), not the 32 bytes it encodes.',
      `slot = floor(epoch ms / ${SLOT_MS}); message = "kisht-offline-v1|{deviceId}|{challenge}|{action}|{slot}" (UTF-8).`,
      'code = RFC 4226 §5.3 dynamic truncation of HMAC-SHA256(key, message), modulo 10^8, left-padded with zeros to 8 digits.',
      'A phone accepts a code in its slot and the next one, and in no other.',
    ].join(' '),
    deviceSecret: DEVICE_SECRET,
    key,
    deviceId: DEVICE_ID,
    slotMs: SLOT_MS,
    vectors,
  };
};

/** The sealed-PIN spec (docs/device-protocol.md, change_pin: the sealed PIN), written out again. */
const pinKey = (keyHex: string, deviceId: string) =>
  Buffer.from(
    hkdfSync('sha256', Buffer.from(keyHex, 'utf8'), Buffer.from(deviceId, 'utf8'), 'kisht-device-pin-v1', 32),
  );

const seal = (aesKey: Buffer, iv: Buffer, commandId: string, pin: string) => {
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  cipher.setAAD(Buffer.from(commandId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(pin, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return { ciphertext, tag, sealed: Buffer.concat([iv, ciphertext, tag]).toString('base64url') };
};

const sealedPins = () => {
  const key = offlineCodeKeyHex(DEVICE_SECRET);
  const aesKey = pinKey(key, DEVICE_ID);
  const vectors = [
    { commandId: '0190f3a2-8000-7000-8000-000000000001', pin: '4829', iv: '000102030405060708090a0b' },
    { commandId: '0190f3a2-8000-7000-8000-000000000002', pin: '582047', iv: 'a0a1a2a3a4a5a6a7a8a9aaab' },
    { commandId: '0190f3a2-8000-7000-8000-000000000003', pin: '90210357', iv: 'ffeeddccbbaa998877665544' },
  ].map(({ commandId, pin, iv }) => {
    const { ciphertext, tag, sealed } = seal(aesKey, Buffer.from(iv, 'hex'), commandId, pin);
    return { commandId, pin, iv, ciphertext: ciphertext.toString('hex'), tag: tag.toString('hex'), sealed };
  });
  const [first, second] = vectors as [(typeof vectors)[number], (typeof vectors)[number]];
  const altered = Buffer.from(first.sealed, 'base64url');
  altered[altered.length - 16]! ^= 0x01;
  return {
    description: [
      'Sealed PINs of change_pin (docs/device-protocol.md, change_pin: the sealed PIN; packages/domain/src/devices/device-pin.ts).',
      'ikm = the UTF-8 bytes of the offline-code key (lowercase hex SHA-256 of the device secret);',
      'pinKey = HKDF-SHA256(ikm, salt = UTF-8 deviceId, info = "kisht-device-pin-v1"), 32 bytes (RFC 5869);',
      'sealed = base64url without padding of iv (12 bytes) ‖ AES-256-GCM ciphertext of the UTF-8 PIN ‖ 16-byte tag, with additional data = UTF-8 command id (NIST SP 800-38D).',
      'The server draws a random iv for every seal; these vectors fix it. A device opens `sealed` with its key, its device id and the command’s id and gets `pin`;',
      'each of mustNotOpen must fail to open.',
    ].join(' '),
    deviceSecret: DEVICE_SECRET,
    key,
    deviceId: DEVICE_ID,
    pinKey: aesKey.toString('hex'),
    vectors,
    mustNotOpen: [
      {
        why: 'sealed for another command',
        deviceId: DEVICE_ID,
        commandId: second.commandId,
        sealed: first.sealed,
      },
      {
        why: 'sealed for another device',
        deviceId: OTHER_DEVICE_ID,
        commandId: first.commandId,
        sealed: first.sealed,
      },
      {
        why: 'altered: one bit of the tag flipped',
        deviceId: DEVICE_ID,
        commandId: first.commandId,
        sealed: altered.toString('base64url'),
      },
    ],
  };
};

/** RFC 8032 §7.1 TEST 1: its secret key as the seed, so the public key can be checked against the RFC. */
const ED25519_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
/** DER of a PKCS#8 Ed25519 private key up to its 32-byte seed (RFC 8410 §7). */
const PKCS8_ED25519_PREFIX = '302e020100300506032b657004220420';
const KID = 'k0123456789abcdef';

/** The signed-message spec (docs/device-protocol.md, signed messages), written out again. */
const envelopeOf = (privateKey: KeyObject, kid: string, message: unknown) => {
  const body = JSON.stringify(message);
  const sig = sign(null, Buffer.from(body, 'utf8'), privateKey).toString('base64url');
  return { body, sig, envelope: JSON.stringify({ v: 2, kid, sig, body }) };
};

const signedMessages = (sealedPin: string, pinCommandId: string) => {
  const privateKey = createPrivateKey({
    key: Buffer.from(PKCS8_ED25519_PREFIX + ED25519_SEED, 'hex'),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const policyVersion = {
    version: 7,
    policy: {
      locked: true,
      controls: {
        camera_lock: { on: true },
        app_lock: { on: true, args: { packages: ['com.whatsapp', 'com.android.chrome'] } },
      },
      lockScreen: {
        retailerName: 'Ravi Mobiles',
        retailerPhone: '+919876543210',
        overduePaise: 208000,
        howToPay: 'Pay by UPI to ravimobiles@okaxis\nor at Shop 4, Andheri West',
        emergencyCalls: true,
      },
    },
    commands: [{ id: '0190f3a2-9000-7000-8000-000000000010', name: 'lock' }],
    issuedAt: '2026-01-15T09:30:00.000Z',
  };
  const messages = [
    { type: 'policy', deviceId: DEVICE_ID, ...policyVersion },
    {
      type: 'command',
      deviceId: DEVICE_ID,
      id: pinCommandId,
      name: 'change_pin',
      args: { sealedPin },
      issuedAt: '2026-01-15T09:31:00.000Z',
      notAfter: '2026-01-16T09:31:00.000Z',
      policyVersion: 7,
    },
    {
      type: 'cancel',
      deviceId: DEVICE_ID,
      id: '0190f3a2-9000-7000-8000-000000000011',
      issuedAt: '2026-01-15T09:32:00.000Z',
    },
    {
      type: 'sync',
      deviceId: DEVICE_ID,
      connectionId: 'c0190f3a2a001',
      serverTime: '2026-01-15T09:33:00.000Z',
      policy: policyVersion,
      commandIds: [pinCommandId],
    },
  ];
  const vectors = messages.map((message) => ({ message, ...envelopeOf(privateKey, KID, message) }));
  const policy = vectors[0]!;
  return {
    description: [
      'Signed server → device messages (docs/device-protocol.md, signed messages; packages/domain/src/devices/server-message.ts).',
      'body = the JSON text of the message exactly as sent (the signature covers these UTF-8 bytes; a device verifies them before it parses, never a re-serialisation);',
      'sig = the Ed25519 (RFC 8032, pure) signature of body, base64url without padding; envelope = the MQTT payload, the JSON text of {"v":2,"kid","sig","body"}.',
      `The private key is the 32-byte seed as PKCS#8 DER (${PKCS8_ED25519_PREFIX} ‖ seed), base64; the seed is RFC 8032 §7.1 TEST 1’s secret key, so rawPublicKey is that test’s public key.`,
      'publicKey is its DER SubjectPublicKeyInfo, base64, as a device gets it at enrolment (serverKey). Ed25519 is deterministic, so signing body again gives sig again.',
      'A device must refuse each of mustRefuse, for the reason given.',
    ].join(' '),
    seed: ED25519_SEED,
    kid: KID,
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: spki.toString('base64'),
    rawPublicKey: spki.subarray(-32).toString('hex'),
    deviceId: DEVICE_ID,
    vectors,
    mustRefuse: [
      {
        why: 'the body was changed after signing (locked true → false)',
        envelope: JSON.stringify({
          v: 2,
          kid: KID,
          sig: policy.sig,
          body: policy.body.replace('"locked":true', '"locked":false'),
        }),
        refusal: 'bad signature',
      },
      {
        why: 'the envelope names a key id (kid) the device does not hold',
        envelope: envelopeOf(privateKey, 'k00000000000000ff', policy.message).envelope,
        refusal: 'unknown key',
      },
      {
        why: 'correctly signed, but for another device',
        envelope: envelopeOf(privateKey, KID, { ...messages[2], deviceId: OTHER_DEVICE_ID }).envelope,
        refusal: 'for another device',
      },
    ],
  };
};

/**
 * The paid-through date (docs/device-protocol.md §12.5), written out again: what the server puts
 * in the policy (start, +05:30, of the day after the oldest unpaid due date plus the grace days)
 * and what the phone decides at a moment for the version it holds (lock, wait, or never for this
 * version), with the countdown from 3 days before.
 */
const paidThrough = () => {
  const DAY_MS = 86_400_000;
  const IST_MS = 330 * 60_000;
  const dateFor = (dueDate: string, graceDays: number) =>
    new Date(Date.parse(`${dueDate}T00:00:00Z`) + (graceDays + 1) * DAY_MS - IST_MS).toISOString();
  const dates = [
    { oldestUnpaidDueDate: '2026-12-10', graceDays: 3 },
    { oldestUnpaidDueDate: '2026-12-31', graceDays: 0 },
    { oldestUnpaidDueDate: '2027-02-27', graceDays: 2 },
  ].map((given) => ({ ...given, paidThrough: dateFor(given.oldestUnpaidDueDate, given.graceDays) }));
  const date = '2026-12-13T18:30:00.000Z';
  const at = (offsetMs: number) => new Date(Date.parse(date) + offsetMs).toISOString();
  const decide = (
    held: { paidThrough: string | null; issuedAt: string },
    offlineEventsAt: string[],
    now: string,
  ) => {
    if (held.paidThrough === null || Date.parse(held.issuedAt) >= Date.parse(held.paidThrough))
      return { decision: 'never', countdownMs: null };
    const lockAt = Date.parse(held.paidThrough);
    if (offlineEventsAt.some((event) => Date.parse(event) >= lockAt))
      return { decision: 'never', countdownMs: null };
    const left = lockAt - Date.parse(now);
    if (left <= 0) return { decision: 'lock', countdownMs: null };
    return { decision: 'wait', countdownMs: left <= 3 * DAY_MS ? left : null };
  };
  const issuedBefore = at(-10 * DAY_MS);
  const cases = [
    {
      why: 'no date (paid up)',
      held: { paidThrough: null, issuedAt: issuedBefore },
      offlineEventsAt: [],
      now: at(DAY_MS),
    },
    {
      why: 'a week before: no countdown yet',
      held: { paidThrough: date, issuedAt: issuedBefore },
      offlineEventsAt: [],
      now: at(-7 * DAY_MS),
    },
    {
      why: 'three days before: the countdown starts',
      held: { paidThrough: date, issuedAt: issuedBefore },
      offlineEventsAt: [],
      now: at(-3 * DAY_MS),
    },
    {
      why: 'an hour before',
      held: { paidThrough: date, issuedAt: issuedBefore },
      offlineEventsAt: [],
      now: at(-3_600_000),
    },
    {
      why: 'the moment it passes',
      held: { paidThrough: date, issuedAt: issuedBefore },
      offlineEventsAt: [],
      now: at(0),
    },
    {
      why: 'a day after, offline all along',
      held: { paidThrough: date, issuedAt: issuedBefore },
      offlineEventsAt: [at(-DAY_MS)],
      now: at(DAY_MS),
    },
    {
      why: 'a version issued after its date (a retailer unlocked)',
      held: { paidThrough: date, issuedAt: at(60_000) },
      offlineEventsAt: [],
      now: at(DAY_MS),
    },
    {
      why: 'an offline unlock code accepted after the date',
      held: { paidThrough: date, issuedAt: issuedBefore },
      offlineEventsAt: [at(3_600_000)],
      now: at(DAY_MS),
    },
  ];
  return {
    dates,
    decisions: cases.map((given) => ({ ...given, ...decide(given.held, given.offlineEventsAt, given.now) })),
  };
};

/** Every vector group, as docs/protocol/vectors.json holds them. */
export const protocolVectors = () => {
  const pins = sealedPins();
  const pinCommand = pins.vectors[0]!;
  return {
    description:
      'Known-answer test vectors of the Kisht device protocol v2, generated by packages/domain/scripts/protocol-vectors.ts (npm run protocol:docs). Hex is lowercase; base64url has no padding. The keys and secrets here are for tests only.',
    offlineCodes: offlineCodes(),
    sealedPins: pins,
    signedMessages: signedMessages(pinCommand.sealed, pinCommand.commandId),
    paidThrough: paidThrough(),
  };
};
export type TProtocolVectors = ReturnType<typeof protocolVectors>;

/** docs/protocol/vectors.json's text. */
export const protocolVectorsText = (): string => jsonText(protocolVectors());
