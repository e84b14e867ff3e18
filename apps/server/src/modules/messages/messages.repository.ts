import { and, asc, count, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, devices, users } from '../../db/schema';

/** The user's name, shop name, mobile and date of birth, or null. */
export const findUserFacts = async (db: DbOrTx, orgId: number, userId: number) => {
  const rows = await db
    .select({
      name: users.name,
      shopName: users.shopName,
      mobile: users.mobile,
      dateOfBirth: users.dateOfBirth,
    })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .limit(1);
  return rows[0] ?? null;
};

/** The dates of birth on the organisation's customer records of this mobile (a customer user's loans). */
export const findDatesOfBirthOfMobile = async (db: DbOrTx, orgId: number, mobile: string) =>
  (
    await db
      .select({ dateOfBirth: customers.dateOfBirth })
      .from(customers)
      .where(and(eq(customers.orgId, orgId), eq(customers.mobile, mobile), isNotNull(customers.dateOfBirth)))
  ).map((row) => row.dateOfBirth!);

/**
 * Customers of the organisation's retailers `retailerIds` born on one of `monthDays` (`MM-DD`), by
 * first and last name, at most `limit`, with their device's family and enrolment; and how many
 * there are in all.
 */
export const findCustomersBornOn = async (
  db: DbOrTx,
  scope: { orgId: number; retailerIds: number[] },
  monthDays: string[],
  limit: number,
) => {
  const where = and(
    eq(customers.orgId, scope.orgId),
    inArray(customers.retailerId, scope.retailerIds),
    isNotNull(customers.dateOfBirth),
    inArray(sql<string>`to_char(${customers.dateOfBirth}, 'MM-DD')`, monthDays),
  );
  const [rows, totals] = await Promise.all([
    db
      .select({
        id: customers.id,
        firstName: customers.firstName,
        lastName: customers.lastName,
        mobile: customers.mobile,
        dateOfBirth: customers.dateOfBirth,
        status: customers.status,
        deviceType: customers.deviceType,
        enrolledAt: devices.enrolledAt,
        secretHash: devices.secretHash,
      })
      .from(customers)
      .innerJoin(devices, eq(devices.customerId, customers.id))
      .where(where)
      .orderBy(asc(customers.firstName), asc(customers.lastName), asc(customers.id))
      .limit(limit),
    db.select({ total: count() }).from(customers).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
};
