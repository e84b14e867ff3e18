import type { TContractBody, TContractQuery, TRouteContract } from '@kisht/domain/contract/define';
import type { FetchArgs } from '@reduxjs/toolkit/query';

/** The route a call goes to: the contract's path and method (the compiler refuses any other). */
export type TRouteOf<C extends TRouteContract> = Pick<C, 'method' | 'path'>;

/**
 * The RTK Query request of a route of the wire contract (domain contract/routes.ts, issue 28):
 * `route` must be the contract's own path and method, `body` and `params` the contract's request
 * types; the endpoint's own types come from the same entry (TContractData, TContractBody). The web
 * app imports the contract's types only, never its schemas (zod stays out of the screens' code).
 * `url` replaces the path when the path has a parameter filled in (`/api/device/:feature`).
 */
export const contractRequest = <C extends TRouteContract>(
  route: TRouteOf<C>,
  request: { body?: TContractBody<C>; params?: TContractQuery<C>; url?: string } = {},
): FetchArgs => ({
  url: request.url ?? route.path,
  method: route.method,
  ...(request.body === undefined ? {} : { body: request.body }),
  ...(request.params === undefined ? {} : { params: request.params as Record<string, unknown> }),
});
