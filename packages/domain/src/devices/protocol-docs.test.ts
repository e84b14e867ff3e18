import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  PROTOCOL_SCHEMA_ID_BASE,
  PROTOCOL_SCHEMAS_DIR,
  protocolSchemaFiles,
} from '../../scripts/protocol-schemas';
import { PROTOCOL_VECTORS_FILE, type TProtocolVectors } from '../../scripts/protocol-vectors';
import { ZLostModeArgs, ZPackagesArgs, ZWallpaperArgs } from './command-catalogue';
import { ZEnrolDeviceRequest, ZEnrolDeviceResponse } from './devices.schema';
import {
  ZAckEvent,
  ZCommandMessage,
  ZDeviceEvent,
  ZGoneEvent,
  ZHelloEvent,
  ZPolicy,
  ZReportEvent,
  ZServerMessage,
  ZSignedMessage,
} from './protocol.schema';

/**
 * docs/protocol/schemas/: the JSON Schemas device makers validate their messages with must be the
 * ones the zod schemas generate today, and a real JSON Schema validator must judge real messages as
 * the zod schemas do.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCHEMAS_DIR = join(ROOT, PROTOCOL_SCHEMAS_DIR);

/** `value` without property `key` (not set to undefined: a validator must see it absent). */
const without = (value: object | undefined, key: string) =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([name]) => name !== key));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();

const generated = protocolSchemaFiles();

describe(PROTOCOL_SCHEMAS_DIR, () => {
  it('holds exactly what scripts/protocol-schemas.ts generates', () => {
    const onDisk = filesUnder(SCHEMAS_DIR);
    const problems = [
      ...[...generated.keys()].filter((file) => !onDisk.includes(file)).map((file) => `missing: ${file}`),
      ...onDisk.filter((file) => !generated.has(file)).map((file) => `not generated: ${file}`),
      ...onDisk
        .filter(
          (file) =>
            generated.has(file) && readFileSync(join(SCHEMAS_DIR, file), 'utf8') !== generated.get(file),
        )
        .map((file) => `differs: ${file}`),
    ];
    expect(problems, `${PROTOCOL_SCHEMAS_DIR} is stale: run \`npm run protocol:docs\``).toEqual([]);
  });
});

