import fc from 'fast-check';
import { conforms, type TJsonSchema, validArbitrary } from './json-schema';
import { OPTIONAL_FILE_UPLOADS, type TOperation } from './openapi-operations';

/**
 * One fuzz request and what it may get: `invalid` is certainly wrong (the OpenAPI document says
 * so: a wrong type, a bound passed, a required field missing, malformed JSON or multipart), so the
 * answer must be 4xx and nothing may be written; `maybe` may be valid (or fail a rule the document
 * cannot show), so any answer below 500 will do.
 */
export type TFuzzCase = {
  /** What was done to the request, for reports: `valid`, `customer_id=<bad value>`, `truncated multipart`. */
  label: string;
  expect: 'invalid' | 'maybe';
  method: TOperation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
};

/** Numbers at and past the edges: PostgreSQL integer and bigint, JavaScript's safe integers, signs, fractions. */
export const EDGE_NUMBERS = [
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  Number.MAX_VALUE,
  -1,
  0,
  0.5,
  1.5,
  1e-7,
  1e21,
];

/** Text that looks like a number to someone (Number() reads some of them), or like nothing. */
export const NUMERIC_LOOKING_TEXT = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '0x10',
  '1e3',
  ' 1',
  '1 ',
  '',
  ' ',
  '00001',
  '+1',
  '1_000',
  '١٢٣',
  '１２３',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  '-1',
  '0',
  '1.5',
];

/** Text that has broken servers: NUL, lone surrogates, direction overrides, injections, paths. */
export const NASTY_TEXT = [
  '名前',
  'नमस्ते',
  '😀👨‍👩‍👧',
  'e\u0301',
  '\u202Eevil',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\uFEFF',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%00',
  '../../etc/passwd',
  '=HYPERLINK("http://x")',
  '\r\n\t',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as plain text
  '${7*7}',
  '__proto__',
];

/** Long text, from past every maxLength to 100 kB. */
export const LONG_TEXT = ['x'.repeat(10_000), '9'.repeat(1_000), '😀'.repeat(5_000), 'a'.repeat(100_000)];

/** JSON values of every type, to put where another type belongs. */
export const OTHER_TYPES: unknown[] = [null, true, false, [], [1], {}, { a: 1 }, '1', 1, 'x'];

/** A value that does not belong where it is put (usually). */
export const weirdJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...EDGE_NUMBERS),
  fc.constantFrom(...NUMERIC_LOOKING_TEXT),
  fc.constantFrom(...NASTY_TEXT),
  fc.constantFrom(...LONG_TEXT),
  fc.constantFrom(...OTHER_TYPES),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: true }),
);

/** A querystring or form value that does not belong where it is put (usually). */
export const weirdText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NUMERIC_LOOKING_TEXT),
  fc.constantFrom(...NASTY_TEXT),
  fc.constantFrom(...LONG_TEXT.slice(0, 3)),
  fc.constantFrom(...EDGE_NUMBERS.map(String)),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

/** Bodies that are not JSON, or not quite. */
export const MALFORMED_JSON = [
  '{',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}}',
  '[1,2',
  'nul',
  '{"a":01}',
  '{"a":"\\x41"}',
  '\uFEFF{}',
  '{"a":NaN}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
];

/** A raw JSON number text that JSON.parse reads as Infinity (or 0, or a rounded integer). */
const RAW_NUMBERS = ['1e309', '-1e309', '1e-400', '123456789012345678901234567890', '-0'];
const RAW_SENTINEL = '"__kisht_raw_number__"';

type TJsonBody = Extract<TOperation['body'], { kind: 'json' }>;

/** Options that say how to reach deeper: real ids of the actor's data by field name. */
export type TFuzzContext = { realValues: Record<string, fc.Arbitrary<unknown>> };

const queryString = (values: [string, string][]) => {
  const search = new URLSearchParams(values);
  return search.size > 0 ? `?${search}` : '';
};

/** The operation's query as [name, text] pairs, valid per its schema (hints and real ids mixed in). */
const validQuery = (operation: TOperation, context: TFuzzContext): fc.Arbitrary<[string, string][]> =>
  fc
    .tuple(
      ...operation.query.map((p) => {
        const value = validArbitrary(p.schema, context.realValues, p.name).map((v) => String(v));
        return p.required
          ? value.map((v) => [v])
          : fc.option(
              value.map((v) => [v]),
              { nil: [] as string[] },
            );
      }),
    )
    .map((values) =>
      values.flatMap((v, i) => v.map((text) => [operation.query[i]!.name, text] as [string, string])),
    );

