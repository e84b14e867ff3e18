import type { BaseQueryApi, BaseQueryFn, FetchArgs, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { fetchBaseQuery } from '@reduxjs/toolkit/query';
import { clearAllStorage, getToken, getUserId, isStoredSession } from '../auth-storage';
import { currentUserAgent } from '../user-agent';
import { buildClientHeaders } from './client-headers';
import {
  apiErrorOf,
  DEFAULT_ERROR_MESSAGE,
  isRecord,
  resolveRequestUrl,
  SESSION_GONE_STATUS,
  type TApiError,
} from './envelope';
import type { TOfflineReadOptions, TOfflineReadStore } from './offline-reads';
import { clearOfflineReads, offlineReadKey } from './offline-reads';
import {
  freshReadFetched,
  savedReadServed,
  savedReadsForgotten,
  selectSavedReadTime,
} from './offline-reads-slice';

/** The message of a change refused offline, when the app gives no translation. */
export const DEFAULT_NEEDS_CONNECTION_MESSAGE = 'This needs a connection. Nothing was sent.';
/**
 * The `code` of a change (a mutation: a command, a payment, an edit) refused because the browser
 * is offline (issue 28): it was never sent, and nothing keeps it to send later.
 */
export const NEEDS_CONNECTION_CODE = 'NEEDS_CONNECTION';

// The envelope, its failures and the request URL are read as the sign-in screens' plain calls
// read them (envelope.ts); re-exported here for the rest of the app.
export type { TApiError } from './envelope';
export {
  apiErrorMessage,
  DEFAULT_ERROR_MESSAGE,
  isApiError,
  resolveRequestUrl,
  SESSION_GONE_STATUS,
} from './envelope';

/** What an endpoint may pass as `extraOptions` (offline-reads.ts READABLE_OFFLINE). */
export type TBaseQueryExtraOptions = TOfflineReadOptions;

export type TBaseQuery = BaseQueryFn<
  string | FetchArgs,
  unknown,
  TApiError,
  TBaseQueryExtraOptions,
  FetchBaseQueryMeta
>;

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
  /**
   * Where the answers of endpoints readable offline are saved and served from when the network does
   * not answer (offline-reads.ts); none by default, and then nothing is saved.
   */
  offlineReads?: TOfflineReadStore;
  /** Whether the browser says it has a network; navigator.onLine by default. */
  isOnline?: () => boolean;
  /** The message of a change refused offline, translated by the app; DEFAULT_NEEDS_CONNECTION_MESSAGE otherwise. */
  needsConnectionMessage?: () => string;
};

/** A Blob from any realm (the test environment's fetch makes Node's, not the DOM's). */
const isBlob = (value: unknown): value is Blob =>
  isRecord(value) && typeof value.arrayBuffer === 'function' && typeof value.size === 'number';

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

/**
 * The base query of the one RTK Query api (design §3). It wraps fetchBaseQuery so that it knows
 * each request's URL: it sends the call to the org config's API base URL and adds every header of
 * spec §7 (see buildClientHeaders: bearer token, platform, device details, browser and device, an
 * auth-session made for the request's pathname and the request token). It unwraps the
 * `{ response, message, data }` envelope to `data`, and turns every failure into a TApiError. A failure is raised when the status
 * is 400 or `response` is 'failure' (spec §8), and for any other non-2xx status or network error.
 * On 511 it clears all local storage and the saved reads and calls onSessionGone (spec §8). A file
 * request (fileRequest) that succeeds with a non-JSON body resolves to that body's text, a blob
 * request (blobRequest) to its Blob.
 *
 * Offline (issue 28): a mutation is refused while the browser says it is offline, before anything
 * is sent (NEEDS_CONNECTION_CODE; nothing is queued). A query whose endpoint is readable offline
 * (`extraOptions: READABLE_OFFLINE`) has each successful GET answer saved under the signed-in
 * user and its URL; when the network gives no answer (FETCH_ERROR) the saved answer is returned
 * instead, and the offlineReads slice records when it was fetched, for the screen's "as of".
 */