describe('the JSON Schemas judge messages as the zod schemas do', () => {
  const ajv = new Ajv2020({ allErrors: true });
  addFormats(ajv);
  // The generated text, which the test above holds the checked-in files to.
  for (const [file, text] of generated) if (file.endsWith('.schema.json')) ajv.addSchema(JSON.parse(text));
  const validate = (file: string, value: unknown) => {
    const validator = ajv.getSchema(`${PROTOCOL_SCHEMA_ID_BASE}${file}`);
    if (!validator) throw new Error(`no schema ${file}`);
    return validator(value);
  };

  const vectors = JSON.parse(readFileSync(join(ROOT, PROTOCOL_VECTORS_FILE), 'utf8')) as TProtocolVectors;
  const [policy, command, cancel, sync] = vectors.signedMessages.vectors.map((vector) => vector.message);
  const envelope = JSON.parse(vectors.signedMessages.vectors[0]!.envelope) as Record<string, unknown>;
  const state = {
    isLocked: true,
    policyVersion: 7,
    agentVersion: '2.0.0',
    controls: { camera_lock: true },
    sims: [
      { slot: 1, iccid: '8991000000000000001', operator: 'Jio' },
      { slot: 2, iccid: null, operator: null },
    ],
  };
  const at = '2026-01-15T09:30:05.000Z';
  const connectionId = 'c0190f3a2a001';
  const hello = { v: 2, type: 'hello', state, at, seq: 1768469405000000, connectionId };
  const ack = {
    v: 2,
    type: 'ack',
    commandId: '0190f3a2-9000-7000-8000-000000000012',
    status: 'done',
    result: { latitude: '12.9716', longitude: '77.5946', accuracyM: 12, at },
    state,
    at,
    seq: 1768469405000001,
    connectionId,
  };
  const report = { v: 2, type: 'report', kind: 'sim', data: { sims: state.sims }, state, at, connectionId };
  const gone = { v: 2, type: 'gone', connectionId, at };
  const enrolRequest = {
    token: '0f6c2a9e4b7d41c8a3e5f1b2c4d6e8fa',
    imei1: '490154203237518',
    imei2: '356938035643809',
  };
  const enrolResponse = {
    deviceId: vectors.signedMessages.deviceId,
    deviceSecret: vectors.offlineCodes.deviceSecret,
    mqttUrl: 'wss://api.kisht.example/mqtt',
    cmdTopic: `kisht/v1/d/${vectors.signedMessages.deviceId}/cmd`,
    evtTopic: `kisht/v1/d/${vectors.signedMessages.deviceId}/evt`,
    offlineLockAfterMs: 172_800_000,
    serverKey: { kid: vectors.signedMessages.kid, publicKey: vectors.signedMessages.publicKey },
  };

  type TCase = [what: string, file: string, schema: z.ZodType, value: unknown, isValid: boolean];
  it.each<TCase>([
    ['a signed envelope', 'signed-message.schema.json', ZSignedMessage, envelope, true],
    [
      'an envelope with a short sig',
      'signed-message.schema.json',
      ZSignedMessage,
      { ...envelope, sig: 'abc' },
      false,
    ],
    ['a policy', 'server-message.schema.json', ZServerMessage, policy, true],
    ['a change_pin command', 'server-message.schema.json', ZServerMessage, command, true],
    ['a cancel', 'server-message.schema.json', ZServerMessage, cancel, true],
    ['a sync', 'server-message.schema.json', ZServerMessage, sync, true],
    [
      'a message of no known type',
      'server-message.schema.json',
      ZServerMessage,
      { ...cancel, type: 'x' },
      false,
    ],
    [
      'a command without args',
      'command-message.schema.json',
      ZCommandMessage,
      without(command, 'args'),
      true,
    ],
    ['a command without id', 'command-message.schema.json', ZCommandMessage, without(command, 'id'), false],
    ['a policy with an extra field', 'policy.schema.json', ZPolicy, { ...policy?.policy, extra: 1 }, true],
    ['a hello', 'device-event.schema.json', ZDeviceEvent, hello, true],
    ['an ack with a location', 'device-event.schema.json', ZDeviceEvent, ack, true],
    ['a SIM report', 'device-event.schema.json', ZDeviceEvent, report, true],
    ['a gone', 'device-event.schema.json', ZDeviceEvent, gone, true],
    ['a hello of protocol v1', 'hello-event.schema.json', ZHelloEvent, { ...hello, v: 1 }, false],
    [
      'a hello without a connection id',
      'hello-event.schema.json',
      ZHelloEvent,
      { ...hello, connectionId: '' },
      false,
    ],
    ['an ack with an unknown status', 'ack-event.schema.json', ZAckEvent, { ...ack, status: 'ok' }, false],
    [
      'a report of an unknown kind',
      'report-event.schema.json',
      ZReportEvent,
      { ...report, kind: 'battery' },
      false,
    ],
    [
      'a gone without its connection',
      'gone-event.schema.json',
      ZGoneEvent,
      without(gone, 'connectionId'),
      false,
    ],
    ['an enrol request', 'enrol-device-request.schema.json', ZEnrolDeviceRequest, enrolRequest, true],
    [
      'a short IMEI',
      'enrol-device-request.schema.json',
      ZEnrolDeviceRequest,
      { ...enrolRequest, imei1: '4901' },
      false,
    ],
    ['an enrol response', 'enrol-device-response.schema.json', ZEnrolDeviceResponse, enrolResponse, true],
    ['packages to lock', 'args/app_lock.schema.json', ZPackagesArgs, { packages: ['com.whatsapp'] }, true],
    ['no packages to lock', 'args/app_lock.schema.json', ZPackagesArgs, { packages: [] }, false],
    ['a wallpaper text', 'args/set_wallpaper.schema.json', ZWallpaperArgs, { text: 'EMI due 5 Feb' }, true],
    [
      'a wallpaper image',
      'args/set_wallpaper.schema.json',
      ZWallpaperArgs,
      { imageUrl: 'https://kisht.in/w.png' },
      true,
    ],
    ['a wallpaper of nothing', 'args/set_wallpaper.schema.json', ZWallpaperArgs, {}, false],
    [
      'an http wallpaper',
      'args/set_wallpaper.schema.json',
      ZWallpaperArgs,
      { imageUrl: 'http://kisht.in/w.png' },
      false,
    ],
    [
      'a lost-mode message',
      'args/lost_mode_on.schema.json',
      ZLostModeArgs,
      { message: 'Call us', phone: '+919800000000' },
      true,
    ],
  ])('%s against %s', (_what, file, schema, value, isValid) => {
    expect(schema.safeParse(value).success).toBe(isValid);
    expect(validate(file, value)).toBe(isValid);
  });

  it('cannot see the IMEI check digit, which only the server checks', () => {
    const request = { ...enrolRequest, imei1: '490154203237519' };
    expect(ZEnrolDeviceRequest.safeParse(request).success).toBe(false);
    expect(validate('enrol-device-request.schema.json', request)).toBe(true);
  });
});
