import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ZImei } from '../src/common/identifiers';
import * as catalogue from '../src/devices/command-catalogue';
import { COMMAND_CATALOGUE, type TCommandSpec, ZWallpaperArgs } from '../src/devices/command-catalogue';
import * as devices from '../src/devices/devices.schema';
import { ZEnrolDeviceRequest, ZEnrolDeviceResponse } from '../src/devices/devices.schema';
import * as protocol from '../src/devices/protocol.schema';
import {
  PROTOCOL_VERSION,
  ZAckEvent,
  ZAppliedEvent,
  ZCancelMessage,
  ZCommandMessage,
  ZDeviceEvent,
  ZGoneEvent,
  ZHelloEvent,
  ZPolicy,
  ZPolicyMessage,
  ZReportEvent,
  ZServerMessage,
  ZSignedMessage,
  ZSyncMessage,
} from '../src/devices/protocol.schema';
import { jsonText } from './json-text';
import { schemaDocs } from './schema-docs';

/**
 * JSON Schemas (draft 2020-12) of the device protocol's messages and command arguments, generated
 * from the zod schemas with z.toJSONSchema, for device makers who do not read TypeScript. Written to
 * docs/protocol/schemas/ by `npm run protocol:docs`; protocol-docs.test.ts fails when they are stale.
 *
 * Each schema describes what the receiver accepts (zod's input side): a property with a default may
 * be left out, and unknown properties are allowed (zod strips them), so an older reader never refuses
 * a newer writer's extra field.
 */

/** Where the generated schemas live, from the repository root. */
export const PROTOCOL_SCHEMAS_DIR = 'docs/protocol/schemas';
/** Base of every schema's `$id`: an identifier, not a download address. */
export const PROTOCOL_SCHEMA_ID_BASE = `https://kisht.in/protocol/v${PROTOCOL_VERSION}/schemas/`;

const SOURCES = [
  '../src/devices/protocol.schema.ts',
  '../src/devices/devices.schema.ts',
  '../src/devices/command-catalogue.ts',
];

type TJsonSchema = Record<string, unknown>;

/**
 * What zod checks that z.toJSONSchema leaves out (refinements, a URL's protocol), written out as
 * JSON Schema where it can be. The generator refuses a schema with a refinement missing here, so a
 * new `.refine` cannot silently make the published schema looser than the code.
 */
const REFINEMENTS = new Map<unknown, (json: TJsonSchema) => void>([
  [
    ZWallpaperArgs,
    (json) => {
      json.anyOf = [{ required: ['text'] }, { required: ['imageUrl'] }];
    },
  ],
  [
    ZWallpaperArgs.shape.imageUrl,
    (json) => {
      json.pattern = '^https://';
    },
  ],
  [
    ZImei,
    (json) => {
      json.pattern = '^[0-9]{15}$';
      json.description =
        'An IMEI: 15 digits, the last a Luhn check digit (which this schema does not check).';
    },
  ],
]);

type TSchemaFile = {
  file: string;
  schema: z.ZodType;
  title: string;
  /** Instead of the zod schema's doc comment (required when it has none). */
  description?: string;
  /** Put after the schema's own description. */
  note?: string;
};

const MESSAGE_FILES: TSchemaFile[] = [
  {
    file: 'signed-message.schema.json',
    schema: ZSignedMessage,
    title: 'Signed message (server → device envelope)',
    note: 'Published on kisht/v1/d/{deviceId}/cmd; `body` holds one server-message.schema.json.',
  },
  {
    file: 'server-message.schema.json',
    schema: ZServerMessage,
    title: 'Server message',
    note: 'One of policy-message, command-message, cancel-message, sync-message, told apart by `type`; it travels as the `body` of a signed message.',
  },
  { file: 'policy-message.schema.json', schema: ZPolicyMessage, title: 'Policy message' },
  { file: 'command-message.schema.json', schema: ZCommandMessage, title: 'Command message' },
  { file: 'cancel-message.schema.json', schema: ZCancelMessage, title: 'Cancel message' },
  { file: 'sync-message.schema.json', schema: ZSyncMessage, title: 'Sync message' },
  {
    file: 'device-event.schema.json',
    schema: ZDeviceEvent,
    title: 'Device event',
    description:
      'Every event a device publishes on kisht/v1/d/{deviceId}/evt (docs/device-protocol.md, Messages): a hello, ack, report or gone, told apart by `type`.',
  },
  { file: 'hello-event.schema.json', schema: ZHelloEvent, title: 'Hello event' },
  { file: 'ack-event.schema.json', schema: ZAckEvent, title: 'Ack event' },
  { file: 'applied-event.schema.json', schema: ZAppliedEvent, title: 'Applied event' },
  { file: 'report-event.schema.json', schema: ZReportEvent, title: 'Report event' },
  { file: 'gone-event.schema.json', schema: ZGoneEvent, title: 'Gone event (last will)' },
  {
    file: 'enrol-device-request.schema.json',
    schema: ZEnrolDeviceRequest,
    title: 'Enrol request',
    description:
      'The body of POST {SERVER_URL}/api/device/enrol (docs/device-protocol.md, Enrolment): the one-time token from the QR and the phone’s two IMEIs.',
  },
  {
    file: 'enrol-device-response.schema.json',
    schema: ZEnrolDeviceResponse,
    title: 'Enrol response',
    description:
      'The `data` of a successful enrol response (docs/device-protocol.md, Enrolment): the device’s id and MQTT credentials, its topics, the offline limit and the server key every message must be signed with. The secret is shown once; keep it in private, durable storage.',
  },
  { file: 'policy.schema.json', schema: ZPolicy, title: 'Policy' },
];

