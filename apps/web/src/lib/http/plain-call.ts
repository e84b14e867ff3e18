import { clearAllStorage, getToken, isStoredSession } from '../auth-storage';
import { currentUserAgent } from '../user-agent';
import { buildClientHeaders } from './client-headers';
import {
  apiErrorOf,
  isSuccessEnvelope,
  resolveRequestUrl,
  SESSION_GONE_STATUS,
  type TApiError,
  type TErrorWords,
} from './envelope';

/** Where a plain call goes and how it is signed and worded (the base query's TRequestContext, plus words). */
export type TPlainCallContext = {
  /** API base URL (the org config's apiBaseUrl); '' for the app's own origin. */
  baseUrl: string;
  /** The organisation the request token is derived from. */
  orgId: number;
  /** The request-token secret (app config); null until loaded, and then no request-token is sent. */
  requestTokenSecret: string | null;
  /** How failures are worded (translations). */
  words: TErrorWords;
  /** Called after local storage is cleared on 511 (spec §8). */
  onSessionGone?: () => void;
};

/** One call: a path of domain `paths`, its method, JSON body and query parameters. */
export type TPlainRequest = {
  url: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  params?: Record<string, string | number>;
};

/** A call's outcome: the envelope's data, or the TApiError (never thrown). */
export type TPlainResult<T> = { data: T; error?: undefined } | { data?: undefined; error: TApiError };

/**
 * One API call without RTK Query, for the sign-in screens that open before the store loads (issue
 * 28): the same URL, spec §7 headers (buildClientHeaders), envelope and spec §8 failures as the
 * base query. On 511 it clears local storage and calls onSessionGone, when the session the call was made with
 * is still the stored one. Never throws.
 */
export const plainCall = async <T>(
  context: TPlainCallContext,
  request: TPlainRequest,
): Promise<TPlainResult<T>> => {
  const fail = (status: TApiError['status'], body: unknown): TPlainResult<T> => ({
    error: apiErrorOf(status, body, context.words),
  });
  let url: URL;
  let headers: Record<string, string>;
  try {
    url = new URL(resolveRequestUrl(context.baseUrl, request.url));
    for (const [name, value] of Object.entries(request.params ?? {}))
      url.searchParams.set(name, String(value));
    headers = await buildClientHeaders({
      path: url.pathname,
      orgId: context.orgId,
      requestTokenSecret: context.requestTokenSecret,
      storage: window.localStorage,
      userAgent: currentUserAgent(),
    });
  } catch {
    // A header the browser refuses, or no Web Crypto: fail like a network error, never throw.
    return fail('CUSTOM_ERROR', null);
  }
  const sentToken = getToken();
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
  } catch {
    return fail('FETCH_ERROR', null);
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    return fail(response.ok ? 'PARSING_ERROR' : response.status, null);
  }
  // Only the session the call was made with ends (base-query.ts: the same rule).
  if (response.status === SESSION_GONE_STATUS && isStoredSession(sentToken)) {
    clearAllStorage();
    context.onSessionGone?.();
    return fail(SESSION_GONE_STATUS, body);
  }
  if (!response.ok || !isSuccessEnvelope(response.status, body)) return fail(response.status, body);
  return { data: body.data as T };
};
