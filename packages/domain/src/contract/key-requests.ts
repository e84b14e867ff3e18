import {
  ZCancelKeyRequest,
  ZCreateKeyRequest,
  ZDecideKeyRequest,
  ZKeyRequest,
  ZKeyRequestsQuery,
  ZReturnKeysRequest,
} from '../ledger/key-requests.schema';
import { ZLedgerMovement } from '../ledger/ledger.schema';
import { paths } from '../paths';
import { ZKeyPrices } from '../payments/payments.schema';
import { defineRoutes } from './define';

/**
 * Key requests and returns up the chain (issue 30, docs/key-requests.md): a mini-retailer asks its
 * retailer, a retailer its organisation; the parent approves or rejects; unused keys go back up.
 * Another shop's request answers 404; a customer 403.
 */
export const keyRequestsContract = defineRoutes({
  /** The actor's own requests (`sent`) or those of the shops below it (`received`), newest first. */
  list: {
    method: 'GET',
    path: paths.keyRequests.list,
    query: ZKeyRequestsQuery,
    response: ZKeyRequest.array(),
  },
  /** Asks the actor's parent for keys at the parent's price. */
  create: { method: 'POST', path: paths.keyRequests.list, body: ZCreateKeyRequest, response: ZKeyRequest },
  /** The parent approves (one ledger movement to the requester) or rejects, once. */
  decide: { method: 'POST', path: paths.keyRequests.decide, body: ZDecideKeyRequest, response: ZKeyRequest },
  /** The requester withdraws a pending request. */
  cancel: { method: 'POST', path: paths.keyRequests.cancel, body: ZCancelKeyRequest, response: ZKeyRequest },
  /** Unused keys back to the actor's parent (a retailer's go back to the organisation). */
  returnKeys: {
    method: 'POST',
    path: paths.keyRequests.returnKeys,
    body: ZReturnKeysRequest,
    response: ZLedgerMovement,
  },
  /** A retailer's price per key to its mini-retailers (none set: the organisation's). */
  prices: { method: 'GET', path: paths.keyRequests.prices, response: ZKeyPrices },
  /** Sets a retailer's prices to its mini-retailers. */
  savePrices: { method: 'PUT', path: paths.keyRequests.prices, body: ZKeyPrices, response: ZKeyPrices },
});
