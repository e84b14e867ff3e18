import { type SQL, sql } from 'drizzle-orm';
import { users } from './schema';

/**
 * The outer `users` row's columns, always qualified, for the correlated subqueries below: drizzle
 * names a column bare in a select from one table (`"id"`), which inside a subquery would be the
 * subquery's own table's column instead.
 */
export const outerUser = {
  id: sql.raw('"users"."id"'),
  orgId: sql.raw('"users"."org_id"'),
  parentId: sql.raw('"users"."parent_id"'),
};

/**
 * The user type of the outer `users` row's parent (`distributor` or `retailer`), or null when its
 * parent is the organisation (issue 30): whom it asks for keys.
 */
export const parentTypeSql = sql<'distributor' | 'retailer' | null>`(select p.user_type from ${users} p
  where p.id = ${outerUser.parentId} and p.user_type in ('distributor', 'retailer'))`;

/**
 * The ids of every node of the distribution network below `rootId` in organisation `orgId`, at any
 * depth (issue 30, packages/domain network.rules), as an `int[]` SQL expression: a recursive walk
 * down `users.parent_id` (indexed), leaving customer users out. Both arguments may be the outer
 * row's (`outerUser`), so the session read takes a distributor's subtree in its one statement.
 */
export const descendantIdsSql = (orgId: SQL | number, rootId: SQL | number): SQL<number[]> =>
  sql<number[]>`array(
    with recursive below (id) as (
      select c.id from ${users} c
      where c.org_id = ${orgId} and c.parent_id = ${rootId} and c.user_type <> 'customer'
      union all
      select c.id from ${users} c join below on c.parent_id = below.id
      where c.org_id = ${orgId} and c.user_type <> 'customer'
    ) select id from below order by id)`;

/**
 * A node's distributor level (issue 30) as an `int` SQL expression: how many distributors are on
 * its path to the organisation, itself included (1 for a distributor right below the organisation;
 * a retailer's counts the distributors above it). A walk up `users.parent_id`; `nodeId` may be the
 * outer row's (`outerUser.id`).
 */
export const distributorLevelSql = (nodeId: SQL | number): SQL<number> =>
  sql<number>`(
    with recursive up (id, parent_id) as (
      select a.id, a.parent_id from ${users} a where a.id = ${nodeId}
      union all
      select p.id, p.parent_id from ${users} p join up on p.id = up.parent_id
    ) select count(*)::int from up join ${users} d on d.id = up.id where d.user_type = 'distributor')`;
