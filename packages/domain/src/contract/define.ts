import type { z } from 'zod';

/** The HTTP methods of the API. */
export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route of the wire contract (design §3, issue 28): its method, path (domain `paths`; a
 * `:param` where the path has one) and schemas. The server registers the route from it
 * (apps/server/src/lib/contract-route.ts) and the web app types its call from it
 * (TContractBody, TContractQuery, TContractData), so both always agree.
 */
export type TRouteContract = {
  method: THttpMethod;
  path: string;
  /** The query string's schema. */
  query?: z.ZodType;
  /** The path parameters' schema (a path with `:name`). */
  params?: z.ZodType;
  /** The request headers' schema, where a route reads one of its own (a payment's Idempotency-Key). */
  headers?: z.ZodType;
  /** The JSON body's schema; a `multipart` body is a file upload the server reads itself. */
  body?: z.ZodType | 'multipart';
  /**
   * What a success answers: the schema of the envelope's `data` (spec §8 `{ response, message,
   * data }`); `file` for a download (CSV, an image, a PDF, an APK) sent as itself; `protocol` for a
   * route another system calls that answers in that system's own terms (a webhook's
   * acknowledgement, the MQTT broker's hooks, an Apple MDM check-in).
   */
  response: z.ZodType | 'file' | 'protocol';
};

/** Routes made alike, one per key (a page, a control feature): the same schemas, the path by key. */
export type TRouteGroup<C extends TRouteContract = TRouteContract> = {
  readonly group: Readonly<Record<string, C>>;
};

/** A module's routes, checked as TRouteContract and kept with their exact types; groups among them. */
export const defineRoutes = <const T extends Record<string, TRouteContract | TRouteGroup>>(routes: T): T =>
  routes;

/**
 * A group of routes made by `make` for each of `keys` (a route per page, or per control feature
 * where the path names it). `group[key]` is each one's contract; callers type their calls with
 * TGroupRoute<typeof group>.
 */
export const routeGroup = <const K extends string, C extends TRouteContract>(
  keys: readonly K[],
  make: (key: K) => C,
): { readonly group: Readonly<Record<K, C>> } => ({
  group: Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, C>,
});

/** The contract of each route of a group. */
export type TGroupRoute<G extends TRouteGroup> = G['group'][keyof G['group']];

/** Whether an entry of a module's routes is a group. */
export const isRouteGroup = (entry: TRouteContract | TRouteGroup): entry is TRouteGroup => 'group' in entry;

/** The body a route's caller sends (the schema's input), or void without one. */
export type TContractBody<C extends TRouteContract> = C['body'] extends z.ZodType
  ? z.input<C['body']>
  : C['body'] extends 'multipart'
    ? FormData
    : // biome-ignore lint/suspicious/noConfusingVoidType: RTK Query's endpoints take void for "no argument".
      void;

/** The query a route's caller sends (the schema's input), or void without one. */
export type TContractQuery<C extends TRouteContract> = C['query'] extends z.ZodType
  ? z.input<C['query']>
  : // biome-ignore lint/suspicious/noConfusingVoidType: RTK Query's endpoints take void for "no argument".
    void;

/** The headers a route's caller may send (the schema's input), or void without any. */
export type TContractHeaders<C extends TRouteContract> = C['headers'] extends z.ZodType
  ? z.input<C['headers']>
  : // biome-ignore lint/suspicious/noConfusingVoidType: as TContractBody's.
    void;

/** The envelope's `data` of a route's success (the schema's output); a download's text or bytes. */
export type TContractData<C extends TRouteContract> = C['response'] extends z.ZodType
  ? z.output<C['response']>
  : C['response'] extends 'file'
    ? string | Blob
    : unknown;
