import { zEnvelope } from '@kisht/domain/common/envelope';
import type { TRouteContract } from '@kisht/domain/contract/define';
import type { z } from 'zod';

/** `METHOD path` of every route registered through contractRoute (contract.test.ts reads it). */
export const ROUTES_FROM_CONTRACT = new Set<string>();

/** What a route's OpenAPI entry says besides its schemas (/docs). */
export type TRouteDocs = {
  tags: string[];
  summary: string;
  description?: string;
  /** Content types of a multipart upload. */
  consumes?: string[];
  /** Content types of a download. */
  produces?: string[];
  hide?: boolean;
};

/** The Fastify schema of a contract route, typed for the zod type provider. */
type TContractSchema<C extends TRouteContract> = TRouteDocs & {
  querystring: C['query'];
  params: C['params'];
  headers: C['headers'];
  body: C['body'] extends z.ZodType ? C['body'] : undefined;
  response: C['response'] extends z.ZodType
    ? { 200: ReturnType<typeof zEnvelope<C['response']>> }
    : undefined;
};

/**
 * The method, URL and schema Fastify registers a route of the wire contract with (domain
 * contract/, issue 28): the query, path parameters, headers and JSON body the contract names are checked
 * (400 naming the field), and a success is the envelope of the contract's response. A multipart
 * body is read by the handler; a download's answer is the file, a `protocol` route's what its
 * caller expects. Spread into `r.route({ …, handler })`.
 */
export const contractRoute = <const C extends TRouteContract>(
  contract: C,
  docs: TRouteDocs,
): { method: C['method']; url: string; schema: TContractSchema<C> } => {
  ROUTES_FROM_CONTRACT.add(`${contract.method} ${contract.path}`);
  const schema: Record<string, unknown> = { ...docs };
  if (contract.query) schema.querystring = contract.query;
  if (contract.params) schema.params = contract.params;
  if (contract.headers) schema.headers = contract.headers;
  if (contract.body && contract.body !== 'multipart') schema.body = contract.body;
  if (typeof contract.response !== 'string') schema.response = { 200: zEnvelope(contract.response) };
  return { method: contract.method, url: contract.path, schema: schema as TContractSchema<C> };
};
