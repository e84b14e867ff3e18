import { NETWORK_NODE_TYPES } from '@kisht/domain/network/network.schema';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { distributorLevelSql, outerUser } from '../../db/network-sql';
import { ledgerAccounts, ledgerBalances, users } from '../../db/schema';

/**
 * A node of the network with what its ancestors see of it, in the one statement that lists it: a
 * distributor's level, how many nodes sit right below it, and its key balances by app_type.
 */
const nodeColumns = {
  id: users.id,
  userType: users.userType,
  name: users.name,
  shopName: users.shopName,
  mobile: users.mobile,
  isActive: users.isActive,
  createdAt: users.createdAt,
  level: sql<number | null>`case when ${users.userType} = 'distributor'
    then ${distributorLevelSql(outerUser.id)} end`,
  childCount: sql<number>`(select count(*)::int from ${users} c
    where c.org_id = ${outerUser.orgId} and c.parent_id = ${outerUser.id} and c.user_type <> 'customer')`,
  keys: sql<Array<{ appType: number; balance: number }>>`coalesce((
    select json_agg(json_build_object('appType', b.app_type, 'balance', b.balance) order by b.app_type)
    from ${ledgerBalances} b join ${ledgerAccounts} a on a.id = b.account_id
    where a.user_id = ${outerUser.id} and a.org_id = ${outerUser.orgId}), '[]'::json)`,
};

/** One listed node (nodeColumns). */
export type TNodeRow = {
  id: number;
  userType: string;
  name: string;
  shopName: string | null;
  mobile: string;
  isActive: boolean;
  createdAt: Date;
  level: number | null;
  childCount: number;
  keys: Array<{ appType: number; balance: number }>;
};

/**
 * The nodes right below `parentId` in the organisation (null: below the organisation), distributors
 * first then by name, at most 500.
 */
export const listChildren = (db: DbOrTx, orgId: number, parentId: number | null): Promise<TNodeRow[]> =>
  db
    .select(nodeColumns)
    .from(users)
    .where(
      and(
        eq(users.orgId, orgId),
        parentId === null ? isNull(users.parentId) : eq(users.parentId, parentId),
        inArray(users.userType, [...NETWORK_NODE_TYPES]),
      ),
    )
    .orderBy(sql`${users.userType} <> 'distributor'`, asc(users.name), asc(users.id))
    .limit(500);

/** One node of the organisation's network (a distributor, retailer or mini-retailer), or null. */
export const findNode = async (db: DbOrTx, orgId: number, id: number): Promise<TNodeRow | null> => {
  const [row] = await db
    .select(nodeColumns)
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, id), inArray(users.userType, [...NETWORK_NODE_TYPES])))
    .limit(1);
  return row ?? null;
};