/** Whether the query pairs satisfy the schema (a repeated scalar parameter does not). */
const queryConforms = (operation: TOperation, pairs: [string, string][]) =>
  operation.query.every((p) => {
    const values = pairs.filter(([name]) => name === p.name).map(([, v]) => v);
    if (values.length === 0) return !p.required;
    if (values.length > 1) return p.schema.type === 'array' && conforms(p.schema, values, 'text');
    return conforms(p.schema, values[0], 'text');
  });

/** Query mutations: a bad value, a missing required parameter, a repeated one, an unknown one, bad escapes. */
const queryCases = (
  operation: TOperation,
  context: TFuzzContext,
): fc.Arbitrary<{ label: string; query: string; known: boolean | null }> => {
  const valid = validQuery(operation, context);
  const names = operation.query.map((p) => p.name);
  const options: fc.Arbitrary<{ label: string; query: string; known: boolean | null }>[] = [
    valid.map((pairs) => ({
      label: 'valid',
      query: queryString(pairs),
      known: queryConforms(operation, pairs),
    })),
    fc.tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), weirdText).map(([pairs, name, text]) => {
      const next = [...pairs, [name, text] as [string, string]];
      return {
        label: `extra parameter ${name}`,
        query: queryString(next),
        known: queryConforms(operation, next),
      };
    }),
  ];
  if (names.length > 0) {
    options.push(
      fc.tuple(valid, fc.constantFrom(...names), weirdText).map(([pairs, name, text]) => {
        const next = [...pairs.filter(([n]) => n !== name), [name, text] as [string, string]];
        return {
          label: `${name}=${JSON.stringify(text).slice(0, 40)}`,
          query: queryString(next),
          known: queryConforms(operation, next),
        };
      }),
      fc.tuple(valid, fc.constantFrom(...names), weirdText).map(([pairs, name, text]) => {
        const next = [...pairs, [name, text] as [string, string], [name, '1'] as [string, string]];
        return { label: `${name} repeated`, query: queryString(next), known: queryConforms(operation, next) };
      }),
      fc
        .tuple(
          valid,
          fc.constantFrom(...names),
          fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '%00', '%uD800'),
        )
        .map(([pairs, name, raw]) => {
          const rest = queryString(pairs.filter(([n]) => n !== name));
          return {
            label: `${name} with the raw escape ${raw}`,
            query: `${rest ? `${rest}&` : '?'}${name}=${raw}`,
            known: null,
          };
        }),
    );
  }
  const required = operation.query.filter((p) => p.required).map((p) => p.name);
  if (required.length > 0) {
    options.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([pairs, name]) => ({
        label: `without ${name}`,
        query: queryString(pairs.filter(([n]) => n !== name)),
        known: false,
      })),
    );
  }
  return fc.oneof(...options);
};

/** Every path to a property of the body schema, nested objects included. */
const propertyPaths = (schema: TJsonSchema, prefix: string[] = []): string[][] =>
  Object.entries(schema.properties ?? {}).flatMap(([name, s]) => [
    [...prefix, name],
    ...(s.type === 'object' ? propertyPaths(s, [...prefix, name]) : []),
  ]);

/** A copy of `value` (an object, or {} when it is not one) with `next` at `path`. */
export const setPath = (value: unknown, path: string[], next: unknown): unknown => {
  const copy: Record<string, unknown> =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {};
  const [head, ...rest] = path;
  copy[head!] = rest.length === 0 ? next : setPath(copy[head!], rest, next);
  return copy;
};

const deletePath = (value: unknown, path: string[]): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  const [head, ...rest] = path;
  if (rest.length === 0) delete copy[head!];
  else copy[head!] = deletePath(copy[head!], rest);
  return copy;
};

