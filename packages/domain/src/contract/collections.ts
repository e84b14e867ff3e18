import {
  ZCollectionsCustomersPage,
  ZCollectionsCustomersQuery,
  ZCollectionsExportQuery,
  ZCollectionsQuery,
  ZCollectionsSummary,
} from '../collections/collections.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The collections routes (issue 29): the portfolio by days past due, its drill-down and exports.
 * Retailers see their own and their mini-retailers' loans, a mini-retailer its own, an
 * organisation admin the organisation's; customers 403; another tenant's `retailer_id` 404.
 */
export const collectionsContract = defineRoutes({
  /** DPD buckets, PAR 30, collection efficiency of a period, roll rates and the same per shop. */
  summary: {
    method: 'GET',
    path: paths.collections.summary,
    query: ZCollectionsQuery,
    response: ZCollectionsSummary,
  },
  /** The open loans of one DPD bucket, most days past due first. */
  customers: {
    method: 'GET',
    path: paths.collections.customers,
    query: ZCollectionsCustomersQuery,
    response: ZCollectionsCustomersPage,
  },
  /** The summary and every open loan as CSV (the loans) or XLSX (a sheet each). */
  export: { method: 'GET', path: paths.collections.export, query: ZCollectionsExportQuery, response: 'file' },
});
