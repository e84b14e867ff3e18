import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import fc from 'fast-check';

/**
 * The subset of JSON Schema that @fastify/swagger writes for the zod schemas of the routes
 * (OpenAPI 3.0 dialect: `nullable`, boolean `exclusiveMinimum`), as the security suites read it.
 */
export type TJsonSchema = {
  type?: string | string[];
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  additionalProperties?: boolean | TJsonSchema;
  items?: TJsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: TJsonSchema[];
  oneOf?: TJsonSchema[];
  allOf?: TJsonSchema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};

/**
 * How a value travels: `json` as itself; `text` as a querystring or multipart field, always a
 * string, which the routes' schemas coerce (z.coerce.number: `'42'` → 42, as Number() reads it).
 */
export type TValueMode = 'json' | 'text';

const types = (schema: TJsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const lowerBound = (schema: TJsonSchema): { value: number; exclusive: boolean } | null => {
  if (typeof schema.exclusiveMinimum === 'number') return { value: schema.exclusiveMinimum, exclusive: true };
  if (schema.minimum === undefined) return null;
  return { value: schema.minimum, exclusive: schema.exclusiveMinimum === true };
};

const upperBound = (schema: TJsonSchema): { value: number; exclusive: boolean } | null => {
  if (typeof schema.exclusiveMaximum === 'number') return { value: schema.exclusiveMaximum, exclusive: true };
  if (schema.maximum === undefined) return null;
  return { value: schema.maximum, exclusive: schema.exclusiveMaximum === true };
};

const inBounds = (schema: TJsonSchema, n: number): boolean => {
  const low = lowerBound(schema);
  const high = upperBound(schema);
  if (low && (low.exclusive ? n <= low.value : n < low.value)) return false;
  if (high && (high.exclusive ? n >= high.value : n > high.value)) return false;
  return true;
};

const conformsNumber = (schema: TJsonSchema, value: unknown, mode: TValueMode, integer: boolean): boolean => {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (mode === 'text' && typeof value === 'string') n = Number(value);
  else return false;
  if (!Number.isFinite(n)) return false;
  if (integer && !Number.isInteger(n)) return false;
  return inBounds(schema, n);
};

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** Characters as a reader counts them (user-perceived, so an emoji with modifiers is one). */
const graphemes = (text: string) => {
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
};

/**
 * Strings are read leniently, because the zod schemas trim or change case before some checks
 * and JSON Schema cannot say so: a length or pattern passes when the value as sent, trimmed, or
 * in either case satisfies it.
 */
const conformsString = (schema: TJsonSchema, value: unknown): boolean => {
  if (typeof value !== 'string') return false;
  const variants = [value, value.trim(), value.trim().toUpperCase(), value.trim().toLowerCase()];
  // Lengths by the longest measure for a minimum (UTF-16 units) and the shortest for a maximum
  // (graphemes): zod counts characters, not units, and JSON Schema code points.
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.maxLength !== undefined) {
    const trimmed = value.trim();
    if (trimmed.length > schema.maxLength && graphemes(trimmed) > schema.maxLength) return false;
  }
  if (schema.pattern !== undefined) {
    const pattern = new RegExp(schema.pattern);
    if (!variants.some((v) => pattern.test(v))) return false;
  }
  return true;
};

/**
 * Whether `value` satisfies `schema` as far as the OpenAPI document can tell. Never stricter than
 * the server: false means the request is certainly invalid (the server must answer 4xx and write
 * nothing); true means it may be valid (refinements the document cannot show may still refuse it).
 * Where the document says nothing (a format without a pattern, an untyped value) the answer is true.
 */
export const conforms = (schema: TJsonSchema, value: unknown, mode: TValueMode = 'json'): boolean => {
  if (value === null && schema.nullable) return true;
  if (schema.allOf && !schema.allOf.every((s) => conforms(s, value, mode))) return false;
  if (schema.anyOf && !schema.anyOf.some((s) => conforms(s, value, mode))) return false;
  if (schema.oneOf && !schema.oneOf.some((s) => conforms(s, value, mode))) return false;
  if (schema.const !== undefined && !enumHas([schema.const], value, mode)) return false;
  if (schema.enum && !enumHas(schema.enum, value, mode)) return false;
  const accepted = types(schema);
  if (accepted.length === 0) return true;
  return accepted.some((type) => {
    switch (type) {
      case 'integer':
        return conformsNumber(schema, value, mode, true);
      case 'number':
        return conformsNumber(schema, value, mode, false);
      case 'string':
        return conformsString(schema, value);
      case 'boolean':
        return typeof value === 'boolean' || mode === 'text';
      case 'null':
        return value === null;
      case 'array':
        return (
          Array.isArray(value) &&
          (schema.minItems === undefined || value.length >= schema.minItems) &&
          (schema.maxItems === undefined || value.length <= schema.maxItems) &&
          (!schema.items || value.every((item) => conforms(schema.items!, item, mode)))
        );
      case 'object': {
        if (!isPlainObject(value)) return false;
        if ((schema.required ?? []).some((key) => value[key] === undefined)) return false;
        for (const [key, item] of Object.entries(value)) {
          if (item === undefined) continue;
          const property = schema.properties?.[key];
          if (property) {
            if (!conforms(property, item, mode)) return false;
          } else if (schema.additionalProperties === false) {
            return false;
          } else if (isPlainObject(schema.additionalProperties)) {
            if (!conforms(schema.additionalProperties, item, mode)) return false;
          }
        }
        return true;
      }
      default:
        return true;
    }
  });
};