/** JSON body mutations, each as the text sent and what the parsed value is. */
const jsonCases = (
  body: TJsonBody,
  context: TFuzzContext,
): fc.Arbitrary<{ label: string; text: string; known: boolean | null }> => {
  const valid = validArbitrary(body.schema, context.realValues);
  const structured = (label: string, value: fc.Arbitrary<unknown>) =>
    value.map((v) => ({ label, text: JSON.stringify(v) ?? 'null', known: conforms(body.schema, v) }));
  const paths = propertyPaths(body.schema);
  const required = (body.schema.required ?? []).map((name) => [name]);
  const options: fc.Arbitrary<{ label: string; text: string; known: boolean | null }>[] = [
    structured('valid', valid),
    fc.tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), weirdJsonValue).map(([v, name, extra]) => {
      const next = setPath(v, [name], extra);
      return { label: `extra field ${name}`, text: JSON.stringify(next), known: conforms(body.schema, next) };
    }),
    fc.constantFrom<unknown>([], 'text', 42, null, true, [{}]).map((v) => ({
      label: `body ${JSON.stringify(v)}`,
      text: JSON.stringify(v),
      known: conforms(body.schema, v),
    })),
    fc.constantFrom(...MALFORMED_JSON).map((text) => {
      let parsed: unknown;
      let parses = true;
      try {
        parsed = JSON.parse(text);
      } catch {
        parses = false;
      }
      // Fastify's parser (secure-json-parse) refuses prototype keys and skips a byte order mark,
      // whatever JSON.parse makes of them: no verdict on those.
      const lenient = text.includes('__proto__') || text.includes('constructor') || text.startsWith('\uFEFF');
      const known = lenient ? null : parses ? conforms(body.schema, parsed) : false;
      return { label: `malformed JSON ${text}`, text, known };
    }),
  ];
  if (paths.length > 0) {
    options.push(
      fc.tuple(valid, fc.constantFrom(...paths), weirdJsonValue).map(([v, path, weird]) => {
        const next = setPath(v, path, weird);
        return {
          label: `${path.join('.')}=${(JSON.stringify(weird) ?? 'undefined').slice(0, 40)}`,
          text: JSON.stringify(next),
          known: conforms(body.schema, next),
        };
      }),
      fc.tuple(valid, fc.constantFrom(...paths), fc.constantFrom(...RAW_NUMBERS)).map(([v, path, raw]) => {
        const text = JSON.stringify(setPath(v, path, '__kisht_raw_number__')).replace(RAW_SENTINEL, raw);
        return {
          label: `${path.join('.')}=${raw} (raw JSON)`,
          text,
          known: conforms(body.schema, JSON.parse(text)),
        };
      }),
    );
  }
  if (required.length > 0) {
    options.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([v, path]) => {
        const next = deletePath(v, path);
        return {
          label: `without ${path.join('.')}`,
          text: JSON.stringify(next),
          known: conforms(body.schema, next),
        };
      }),
    );
  }
  return fc.oneof(...options);
};

/** Content types that are not the JSON the route takes. */
const OTHER_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/json; charset=utf-16',
];

const CRLF = '\r\n';

