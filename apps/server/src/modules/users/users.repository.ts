import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

/** Ids of mini-retailers whose parent is the given retailer, within the organisation. */
export const findChildRetailerIds = async (
  db: DbOrTx,
  orgId: number,
  parentId: number,
): Promise<number[]> => {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.parentId, parentId), eq(users.userType, 'miniretailer')));
  return rows.map((r) => r.id);
};
