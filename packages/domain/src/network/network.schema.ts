import { z } from 'zod';
import { ZId } from '../common/identifiers';
import { ZKeyBalance } from '../ledger/ledger.schema';
import { MAX_DISTRIBUTOR_LEVELS } from './network.rules';

/*
 * The distribution network's screens (issue 30, docs/distribution-network.md): a parent (the
 * organisation admin, a distributor) looks at the nodes below it, one level at a time, with each
 * node's key stock.
 */

/** GET paths.network.list: the actor's own children, or those of `parent_id` (a node of its subtree). */
export const ZNetworkQuery = z.object({ parent_id: z.coerce.number().pipe(ZId).optional() });

/** The node types of the network below the organisation. */
export const NETWORK_NODE_TYPES = ['distributor', 'retailer', 'miniretailer'] as const;

/** One node of the network as its ancestors see it. Times are ISO 8601 UTC. */
export const ZNetworkNode = z.object({
  id: ZId,
  userType: z.enum(NETWORK_NODE_TYPES),
  /** A distributor's level (1 = below the organisation); null for a retailer or mini-retailer. */
  level: z.number().int().positive().nullable(),
  name: z.string(),
  shopName: z.string().nullable(),
  mobile: z.string(),
  isActive: z.boolean(),
  /** How many nodes sit directly below it. */
  childCount: z.number().int().nonnegative(),
  /** Its keys per app_type, each with its stock level (ledger.rules keyStockLevel). */
  keys: z.array(ZKeyBalance),
  createdAt: z.string(),
});
export type TNetworkNode = z.infer<typeof ZNetworkNode>;

/** The answer: the node looked into (null: the actor itself), its children, and the levels configured. */
export const ZNetwork = z.object({
  parent: ZNetworkNode.nullable(),
  children: z.array(ZNetworkNode),
  distributorLevels: z.number().int().min(0).max(MAX_DISTRIBUTOR_LEVELS),
});
export type TNetwork = z.infer<typeof ZNetwork>;

/** PUT paths.network.settings (organisation admin): how many distributor levels the network has. */
export const ZNetworkSettings = z.object({
  distributorLevels: z
    .number({ error: 'Must be a whole number' })
    .int('Must be a whole number')
    .min(0, 'At least 0')
    .max(MAX_DISTRIBUTOR_LEVELS, `At most ${MAX_DISTRIBUTOR_LEVELS}`),
});
export type TNetworkSettings = z.infer<typeof ZNetworkSettings>;
