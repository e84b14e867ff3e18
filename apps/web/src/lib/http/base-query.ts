import type { TFieldError } from '@kisht/domain/common/envelope';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { fetchBaseQuery } from '@reduxjs/toolkit/query';
import { clearAllStorage, getToken } from '../auth-storage';

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

export type TBaseQuery = BaseQueryFn<string | FetchArgs, unknown, TApiError, object, FetchBaseQueryMeta>;

export type TBaseQueryOptions = {
  /** API origin; '' for the same origin. */
  baseUrl: string;
  /** Where the token lives and what is cleared on 511; window.localStorage by default. */
  storage?: () => Storage;
  /** Called after storage is cleared on 511; the app navigates to /login. */
  onSessionGone?: () => void;
  /** The generic failure message, translated by the app; DEFAULT_ERROR_MESSAGE otherwise. */
  fallbackMessage?: () => string;
  /** The fetch to use; tests pass a fake network here. */
  fetchFn?: typeof fetch;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

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

/**
 * The base query of the one RTK Query api (design §3): sends `Authorization: Bearer <token>` when
 * a token is stored and `platform: mobile` always (spec §7), unwraps the `{ response, message, data }`
 * envelope to `data`, and turns every failure into a TApiError. A failure is raised when the status
 * is 400 or `response` is 'failure' (spec §8), and for any other non-2xx status or network error.
 * On 511 it clears all local storage and calls onSessionGone (spec §8).
 */
export const createBaseQuery = (options: TBaseQueryOptions): TBaseQuery => {
  const storage = options.storage ?? (() => window.localStorage);
  const fallbackMessage = options.fallbackMessage ?? (() => DEFAULT_ERROR_MESSAGE);
  const rawBaseQuery = fetchBaseQuery({
    baseUrl: options.baseUrl,
    ...(options.fetchFn ? { fetchFn: options.fetchFn } : {}),
    prepareHeaders: (headers) => {
      const token = getToken(storage());
      if (token) headers.set('Authorization', `Bearer ${token}`);
      headers.set('platform', 'mobile');
      return headers;
    },
  });

  const fail = (status: TApiError['status'], body: unknown, meta: FetchBaseQueryMeta | undefined) => ({
    error: {
      status,
      message: readMessage(body) ?? fallbackMessage(),
      code: isRecord(body) ? nonEmptyString(body.code) : null,
      fields: readFields(body),
    },
    ...(meta ? { meta } : {}),
  });

  return async (args, api, extraOptions) => {
    const result = await rawBaseQuery(args, api, extraOptions);
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
    if (httpStatus === 400 || !isRecord(body) || body.response !== 'success') {
      return fail(httpStatus ?? 'PARSING_ERROR', body, result.meta);
    }
    return { data: body.data, ...(result.meta ? { meta: result.meta } : {}) };
  };
};
