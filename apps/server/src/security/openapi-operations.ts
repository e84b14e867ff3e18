import { ZAdvertisementUploadFields } from '@kisht/domain/advertisements/advertisements.schema';
import { ID_MAX } from '@kisht/domain/common/identifiers';
import {
  ZCustomerDocumentUploadFields,
  ZCustomerImageUploadFields,
  ZSignatureUploadFields,
} from '@kisht/domain/media/media.schema';
import { paths } from '@kisht/domain/paths';
import {
  ZProfileImageUploadFields,
  ZUserSignatureUploadFields,
} from '@kisht/domain/retailers/retailers.schema';
import { ZPaymentQrImageUploadFields } from '@kisht/domain/users/payment-qr.schema';
import { z } from 'zod';
import type { KishtApp } from '../app';
import type { TJsonSchema } from './json-schema';

/** One parameter of an operation: a querystring parameter or a top-level field of its body. */
export type TParameter = { name: string; required: boolean; schema: TJsonSchema };

/**
 * One operation of the OpenAPI document, as the security suites drive it. `body` is the JSON body
 * (an object schema) or the text fields of a multipart upload (besides its one `file`).
 */
export type TOperation = {
  /** `METHOD /path`, the name the suites report. */
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query: TParameter[];
  body:
    | { kind: 'json'; required: boolean; schema: TJsonSchema }
    | { kind: 'multipart'; schema: TJsonSchema }
    | null;
};

/**
 * The text fields of the upload routes. The OpenAPI document cannot describe a multipart body
 * read in the handler (@fastify/swagger drops `consumes`), so they come from the same domain
 * schemas the routes read them with. `findUploadRoutes` fails a suite when a route takes multipart
 * without an entry here, or when an entry's fields differ from what the route asks for.
 */
export const UPLOAD_FIELDS: Record<string, z.ZodObject> = {
  [`POST ${paths.customers.uploadImage}`]: ZCustomerImageUploadFields,
  [`POST ${paths.customers.documents}`]: ZCustomerDocumentUploadFields,
  [`POST ${paths.customers.signature}`]: ZSignatureUploadFields,
  [`POST ${paths.users.profileImage}`]: ZProfileImageUploadFields,
  [`POST ${paths.users.signature}`]: ZUserSignatureUploadFields,
  [`POST ${paths.users.paymentQrImage}`]: ZPaymentQrImageUploadFields,
  [`POST ${paths.advertisements.upload}`]: ZAdvertisementUploadFields,
};

/** Upload routes whose `file` may be left out (an advertisement without an image, issue 16). */
export const OPTIONAL_FILE_UPLOADS = new Set<string>([`POST ${paths.advertisements.upload}`]);

const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

type TOpenApiOperation = {
  parameters?: { in: string; name: string; required?: boolean; schema?: TJsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: TJsonSchema }> };
};

/**
 * Every operation of the app's OpenAPI document (`app.swagger()`, after ready) except the
 * document's own pages under /docs and the partner API's (paths.partner.prefix), in document order. Upload routes named in UPLOAD_FIELDS get
 * their multipart fields as `body`.
 */
export const listOperations = (app: KishtApp): TOperation[] => {
  const document = app.swagger() as { paths: Record<string, Record<string, TOpenApiOperation>> };
  const operations: TOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    if (path === paths.docs || path.startsWith(`${paths.docs}/`)) continue;
    // The partner API is behind an API key, not a session, and takes path parameters: its own tests
    // (modules/partner-api) check every route's 401, 403, 404 for another organisation and 400.
    if (path.startsWith(paths.partner.prefix)) continue;
    for (const [method, spec] of Object.entries(methods)) {
      const upper = method.toUpperCase() as TOperation['method'];
      if (!METHODS.has(upper)) continue; // HEAD (and OPTIONS) mirror another method
      const key = `${upper} ${path}`;
      const query = (spec.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} }));
      const unsupported = (spec.parameters ?? []).filter((p) => p.in !== 'query' && p.in !== 'header');
      if (unsupported.length > 0) {
        throw new Error(
          `${key} takes ${unsupported.map((p) => `${p.in} parameter ${p.name}`).join(', ')}: ` +
            'teach security/openapi-operations.ts to send it',
        );
      }
      const json = spec.requestBody?.content?.['application/json']?.schema;
      const upload = UPLOAD_FIELDS[key];
      const body: TOperation['body'] = json
        ? { kind: 'json', required: spec.requestBody?.required === true, schema: json }
        : upload
          ? { kind: 'multipart', schema: z.toJSONSchema(upload, { io: 'output' }) as TJsonSchema }
          : null;
      operations.push({ key, method: upper, path, query, body });
    }
  }
  return operations;
};

