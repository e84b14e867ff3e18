import type { BaseQueryApi, FetchArgs } from '@reduxjs/toolkit/query';
import { appBaseQuery } from './api';
import type { TApiError } from './base-query';

/** The store parts a direct base-query call needs: its state (the request context) and dispatch. */
export type TStoreAccess = Pick<BaseQueryApi, 'getState' | 'dispatch'>;

/**
 * Runs a blob request (lib/http contractBlobRequest: a PDF, a workbook) through the app's base
 * query outside any endpoint, so it carries the same spec §7 headers, 511 handling and error
 * messages as every call while the Blob stays out of the store. Resolves to the Blob or the
 * TApiError; never throws. `endpoint` names the call in the base query's logs.
 */
export const fetchBlob = async (
  args: FetchArgs,
  store: TStoreAccess,
  endpoint: string,
): Promise<{ blob: Blob } | { error: TApiError }> => {
  const queryApi: BaseQueryApi = {
    signal: new AbortController().signal,
    abort: () => undefined,
    dispatch: store.dispatch,
    getState: store.getState,
    extra: undefined,
    endpoint,
    type: 'query',
  };
  const result = await appBaseQuery(args, queryApi, {});
  if (result.error) return { error: result.error };
  return { blob: result.data as Blob };
};
