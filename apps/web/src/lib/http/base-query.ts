import type { TFieldError } from '@kisht/domain/common/envelope';
import { AppErrorCode } from '@kisht/domain/common/errors';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { fetchBaseQuery } from '@reduxjs/toolkit/query';
import { clearAllStorage } from '../auth-storage';
import { currentUserAgent } from '../user-agent';
import { buildClientHeaders } from './client-headers';

/** Spec §8: HTTP 511 from any call means the session is gone. */
export const SESSION_GONE_STATUS = 511;
/** Spec §8 fallback when neither the error nor its data carries a message. */
export const DEFAULT_ERROR_MESSAGE = 'Something went wrong';

/** The one error shape every endpoint rejects with. */
export type TApiError = {
  /** HTTP status, or fetchBaseQuery's FETCH_ERROR / PARSING_ERROR / TIMEOUT_ERROR. */
  status: number | 'FETCH_ERROR' | 'PARSING_ERROR' | 'TIMEOUT_ERROR' | 'CUSTOM_ERROR';
  /** What to show the person (spec §8 rules), never empty. */
  message: string;
  /** Stable AppErrorCode from the server, when it sent one. */
  code: string | null;
  /** Failing fields of a validation error, empty otherwise. */
  fields: TFieldError[];
};

/** Whether a mutation's or query's error is the base query's TApiError (not a thrown one). */
export const isApiError = (error: unknown): error is TApiError =>
  typeof error === 'object' && error !== null && 'status' in error && 'message' in error && 'fields' in error;

export type TBaseQuery = BaseQueryFn<string | FetchArgs, unknown, TApiError, object, FetchBaseQueryMeta>;

/**
 * The response handler of file exports (CSV): a JSON body (the failure envelope) is parsed, any
 * other body is kept as text. The base query resolves such a request to the file's text.
 */
export const FILE_RESPONSE_HANDLER = 'content-type';

/**
 * A file export request (a CSV download) for an endpoint's `query`: it goes through the same base
 * query as every API call (same base URL, same spec §7 headers, same 511 and error handling) and
 * resolves to the file's text instead of an envelope's data. `accept` names the file type wanted.
 */
export const fileRequest = (
  url: string,
  params: Record<string, string | number | undefined>,
  accept = 'text/csv, application/json',
): FetchArgs => ({ url, params, responseHandler: FILE_RESPONSE_HANDLER, headers: { accept } });

/**
 * The response handler of stored files (media bytes): a JSON body (the failure envelope) is
 * parsed, any other body is read as a Blob. The base query resolves such a request to the Blob.
 */
export const BLOB_RESPONSE_HANDLER = async (response: Response): Promise<unknown> => {
  const contentType = response.headers.get('content-type') ?? '';
  return contentType.includes('application/json') ? response.json() : response.blob();
};

/**
 * A stored file request (a customer photo, a document) for a direct base-query call: same base
 * URL, same spec §7 headers, same 511 and error handling as every API call, resolving to the
 * file's Blob. Not for RTK Query endpoints: a Blob does not belong in the store.
 */
export const blobRequest = (url: string, params: Record<string, string | number | undefined>): FetchArgs => ({
  url,
  params,
  responseHandler: BLOB_RESPONSE_HANDLER,
  headers: { accept: '*/*' },
});

/** What a request needs from the app's state: where to send it and how to sign it (spec §7). */
export type TRequestContext = {
  /** API base URL (the org config's apiBaseUrl); '' for the app's own origin. */
  baseUrl: string;
  /** The organisation the request token is derived from. */
  orgId: number;
  /** The request-token secret (app config); null until loaded, and then no request-token is sent. */
  requestTokenSecret: string | null;
};