/** An id's shape in the document: the shared ZId (integer up to ID_MAX) or a UUID. */
const hasIdShape = (schema: TJsonSchema): boolean =>
  ((schema.type === 'integer' || schema.type === 'number') && schema.maximum === ID_MAX) ||
  schema.format === 'uuid';

/** Names that say "id" however they are spelled: customer_id, emi_ids, orgId, productId. */
const ID_NAME = /(^|_)ids?$|[a-z]Ids?$/;

/**
 * Parameters that name a stored object without looking like an id: the media route's
 * image_name is a stored file's path, `<organisation id>/<kind>/<uuid>.<ext>`.
 */
export const REFERENCE_NAMES = new Set(['image_name']);

/**
 * Names that end in "Id" without naming a stored object: a UPI ID is a payment address (VPA); the
 * gateway's payment id in a checkout callback is signed data, never looked up (the order id is).
 */
const NOT_ID_NAMES = new Set(['upiId', 'razorpay_payment_id']);

/** Where an id travels, its field path (`customer_ids`, `address.x_id`), and whether it is a list. */
export type TIdParameter = { in: 'query' | 'body'; path: string[]; name: string; isList: boolean };

/**
 * Every parameter of `operation` that names a stored object: by shape (ZId, UUID), by name
 * (`*_id`, `*Id`, `*_ids`, `*Ids`) or as a known reference (REFERENCE_NAMES), in the query, the
 * body or nested body objects, alone or as a list.
 */
export const idParameters = (operation: TOperation): TIdParameter[] => {
  const found: TIdParameter[] = [];
  const isId = (name: string, schema: TJsonSchema) =>
    !NOT_ID_NAMES.has(name) && (hasIdShape(schema) || ID_NAME.test(name) || REFERENCE_NAMES.has(name));
  for (const parameter of operation.query) {
    const list = parameter.schema.type === 'array' && parameter.schema.items;
    if (isId(parameter.name, list ? parameter.schema.items! : parameter.schema)) {
      found.push({ in: 'query', path: [parameter.name], name: parameter.name, isList: Boolean(list) });
    }
  }
  const walk = (schema: TJsonSchema, prefix: string[]) => {
    for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
      walk(variant, prefix);
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const list = property.type === 'array' && property.items ? property.items : null;
      if (isId(name, list ?? property)) {
        found.push({ in: 'body', path: [...prefix, name], name, isList: list !== null });
      } else {
        walk(list ?? property, [...prefix, name]);
      }
    }
  };
  if (operation.body) walk(operation.body.schema, []);
  return found;
};

/** A multipart body with one text field and no file, to ask a route what it takes. */
const emptyMultipart = () => {
  const boundary = 'kisht-probe-boundary';
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="probe"\r\n\r\n1\r\n--${boundary}--\r\n`,
  };
};

/**
 * Checks UPLOAD_FIELDS against the app: sends every POST and PUT operation without a JSON body an
 * empty multipart form with `token`'s session. A route that parses it (anything but 415: Fastify has
 * no multipart parser outside the media routes, so no handler runs) is an upload route; its 400
 * names the fields it asks for, which must be the entry's fields and `file`. Returns the problems,
 * one sentence each; none when the table and the routes agree.
 */
export const checkUploadRoutes = async (
  app: KishtApp,
  operations: TOperation[],
  headers: Record<string, string>,
): Promise<string[]> => {
  const problems: string[] = [];
  for (const operation of operations) {
    if (operation.method === 'GET' || operation.body?.kind === 'json') continue;
    const probe = emptyMultipart();
    const response = await app.inject({
      method: operation.method,
      url: operation.path,
      headers: { ...headers, ...probe.headers },
      payload: probe.payload,
    });
    const known = UPLOAD_FIELDS[operation.key];
    if (response.statusCode === 415) {
      if (known) problems.push(`${operation.key} is in UPLOAD_FIELDS but refuses multipart (415)`);
      continue;
    }
    if (!known) {
      problems.push(
        `${operation.key} accepts multipart/form-data (answered ${response.statusCode} to an empty form) ` +
          'but UPLOAD_FIELDS does not say which fields it takes: add its domain schema there',
      );
      continue;
    }
    const asked = new Set(
      ((response.json() as { fields?: { field: string }[] }).fields ?? []).map((f) => f.field),
    );
    const expected = new Set([
      ...Object.keys(known.shape).filter((k) => !known.shape[k]!.safeParse(undefined).success),
      ...(OPTIONAL_FILE_UPLOADS.has(operation.key) ? [] : ['file']),
    ]);
    const same = asked.size === expected.size && [...asked].every((f) => expected.has(f));
    if (!same) {
      problems.push(
        `${operation.key} asks for [${[...asked].join(', ')}] but UPLOAD_FIELDS says [${[...expected].join(', ')}]`,
      );
    }
  }
  return problems;
};
