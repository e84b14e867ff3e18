import type { TFieldError } from '@kisht/domain/common/envelope';
import { AppErrorCode } from '@kisht/domain/common/errors';

// The spec §8 answer envelope and its failures, without RTK Query: the base query (base-query.ts)
// and the sign-in screens' plain calls (plain-call.ts) read answers the same way.

/** Spec §8: HTTP 511 from any call means the session is gone. */
export const SESSION_GONE_STATUS = 511;
/** Spec §8 fallback when neither the error nor its data carries a message. */
export const DEFAULT_ERROR_MESSAGE = 'Something went wrong';

/** The one error shape every call rejects with. */
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

/** Whether a call's error is a TApiError (not a thrown one). */
export const isApiError = (error: unknown): error is TApiError =>
  typeof error === 'object' && error !== null && 'status' in error && 'message' in error && 'fields' in error;

/** The server's words of a failed call (a TApiError's message), else `fallback` (already translated). */
export const apiErrorMessage = (error: unknown, fallback: string): string =>
  isApiError(error) ? error.message : fallback;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
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

/** How a failure's words are chosen: the app's translations of codes and of its own messages. */
export type TErrorWords = {
  /** The generic failure message, translated; DEFAULT_ERROR_MESSAGE otherwise. */
  fallbackMessage: () => string;
  /** The message when the network fails (no answer at all); the fallback otherwise. */
  offlineMessage?: () => string;
  /** The message of an error `code`, in the user's language, or null for the server's own (issue 28). */
  codeMessage?: (code: string) => string | null;
};

/**
 * The TApiError of a failed call (spec §8): the translated message of the server's code, else the
 * server's message, else the offline or generic message. Fields of a validation failure keep
 * the server's words; those of any other error repeat its reason, so they take its translation.
 */
export const apiErrorOf = (status: TApiError['status'], body: unknown, words: TErrorWords): TApiError => {
  const code = isRecord(body) ? nonEmptyString(body.code) : null;
  const translated = code === null ? null : (words.codeMessage?.(code) ?? null);
  const fields = readFields(body);
  return {
    status,
    message:
      translated ??
      readMessage(body) ??
      (status === 'FETCH_ERROR'
        ? (words.offlineMessage ?? words.fallbackMessage)()
        : words.fallbackMessage()),
    code,
    fields:
      translated === null || code === AppErrorCode.VALIDATION_FAILED
        ? fields
        : fields.map((field) => ({ ...field, message: translated })),
  };
};

/** Whether an answer is the success envelope (spec §8: not 400 and `response` 'success'). */
export const isSuccessEnvelope = (httpStatus: number, body: unknown): body is { data: unknown } =>
  httpStatus !== 400 && isRecord(body) && body.response === 'success';

const ABSOLUTE_URL = /^[a-z][a-z\d+.-]*:\/\//i;

/** The absolute URL of a request: `url` under `baseUrl`, or under the app's origin when baseUrl is ''. */
export const resolveRequestUrl = (baseUrl: string, url: string): string => {
  if (ABSOLUTE_URL.test(url)) return url;
  const base = (baseUrl || window.location.origin).replace(/\/+$/, '');
  return `${base}/${url.replace(/^\/+/, '')}`;
};
