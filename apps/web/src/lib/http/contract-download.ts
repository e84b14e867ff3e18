import type { TContractQuery, TRouteContract } from '@kisht/domain/contract/define';
import type { FetchArgs } from '@reduxjs/toolkit/query';
import { blobRequest, fileRequest } from './base-query';
import type { TRouteOf } from './contract-request';
import type { TBlobSource } from './use-blob-url';

/** A route of the wire contract that answers a download (`response: 'file'`: a CSV, an image, a PDF). */
type TDownloadRoute = TRouteContract & { method: 'GET'; response: 'file' };

/** A download's query as the base-query helpers take it (the contract's query type checks it first). */
const toParams = (params: unknown) => params as Record<string, string | number>;

/**
 * A text download (a CSV export) of a route of the wire contract, for an endpoint's `query`:
 * contractRequest's checks (the route's own path and method, its query type) on lib/http
 * fileRequest, which resolves to the file's text. `accept` as fileRequest's.
 */
export const contractFileRequest = <C extends TDownloadRoute>(
  route: TRouteOf<C>,
  params: TContractQuery<C>,
  accept?: string,
): FetchArgs => fileRequest(route.path, toParams(params), accept);

/**
 * A binary download (a stored image, a PDF) of a route of the wire contract, for a direct
 * base-query call: contractRequest's checks on lib/http blobRequest, which resolves to the Blob.
 */
export const contractBlobRequest = <C extends TDownloadRoute>(
  route: TRouteOf<C>,
  params: TContractQuery<C>,
): FetchArgs => blobRequest(route.path, toParams(params));

/**
 * What useBlobUrl fetches for a route of the wire contract that answers an image: the route's own
 * path (checked with its method) and query; `version` changes when the file behind them does.
 */
export const contractBlobSource = <C extends TDownloadRoute>(
  route: TRouteOf<C>,
  params: TContractQuery<C>,
  version?: string,
): TBlobSource => ({
  url: route.path,
  params: toParams(params),
  ...(version === undefined ? {} : { version }),
});
