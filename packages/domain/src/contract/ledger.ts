import { z } from 'zod';
import {
  ZAdminRetailer,
  ZAdminRetailersQuery,
  ZBalancesQuery,
  ZCreditKeysRequest,
  ZKeyBalances,
  ZLedgerMovement,
  ZTransactionPage,
  ZTransactionQuery,
  ZTransferKeysRequest,
} from '../ledger/ledger.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The keys, balance and transactions routes of the wire contract (contract/define.ts; issue 13,
 * spec §7 "Money"). Session required; a retailer may name its own mini-retailer with `user_id`.
 */
export const ledgerContract = defineRoutes({
  /** Keys per app_type: the signed-in user's, or a mini-retailer's (its parent) with user_id. */
  balances: { method: 'GET', path: paths.ledger.balances, query: ZBalancesQuery, response: ZKeyBalances },
  /** Transfer keys to a mini-retailer, or take them back (retailers only). */
  transfer: {
    method: 'POST',
    path: paths.ledger.transfer,
    body: ZTransferKeysRequest,
    response: ZLedgerMovement,
  },
  /** Key movements (top_up_history), newest first, a keyset page; from/to are +05:30 days YYYY-MM-DD. */
  transactions: {
    method: 'GET',
    path: paths.ledger.transactions,
    query: ZTransactionQuery,
    response: ZTransactionPage,
  },
  /** The same key movements (same filters) as a CSV download. */
  transactionsCsv: {
    method: 'GET',
    path: paths.ledger.transactionsCsv,
    query: ZTransactionQuery,
    response: 'file',
  },
  /** Credit keys to a retailer of the organisation (organisation admin only). */
  creditKeys: {
    method: 'POST',
    path: paths.admin.creditKeys,
    body: ZCreditKeysRequest,
    response: ZLedgerMovement,
  },
  /** The organisation's retailers matching a name, shop or mobile fragment (organisation admin only). */
  adminRetailers: {
    method: 'GET',
    path: paths.admin.retailers,
    query: ZAdminRetailersQuery,
    response: z.array(ZAdminRetailer),
  },
});