export const createBaseQuery = (options: TBaseQueryOptions): TBaseQuery => {
  const storage = options.storage ?? (() => window.localStorage);
  const userAgent = options.userAgent ?? currentUserAgent;
  const fallbackMessage = options.fallbackMessage ?? (() => DEFAULT_ERROR_MESSAGE);
  const offlineMessage = options.offlineMessage ?? fallbackMessage;
  const isOnline = options.isOnline ?? (() => navigator.onLine);
  const needsConnectionMessage = options.needsConnectionMessage ?? (() => DEFAULT_NEEDS_CONNECTION_MESSAGE);
  const { offlineReads } = options;
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

  const fail = (status: TApiError['status'], body: unknown, meta: FetchBaseQueryMeta | undefined) => ({
    error: apiErrorOf(status, body, {
      fallbackMessage,
      offlineMessage,
      ...(options.codeMessage ? { codeMessage: options.codeMessage } : {}),
    }),
    ...(meta ? { meta } : {}),
  });

  /**
   * Where a query readable offline is saved (offline-reads.ts): a GET of an endpoint that asks for
   * it, by a signed-in user, with a store to save in; null for anything else.
   */
  const savedReadOf = (
    args: string | FetchArgs,
    type: BaseQueryApi['type'],
    extraOptions: TBaseQueryExtraOptions | undefined,
  ): { userId: number; key: string } | null => {
    if (!offlineReads || type !== 'query' || !extraOptions?.isReadableOffline) return null;
    const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
    if ((request.method ?? 'GET').toUpperCase() !== 'GET') return null;
    const userId = getUserId(storage());
    return userId === null ? null : { userId, key: offlineReadKey(userId, request) };
  };

  /** The user whose saved reads alone are kept, once this page load has made it so. */
  let keptUserId: number | null = null;
  /**
   * Saves an answer for offline reading. The first save of a user in this page load drops what
   * other users saved (someone else signed in on this phone without logging out): a phone keeps
   * one person's saved reads at most.
   */
  const saveRead = async (target: { userId: number; key: string }, data: unknown) => {
    if (!offlineReads) return;
    const savedAt = Date.now();
    if (keptUserId !== target.userId) {
      await offlineReads.dropOtherUsers(target.userId);
      keptUserId = target.userId;
    }
    await offlineReads.save(target.key, { data, savedAt });
  };

  /** The saved read under `key`, or undefined (none, or no IndexedDB). */
  const loadSavedRead = async (key: string) => {
    try {
      return await offlineReads?.load(key);
    } catch {
      return undefined;
    }
  };

  return async (args, api, extraOptions) => {
    // Issue 28: a change made offline is refused before anything is sent, never kept to send later.
    if (api.type === 'mutation' && !isOnline()) {
      return {
        error: {
          status: 'CUSTOM_ERROR',
          message: needsConnectionMessage(),
          code: NEEDS_CONNECTION_CODE,
          fields: [],
        },
      };
    }
    let request: FetchArgs;
    try {
      request = await prepareRequest(args, api.getState);
    } catch {
      // A header the browser refuses, or no Web Crypto: fail like a network error, never throw.
      return fail('CUSTOM_ERROR', null, undefined);
    }
    const savedRead = savedReadOf(args, api.type, extraOptions);
    const sentToken = getToken(storage());
    const result = await rawBaseQuery(request, api, extraOptions);
    const httpStatus = result.meta?.response?.status;

    // A 511 ends the session the call was made with (spec §8). One that answers a call made before
    // a logout or another sign-in (its session is not the stored one) changes nothing: it would
    // otherwise wipe what the logout keeps (the phone for the MPIN login) or the new session.
    if (httpStatus === SESSION_GONE_STATUS && !isStoredSession(sentToken, storage())) {
      return fail(SESSION_GONE_STATUS, result.error?.data, result.meta);
    }
    if (httpStatus === SESSION_GONE_STATUS) {
      clearAllStorage(storage());
      if (offlineReads) void clearOfflineReads(offlineReads);
      api.dispatch(savedReadsForgotten());
      options.onSessionGone?.();
      return fail(SESSION_GONE_STATUS, result.error?.data, result.meta);
    }
    if (result.error?.status === 'FETCH_ERROR' && savedRead !== null) {
      // No answer at all (offline): the last answer saved, and when it was fetched (issue 28).
      const saved = await loadSavedRead(savedRead.key);
      if (saved) {
        if (api.queryCacheKey) {
          api.dispatch(savedReadServed({ queryCacheKey: api.queryCacheKey, savedAt: saved.savedAt }));
        }
        return { data: saved.data };
      }
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
    if (savedRead !== null) {
      // Kept for offline reading; the answer does not wait for the disk, and a failure to save
      // (no IndexedDB, storage full) only means this read is not there offline.
      saveRead(savedRead, body.data).catch(() => undefined);
      const { queryCacheKey } = api;
      if (queryCacheKey && selectSavedReadTime(api.getState(), queryCacheKey) !== null) {
        api.dispatch(freshReadFetched({ queryCacheKey }));
      }
    }
    return { data: body.data, ...(result.meta ? { meta: result.meta } : {}) };
  };
};
