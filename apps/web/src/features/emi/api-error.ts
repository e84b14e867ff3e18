import type { TApiError } from '../../lib/http/base-query';

/** HTTP 409: the server refused because the loan is not in a state for it (the page is out of date). */
const CONFLICT_STATUS = 409;

/** The base query's error, when `error` is one (a mutation result's `error`). */
export const asApiError = (error: unknown): TApiError | null =>
  typeof error === 'object' && error !== null && 'status' in error && 'message' in error && 'fields' in error
    ? (error as TApiError)
    : null;

/**
 * Whether a failed call was refused for the loan's state (409: PENALTY_NOT_DUE, NOTHING_TO_WAIVE,
 * NOTHING_DUE, DEVICE_NOT_ENROLLED), so asking again will not help. A network failure is not.
 */
export const isRefused = (error: unknown): boolean => asApiError(error)?.status === CONFLICT_STATUS;
