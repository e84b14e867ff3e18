import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  PROTOCOL_VECTORS_FILE,
  protocolVectorsText,
  type TProtocolVectors,
} from '../../scripts/protocol-vectors';
import { CustomerStatus, DeviceType } from '../common/enums';
import { unsealDevicePin } from './device-pin';
import { offlineCodeFor, offlineCodeKey, offlineCodeSlot, verifyOfflineCode } from './offline-code';
import { paidThroughCountdown, paidThroughFor, paidThroughLockAt } from './paid-through';
import { type TServerMessage, ZServerMessage } from './protocol.schema';
import { openServerMessage, privateKeyOf, publicKeyOf, signBody, signServerMessage } from './server-message';

/**
 * docs/protocol/vectors.json, the known answers device makers check their crypto against: the file
 * is what the generator (the spec written out with node:crypto) produces, and the real functions
 * give the same answers.
 */

const VECTORS_PATH = new URL(`../../../../${PROTOCOL_VECTORS_FILE}`, import.meta.url);
const vectorsText = readFileSync(VECTORS_PATH, 'utf8');
const { offlineCodes, sealedPins, signedMessages, paidThrough } = JSON.parse(vectorsText) as TProtocolVectors;

it('vectors.json is what scripts/protocol-vectors.ts generates', () => {
  expect(vectorsText, `${PROTOCOL_VECTORS_FILE} is stale: run \`npm run protocol:docs\``).toBe(
    protocolVectorsText(),
  );
});

describe('offline codes', () => {
  const { deviceId, key: keyHex, slotMs } = offlineCodes;

  it('the key is SHA-256 hex of the device secret', async () => {
    expect(await offlineCodeKey(offlineCodes.deviceSecret)).toBe(keyHex);
  });

  it.each(offlineCodes.vectors)('$challenge $action in slot $slot → $code', async (vector) => {
    const { challenge, action, slot, code } = vector;
    expect(offlineCodeSlot(Date.parse(vector.slotStartsAt))).toBe(slot);
    expect(await offlineCodeFor({ keyHex, deviceId, challenge, action, slot })).toBe(code);
    const isAcceptedAt = (nowMs: number) =>
      verifyOfflineCode({ keyHex, deviceId, challenge, action, code, nowMs });
    expect(await isAcceptedAt(slot * slotMs)).toBe(true);
    expect(await isAcceptedAt((slot + 2) * slotMs - 1)).toBe(true);
    expect(await isAcceptedAt((slot + 2) * slotMs)).toBe(false);
    expect(await isAcceptedAt(slot * slotMs - 1)).toBe(false);
  });
});

describe('sealed PINs', () => {
  const { deviceId, key: keyHex } = sealedPins;

  it.each(sealedPins.vectors)(
    '$sealed opens to $pin for command $commandId',
    async ({ commandId, sealed, pin }) => {
      expect(await unsealDevicePin({ keyHex, deviceId, commandId, sealed })).toBe(pin);
    },
  );

  it.each(sealedPins.mustNotOpen)('does not open when $why', async (vector) => {
    await expect(unsealDevicePin({ keyHex, ...vector })).rejects.toThrow('sealed PIN does not open');
  });
});

describe('signed messages', () => {
  const { kid, deviceId } = signedMessages;
  const privateKey = privateKeyOf(signedMessages);
  const publicKey = publicKeyOf(signedMessages);

  it('the public key is the private key’s, and RFC 8032 TEST 1’s', () => {
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    expect(spki.toString('base64')).toBe(signedMessages.publicKey);
    expect(spki.subarray(-32).toString('hex')).toBe(
      'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    );
    expect(spki.subarray(-32).toString('hex')).toBe(signedMessages.rawPublicKey);
  });

  it.each(signedMessages.vectors)('a $message.type message signs to its envelope, which opens', (vector) => {
    expect(ZServerMessage.safeParse(vector.message).success).toBe(true);
    const message = vector.message as TServerMessage;
    expect(JSON.stringify(message)).toBe(vector.body);
    expect(signBody(privateKey, vector.body)).toBe(vector.sig);
    expect(signServerMessage({ kid, privateKey }, message)).toBe(vector.envelope);
    expect(openServerMessage(vector.envelope, { kid, publicKey }, deviceId)).toEqual({ message });
  });

  it.each(signedMessages.mustRefuse)('refuses an envelope when $why', ({ envelope, refusal }) => {
    expect(openServerMessage(envelope, { kid, publicKey }, deviceId)).toMatchObject({ refusal });
  });
});

describe('paid-through date', () => {
  it.each(paidThrough.dates)(
    'due $oldestUnpaidDueDate with $graceDays grace days → $paidThrough',
    (vector) => {
      const date = paidThroughFor({
        status: CustomerStatus.INSTALL,
        deviceType: DeviceType.DEVICE_POLICY_CONTROLLER,
        oldestUnpaidDueDate: vector.oldestUnpaidDueDate,
        graceDays: vector.graceDays,
      });
      expect(date?.toISOString()).toBe(vector.paidThrough);
    },
  );

  it.each(paidThrough.decisions)('$why → $decision', (vector) => {
    expect(paidThrough.decisions.length).toBeGreaterThan(0);
    const lockAt = paidThroughLockAt(
      vector.held,
      vector.offlineEventsAt.map((at) => Date.parse(at)),
    );
    const now = Date.parse(vector.now);
    const decision = lockAt === null ? 'never' : now >= lockAt ? 'lock' : 'wait';
    expect(decision).toBe(vector.decision);
    expect(paidThroughCountdown(lockAt, now)?.msLeft ?? null).toBe(vector.countdownMs);
  });
});