/** A multipart/form-data body: text fields, then files, with a boundary; bytes as sent. */
export const multipartBody = (
  boundary: string,
  fields: [string, string][],
  files: { field: string; name: string; type: string; bytes: Uint8Array }[],
): Buffer => {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(
      Buffer.from(
        `--${boundary}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`,
      ),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}${CRLF}Content-Disposition: form-data; name="${file.field}"; filename="${file.name}"${CRLF}Content-Type: ${file.type}${CRLF}${CRLF}`,
      ),
      Buffer.from(file.bytes),
      Buffer.from(CRLF),
    );
  }
  parts.push(Buffer.from(`--${boundary}--${CRLF}`));
  return Buffer.concat(parts);
};

/** Files an upload may carry: real images and a PDF, and bytes that are none of them. */
export type TUploadFile = { name: string; type: string; bytes: Uint8Array };

/** Multipart mutations: bad fields, no file, two files, a file in another field, cut-off or boundary-less bodies. */
const multipartCases = (
  schema: TJsonSchema,
  files: TUploadFile[],
  context: TFuzzContext,
  isFileOptional = false,
): fc.Arbitrary<{ label: string; contentType: string; body: Buffer; known: boolean | null }> => {
  const boundary = '----kishtfuzz7MA4YWxkTrZu0gW';
  const contentType = `multipart/form-data; boundary=${boundary}`;
  const names = Object.keys(schema.properties ?? {});
  const validFields = validArbitrary(schema, context.realValues).map((v) =>
    Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x)] as [string, string]),
  );
  const file = fc.constantFrom(...files);
  // An upload without text fields (an own signature) has no field to mutate: those cases are left out.
  const fieldName = fc.constantFrom(...(names.length > 0 ? names : ['']));
  const ifFields = <T>(arbitrary: () => T): T[] => (names.length > 0 ? [arbitrary()] : []);
  const fieldsConform = (fields: [string, string][]) => {
    const names = fields.map(([n]) => n);
    if (new Set(names).size !== names.length) return null;
    return conforms(schema, Object.fromEntries(fields), 'text');
  };
  const options = [
    fc.tuple(validFields, file).map(([fields, f]) => ({
      label: `valid fields, ${f.name}`,
      contentType,
      body: multipartBody(boundary, fields, [{ field: 'file', ...f }]),
      known: fieldsConform(fields) === false ? false : null,
    })),
    ...ifFields(() =>
      fc.tuple(validFields, fieldName, weirdText, file).map(([fields, name, text, f]) => {
        const next = [...fields.filter(([n]) => n !== name), [name, text] as [string, string]];
        return {
          label: `${name}=${JSON.stringify(text).slice(0, 40)}`,
          contentType,
          body: multipartBody(boundary, next, [{ field: 'file', ...f }]),
          known: fieldsConform(next) === false ? false : null,
        };
      }),
    ),
    ...ifFields(() =>
      fc.tuple(validFields, fieldName, file).map(([fields, name, f]) => {
        const next = fields.filter(([n]) => n !== name);
        const required = (schema.required ?? []).includes(name);
        return {
          label: `without ${name}`,
          contentType,
          body: multipartBody(boundary, next, [{ field: 'file', ...f }]),
          known: required ? false : null,
        };
      }),
    ),
    validFields.map((fields) => ({
      label: 'no file',
      contentType,
      body: multipartBody(boundary, fields, []),
      // An upload whose file may be left out (OPTIONAL_FILE_UPLOADS) takes it without one.
      known: isFileOptional ? null : false,
    })),
    fc.tuple(validFields, file, file).map(([fields, a, b]) => ({
      label: 'two files',
      contentType,
      body: multipartBody(boundary, fields, [
        { field: 'file', ...a },
        { field: 'file', ...b },
      ]),
      known: false,
    })),
    fc
      .tuple(validFields, file, fc.constantFrom('photo', 'files[]', '__proto__', ''))
      .map(([fields, f, field]) => ({
        label: `file in field "${field}"`,
        contentType,
        body: multipartBody(boundary, fields, [{ field, ...f }]),
        known: false,
      })),
    fc.tuple(validFields, file, fc.double({ min: 0, max: 0.98, noNaN: true })).map(([fields, f, at]) => {
      const whole = multipartBody(boundary, fields, [{ field: 'file', ...f }]);
      // Cut before the closing boundary, anywhere from the first byte on.
      const cut = Math.floor(at * (whole.length - boundary.length - 8));
      return {
        label: `cut off after ${cut} of ${whole.length} bytes`,
        contentType,
        body: whole.subarray(0, cut),
        known: false,
      };
    }),
    fc
      .tuple(
        validFields,
        file,
        fc.constantFrom(
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/form-data; boundary=other',
        ),
      )
      .map(([fields, f, type]) => ({
        label: `content type "${type}"`,
        contentType: type,
        body: multipartBody(boundary, fields, [{ field: 'file', ...f }]),
        known: false,
      })),
    ...ifFields(() =>
      fc.tuple(validFields, fieldName, file).map(([fields, name, f]) => {
        // Over the plugin's 1 kB field limit, which cuts the value short: still no valid value.
        const next = [...fields.filter(([n]) => n !== name), [name, '9'.repeat(5_000)] as [string, string]];
        return {
          label: `${name} over the 1 kB field limit`,
          contentType,
          body: multipartBody(boundary, next, [{ field: 'file', ...f }]),
          known: fieldsConform(next) === false ? false : null,
        };
      }),
    ),
    validFields.map((fields) => ({
      label: 'JSON instead of multipart',
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify(Object.fromEntries(fields))),
      known: false,
    })),
  ];
  return fc.oneof(...options);
};

/** Garbage in the Authorization header: none, malformed, unsigned or wrongly signed JWTs, another scheme. */
export const BAD_AUTHORIZATIONS = [
  undefined,
  'Bearer',
  'Bearer ',
  'Bearer x.y.z',
  'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxIiwianRpIjoiMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIn0.',
  'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLW5vdC12YWxpZA',
  'Basic YWRtaW46YWRtaW4=',
  `Bearer ${'a'.repeat(10_000)}`,
];

/**
 * The fuzz cases of one operation, as an arbitrary: querystring mutations for every operation,
 * and JSON or multipart body mutations and other content types where it takes a body. Requests
 * carry `authorization` (the actor's session, or none for public operations); the caller adds
 * the bad-authorization cases.
 */
export const operationCases = (
  operation: TOperation,
  authorization: string | undefined,
  context: TFuzzContext,
  files: TUploadFile[],
): fc.Arbitrary<TFuzzCase> => {
  const auth: Record<string, string> = authorization ? { authorization } : {};
  const query = queryCases(operation, context);
  const validQueryText = validQuery(operation, context).map((pairs) => ({
    query: queryString(pairs),
    known: queryConforms(operation, pairs),
  }));
  const verdict = (...known: (boolean | null)[]): TFuzzCase['expect'] =>
    known.some((k) => k === false) ? 'invalid' : 'maybe';
  const options: fc.WeightedArbitrary<TFuzzCase>[] = [];
  const add = (arbitrary: fc.Arbitrary<TFuzzCase>, weight = 1) => options.push({ arbitrary, weight });
  const body = operation.body;
  if (operation.method === 'GET') {
    add(
      query.map((q) => ({
        label: q.label,
        expect: verdict(q.known),
        method: operation.method,
        url: `${operation.path}${q.query}`,
        headers: auth,
      })),
    );
  } else if (!body) {
    // No body to speak of (logout, financer_list): the query, and bodies nobody asked for.
    add(
      query.map((q) => ({
        label: q.label,
        expect: verdict(q.known),
        method: operation.method,
        url: `${operation.path}${q.query}`,
        headers: auth,
      })),
    );
    add(
      fc.tuple(validQueryText, fc.constantFrom(...MALFORMED_JSON.slice(0, 8))).map(([q, text]) => ({
        label: `unasked malformed JSON ${text}`,
        expect: 'invalid' as const,
        method: operation.method,
        url: `${operation.path}${q.query}`,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: text,
      })),
    );
  } else if (body.kind === 'json') {
    add(
      fc.tuple(validQueryText, jsonCases(body, context)).map(([q, b]) => ({
        label: b.label,
        expect: verdict(q.known, b.known),
        method: operation.method,
        url: `${operation.path}${q.query}`,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: b.text,
      })),
      6,
    );
    add(
      fc
        .tuple(
          validQueryText,
          validArbitrary(body.schema, context.realValues),
          fc.constantFrom(...OTHER_CONTENT_TYPES),
        )
        .map(([q, v, type]) => ({
          label: `content type ${type}`,
          // No parser for these (415), and text/plain reaches the schema as a string, never the
          // object a required body is. A charset on JSON is read as UTF-8 anyway.
          expect:
            type.startsWith('application/json') || (type === 'text/plain' && !body.required)
              ? ('maybe' as const)
              : ('invalid' as const),
          method: operation.method,
          url: `${operation.path}${q.query}`,
          headers: { ...auth, 'content-type': type },
          payload: JSON.stringify(v),
        })),
    );
    if (operation.query.length > 0) {
      add(
        fc.tuple(query, validArbitrary(body.schema, context.realValues)).map(([q, v]) => ({
          label: `query ${q.label}`,
          expect: verdict(q.known, conforms(body.schema, v)),
          method: operation.method,
          url: `${operation.path}${q.query}`,
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify(v),
        })),
      );
    }
  } else {
    add(
      multipartCases(body.schema, files, context, OPTIONAL_FILE_UPLOADS.has(operation.key)).map((m) => ({
        label: m.label,
        expect: m.known === false ? ('invalid' as const) : ('maybe' as const),
        method: operation.method,
        url: operation.path,
        headers: { ...auth, 'content-type': m.contentType },
        payload: m.body,
      })),
    );
  }
  return fc.oneof(...options);
};