const enumHas = (values: unknown[], value: unknown, mode: TValueMode): boolean =>
  values.some((v) => v === value || (mode === 'text' && typeof value === 'string' && String(v) === value));

/** A Luhn-valid 15-digit IMEI. */
const imeiArbitrary = fc.stringMatching(/^[1-9]\d{13}$/).map((body) => `${body}${imeiCheckDigit(body)}`);

/** A calendar date a few years around today, as YYYY-MM-DD. */
const dateArbitrary = fc
  .integer({ min: -3 * 365, max: 3 * 365 })
  .map((days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10));

/**
 * Values for fields whose meaning the schema cannot carry (a mobile is `type: string`, an IMEI
 * must pass Luhn), so that valid requests reach the services instead of stopping at validation.
 * Mixed with the schema's own values, never instead of them.
 */
export const FIELD_HINTS: Record<string, fc.Arbitrary<unknown>> = {
  mobile: fc.oneof(fc.stringMatching(/^[6-9]\d{9}$/), fc.stringMatching(/^\+91[6-9]\d{9}$/)),
  imei1: imeiArbitrary,
  imei2: imeiArbitrary,
  firstDueDate: dateArbitrary,
  dateOfBirth: fc
    .integer({ min: 18 * 365, max: 80 * 365 })
    .map((days) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)),
  pin: fc.stringMatching(/^\d{4,8}$/),
  email: fc.constantFrom('meera@example.in', 'a.b+c@example.co.in', ''),
  run_at: fc
    .integer({ min: -3_600, max: 30 * 86_400 })
    .map((seconds) => new Date(Date.now() + seconds * 1000).toISOString()),
};

const LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz '];

/**
 * Strings for a string schema. Never filtered (a filter fast-check can rarely satisfy never ends):
 * a value that misses the schema is still a request, and `conforms` tells the suites which it is.
 */
const stringArbitrary = (schema: TJsonSchema): fc.Arbitrary<string> => {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return FIELD_HINTS.run_at as fc.Arbitrary<string>;
  if (schema.pattern !== undefined) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // A pattern fast-check cannot generate from (lookarounds): fall through to plain strings.
    }
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
    fc.array(fc.constantFrom(...LETTERS), { minLength, maxLength }).map((letters) => letters.join('')),
  );
};

const numberArbitrary = (schema: TJsonSchema, integer: boolean): fc.Arbitrary<number> => {
  const low = lowerBound(schema);
  const high = upperBound(schema);
  let min = low ? low.value + (low.exclusive ? 1 : 0) : -1_000_000;
  let max = high ? high.value - (high.exclusive ? 1 : 0) : 1_000_000_000;
  min = Math.max(min, Number.MIN_SAFE_INTEGER);
  max = Math.min(max, Number.MAX_SAFE_INTEGER);
  if (integer) {
    // Small values most of the time (they meet real rows), the edges of the range some of the time.
    return fc.oneof(
      { arbitrary: fc.integer({ min, max: Math.min(max, min + 1000) }), weight: 3 },
      { arbitrary: fc.integer({ min, max }), weight: 1 },
      { arbitrary: fc.constantFrom(min, max), weight: 1 },
    );
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
};

/**
 * Values that satisfy `schema` (as `conforms` reads it), with FIELD_HINTS for named properties
 * and `extra` arbitraries by property name (real ids, say) mixed in. Optional properties come and
 * go; arrays stay short.
 */
export const validArbitrary = (
  schema: TJsonSchema,
  extra: Record<string, fc.Arbitrary<unknown>> = {},
  name?: string,
): fc.Arbitrary<unknown> => {
  const base = baseArbitrary(schema, extra);
  const hint = name === undefined ? undefined : (extra[name] ?? FIELD_HINTS[name]);
  if (!hint) return base;
  return fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: base, weight: 1 });
};

const baseArbitrary = (
  schema: TJsonSchema,
  extra: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<unknown> => {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const arbitraries = variants.map((s) => validArbitrary(s, extra));
    return schema.nullable ? fc.oneof(fc.constant(null), ...arbitraries) : fc.oneof(...arbitraries);
  }
  if (schema.allOf?.length === 1) return validArbitrary(schema.allOf[0]!, extra);
  const plain = baseByType(schema, extra);
  return schema.nullable ? fc.oneof(fc.constant(null), plain) : plain;
};

const baseByType = (
  schema: TJsonSchema,
  extra: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<unknown> => {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (types(schema)[0]) {
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'string':
      return stringArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(validArbitrary(schema.items ?? {}, extra), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, s]) => [key, validArbitrary(s, extra, key)]),
      );
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
    }
    default:
      return fc.constantFrom({}, 'x', 1, true, null);
  }
};