/** `args` of the `on` command of a catalogue entry (a toggle's on command, or an action's command). */
const argsFile = (spec: TCommandSpec, docs: Map<unknown, string>): TSchemaFile => {
  const carried =
    spec.feature === 'lock'
      ? 'a policy carries it as `locked: true`'
      : `a policy carries them as \`controls.${spec.feature}.args\` while the feature is on`;
  const what =
    spec.kind === 'toggle'
      ? `which turns the toggle \`${spec.feature}\` on (\`${spec.off}\` turns it off); ${carried}`
      : 'an action, sent as a command message';
  const takes =
    Object.keys(spec.args.shape).length === 0 ? 'It takes no arguments: `{}`.' : docs.get(spec.args);
  return {
    file: `args/${spec.on}.schema.json`,
    schema: spec.args,
    title: `${spec.on} arguments`,
    description: [
      `The \`args\` of the \`${spec.on}\` command, ${what} (docs/device-protocol.md, Commands).`,
      takes,
    ]
      .filter(Boolean)
      .join(' '),
  };
};

/** Keywords whose value is a subschema, a list of them, or a map of them. */
const SUBSCHEMA = ['items', 'additionalProperties', 'propertyNames', 'not', 'contains'];
const SUBSCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', '$defs'];
const LEADING = ['$schema', '$id', 'title', 'description'];

/** Puts `$schema`, `$id`, `title`, `description` first in every (sub)schema; the rest keep zod's order. */
const ordered = (schema: unknown): unknown => {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const source = schema as TJsonSchema;
  const keys = [
    ...LEADING.filter((key) => key in source),
    ...Object.keys(source).filter((key) => !LEADING.includes(key)),
  ];
  const result: TJsonSchema = {};
  for (const key of keys) {
    const value = source[key];
    if (SUBSCHEMA.includes(key)) result[key] = ordered(value);
    else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) result[key] = value.map(ordered);
    else if (SUBSCHEMA_MAPS.includes(key) && typeof value === 'object' && value !== null) {
      result[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, ordered(sub)]));
    } else result[key] = value;
  }
  return result;
};

type TZodInternals = { _zod: { def: { checks?: { _zod: { def: { check: string } } }[] } } };

const toJsonSchema = (entry: TSchemaFile, docs: Map<unknown, string>): TJsonSchema => {
  const json = z.toJSONSchema(entry.schema, {
    io: 'input',
    override: ({ zodSchema, jsonSchema, path }) => {
      const doc = docs.get(zodSchema);
      if (doc && !z.globalRegistry.get(zodSchema)?.description) jsonSchema.description = doc;
      const refinement = REFINEMENTS.get(zodSchema);
      const checks = (zodSchema as unknown as TZodInternals)._zod.def.checks ?? [];
      if (!refinement && checks.some((check) => check._zod.def.check === 'custom')) {
        throw new Error(
          `${entry.file} ${path.join('.')}: a zod refinement JSON Schema cannot show; say what it checks in REFINEMENTS (scripts/protocol-schemas.ts)`,
        );
      }
      refinement?.(jsonSchema as TJsonSchema);
    },
  }) as TJsonSchema;
  const description = [entry.description ?? docs.get(entry.schema), entry.note].filter(Boolean).join(' ');
  if (!description) throw new Error(`${entry.file}: give the schema a doc comment or a description`);
  return ordered({
    ...json,
    $id: `${PROTOCOL_SCHEMA_ID_BASE}${entry.file}`,
    title: entry.title,
    description,
  }) as TJsonSchema;
};

const readme = (entries: TSchemaFile[]): string => {
  const exported = Object.entries({ ...protocol, ...devices, ...catalogue });
  const zodName = (schema: unknown) => exported.find(([, value]) => value === schema)?.[0];
  const row = (entry: TSchemaFile) => {
    const name = zodName(entry.schema);
    return `| [\`${entry.file}\`](${entry.file}) | ${entry.title} | ${name ? `\`${name}\`` : '(no arguments)'} |`;
  };
  const messages = entries.filter((entry) => !entry.file.startsWith('args/'));
  const args = entries.filter((entry) => entry.file.startsWith('args/'));
  return [
    '# Device protocol JSON Schemas',
    '',
    'Generated from the zod schemas in `packages/domain/src/devices/` by `npm run protocol:docs`; do not edit',
    'them by hand (a test fails when they are stale). JSON Schema draft 2020-12. Each schema describes what',
    'the receiver accepts: a property with a `default` may be left out, and unknown properties are allowed.',
    '',
    '## Messages',
    '',
    '| file | what | zod schema |',
    '| --- | --- | --- |',
    ...messages.map(row),
    '',
    '## Command arguments',
    '',
    'The `args` of the command that turns each control feature on (or runs an action), from `COMMAND_CATALOGUE`.',
    '',
    '| file | what | zod schema |',
    '| --- | --- | --- |',
    ...args.map(row),
    '',
  ].join('\n');
};

/**
 * Every file of docs/protocol/schemas/ (README.md included) as its text, by path inside that folder,
 * in a stable order. Throws Error when a schema has no description or a refinement REFINEMENTS does
 * not describe.
 */
export const protocolSchemaFiles = (): Map<string, string> => {
  const docs = schemaDocs(
    SOURCES.map((source) => fileURLToPath(new URL(source, import.meta.url))),
    [protocol, devices, catalogue],
  );
  const entries = [...MESSAGE_FILES, ...COMMAND_CATALOGUE.map((spec) => argsFile(spec, docs))];
  const files = new Map<string, string>();
  for (const entry of entries) files.set(entry.file, jsonText(toJsonSchema(entry, docs)));
  files.set('README.md', readme(entries));
  return files;
};