export type TBaseQueryOptions = {
  /** Reads the request context from the store at the time of each call. */
  getContext: (getState: () => unknown) => TRequestContext;
  /** Where the token and device details live and what is cleared on 511; localStorage by default. */
  storage?: () => Storage;
  /** The user agent the browser headers are read from; navigator.userAgent by default. */
  userAgent?: () => string;
  /** Called after storage is cleared on 511; the app navigates to /login. */
  onSessionGone?: () => void;
  /** The generic failure message, translated by the app; DEFAULT_ERROR_MESSAGE otherwise. */
  fallbackMessage?: () => string;
  /** The message when the network fails (no answer at all), translated by the app; the fallback otherwise. */
  offlineMessage?: () => string;
  /**
   * The message of an error `code` the server sent, in the user's language, or null to show the
   * server's own message (issue 28); none by default.
   */
  codeMessage?: (code: string) => string | null;
  /** The fetch to use; tests pass a fake network here. */
  fetchFn?: typeof fetch;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** A Blob from any realm (the test environment's fetch makes Node's, not the DOM's). */
const isBlob = (value: unknown): value is Blob =>
  isRecord(value) && typeof value.arrayBuffer === 'function' && typeof value.size === 'number';

const nonEmptyString = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

/** Spec §8: the error's message, else its data's message. */
const readMessage = (body: unknown): string | null => {
  if (!isRecord(body)) return null;
  return nonEmptyString(body.message) ?? (isRecord(body.data) ? nonEmptyString(body.data.message) : null);
};

const readFields = (body: unknown): TFieldError[] => {
  if (!isRecord(body) || !Array.isArray(body.fields)) return [];
  return body.fields.filter(
    (f): f is TFieldError => isRecord(f) && typeof f.field === 'string' && typeof f.message === 'string',
  );
};

/** FetchArgs headers in any of their shapes, as Headers (undefined values dropped). */
const toHeaders = (given: FetchArgs['headers']): Headers => {
  const headers = new Headers();
  if (given instanceof Headers) {
    given.forEach((value, name) => {
      headers.set(name, value);
    });
  } else if (Array.isArray(given)) {
    for (const [name, value] of given) if (name && value !== undefined) headers.set(name, value);
  } else if (given) {
    for (const [name, value] of Object.entries(given)) if (value !== undefined) headers.set(name, value);
  }
  return headers;
};

const ABSOLUTE_URL = /^[a-z][a-z\d+.-]*:\/\//i;

/** The absolute URL of a request: `url` under `baseUrl`, or under the app's origin when baseUrl is ''. */
export const resolveRequestUrl = (baseUrl: string, url: string): string => {
  if (ABSOLUTE_URL.test(url)) return url;
  const base = (baseUrl || window.location.origin).replace(/\/+$/, '');
  return `${base}/${url.replace(/^\/+/, '')}`;
};

/**
 * The base query of the one RTK Query api (design §3). It wraps fetchBaseQuery so that it knows
 * each request's URL: it sends the call to the org config's API base URL and adds every header of
 * spec §7 (see buildClientHeaders: bearer token, platform, device details, browser and device, an
 * auth-session made for the request's pathname and the request token). It unwraps the
 * `{ response, message, data }` envelope to `data`, and turns every failure into a TApiError. A failure is raised when the status
 * is 400 or `response` is 'failure' (spec §8), and for any other non-2xx status or network error.
 * On 511 it clears all local storage and calls onSessionGone (spec §8). A file request
 * (fileRequest) that succeeds with a non-JSON body resolves to that body's text, a blob request
 * (blobRequest) to its Blob.
 */
export const createBaseQuery = (options: TBaseQueryOptions): TBaseQuery => {
  const storage = options.storage ?? (() => window.localStorage);
  const userAgent = options.userAgent ?? currentUserAgent;
  const fallbackMessage = options.fallbackMessage ?? (() => DEFAULT_ERROR_MESSAGE);
  const offlineMessage = options.offlineMessage ?? fallbackMessage;
  // The URL handed to it is already absolute (resolveRequestUrl), so it needs no baseUrl.
  const rawBaseQuery = fetchBaseQuery(options.fetchFn ? { fetchFn: options.fetchFn } : {});

  /** The request with its absolute URL and the spec §7 headers added. */
  const prepareRequest = async (args: string | FetchArgs, getState: () => unknown): Promise<FetchArgs> => {
    const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
    const context = options.getContext(getState);
    const url = resolveRequestUrl(context.baseUrl, request.url);
    const clientHeaders = await buildClientHeaders({
      path: new URL(url).pathname,
      orgId: context.orgId,
      requestTokenSecret: context.requestTokenSecret,
      storage: storage(),
      userAgent: userAgent(),
    });
    const headers = toHeaders(request.headers);
    for (const [name, value] of Object.entries(clientHeaders)) headers.set(name, value);
    return { ...request, url, headers };
  };

  const fail = (status: TApiError['status'], body: unknown, meta: FetchBaseQueryMeta | undefined) => {
    const code = isRecord(body) ? nonEmptyString(body.code) : null;
    const translated = code === null ? null : (options.codeMessage?.(code) ?? null);
    const fields = readFields(body);
    return {
      error: {
        status,
        message:
          translated ??
          readMessage(body) ??
          (status === 'FETCH_ERROR' ? offlineMessage() : fallbackMessage()),
        code,
        // The fields of any other error repeat its reason, so they take its translation too; a
        // validation failure's each say what is wrong with that field, in the server's words.
        fields:
          translated === null || code === AppErrorCode.VALIDATION_FAILED
            ? fields
            : fields.map((field) => ({ ...field, message: translated })),
      },
      ...(meta ? { meta } : {}),
    };
  };

  return async (args, api, extraOptions) => {
    let request: FetchArgs;
    try {
      request = await prepareRequest(args, api.getState);
    } catch {
      // A header the browser refuses, or no Web Crypto: fail like a network error, never throw.
      return fail('CUSTOM_ERROR', null, undefined);
    }
    const result = await rawBaseQuery(request, api, extraOptions);
    const httpStatus = result.meta?.response?.status;

    if (httpStatus === SESSION_GONE_STATUS) {
      clearAllStorage(storage());
      options.onSessionGone?.();
      return fail(SESSION_GONE_STATUS, result.error?.data, result.meta);
    }
    if (result.error) {
      return fail(result.error.status, result.error.data, result.meta);
    }
    const body = result.data;
    const isFileRequest = typeof args !== 'string' && args.responseHandler === FILE_RESPONSE_HANDLER;
    if (isFileRequest && httpStatus !== 400 && typeof body === 'string') {
      return { data: body, ...(result.meta ? { meta: result.meta } : {}) };
    }
    const isBlobRequest = typeof args !== 'string' && args.responseHandler === BLOB_RESPONSE_HANDLER;
    if (isBlobRequest && httpStatus !== 400 && isBlob(body)) {
      return { data: body, ...(result.meta ? { meta: result.meta } : {}) };
    }
    if (httpStatus === 400 || !isRecord(body) || body.response !== 'success') {
      return fail(httpStatus ?? 'PARSING_ERROR', body, result.meta);
    }
    return { data: body.data, ...(result.meta ? { meta: result.meta } : {}) };
  };
};
