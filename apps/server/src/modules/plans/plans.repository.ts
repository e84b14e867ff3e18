import { and, desc, eq, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, devices, planActivations, planProducts, plans } from '../../db/schema';

export type PlanRow = typeof plans.$inferSelect & { productIds: number[] };
export type ActivationRow = typeof planActivations.$inferSelect & {
  planName: string;
  /** The linked customer's status (listActivations only); null without a customer. */
  customerStatus?: number | null;
};

const withProducts = async (db: DbOrTx, rows: (typeof plans.$inferSelect)[]): Promise<PlanRow[]> => {
  if (rows.length === 0) return [];
  const links = await db
    .select()
    .from(planProducts)
    .where(
      inArray(
        planProducts.planId,
        rows.map((row) => row.id),
      ),
    );
  return rows.map((row) => ({
    ...row,
    productIds: links
      .filter((link) => link.planId === row.id)
      .map((link) => link.productId)
      .sort((a, b) => a - b),
  }));
};

/**
 * An organisation's plans, by app_type then price: of some app_types only, applying to one product
 * (plans with no product rows apply to all), and active ones only unless `includeInactive`.
 */
export const listPlans = async (
  db: DbOrTx,
  orgId: number,
  filter: {
    appTypes?: readonly number[] | undefined;
    productId?: number | undefined;
    includeInactive: boolean;
  },
): Promise<PlanRow[]> => {
  const conditions: SQL[] = [eq(plans.orgId, orgId)];
  if (filter.appTypes) conditions.push(inArray(plans.appType, [...filter.appTypes]));
  if (!filter.includeInactive) conditions.push(eq(plans.isActive, true));
  if (filter.productId !== undefined)
    conditions.push(
      or(
        sql`not exists (select 1 from plan_products pp where pp.plan_id = ${plans.id})`,
        sql`exists (select 1 from plan_products pp where pp.plan_id = ${plans.id} and pp.product_id = ${filter.productId})`,
      )!,
    );
  const rows = await db
    .select()
    .from(plans)
    .where(and(...conditions))
    .orderBy(plans.appType, plans.pricePaise, plans.id);
  return withProducts(db, rows);
};

/** One plan of the organisation, or null (another organisation's id too). */
export const findPlan = async (db: DbOrTx, orgId: number, planId: number): Promise<PlanRow | null> => {
  const rows = await db
    .select()
    .from(plans)
    .where(and(eq(plans.orgId, orgId), eq(plans.id, planId)));
  return (await withProducts(db, rows))[0] ?? null;
};

/** Inserts a plan and its product links; returns its id. */
export const insertPlan = async (
  db: DbOrTx,
  row: typeof plans.$inferInsert,
  productIds: readonly number[],
): Promise<number> => {
  const [inserted] = await db.insert(plans).values(row).returning({ id: plans.id });
  await replaceProducts(db, inserted!.id, productIds);
  return inserted!.id;
};

/** Updates a plan of the organisation and replaces its product links; false when no such plan. */
export const updatePlan = async (
  db: DbOrTx,
  orgId: number,
  planId: number,
  values: Partial<typeof plans.$inferInsert>,
  productIds: readonly number[],
): Promise<boolean> => {
  const updated = await db
    .update(plans)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(plans.orgId, orgId), eq(plans.id, planId)))
    .returning({ id: plans.id });
  if (updated.length === 0) return false;
  await replaceProducts(db, planId, productIds);
  return true;
};

const replaceProducts = async (db: DbOrTx, planId: number, productIds: readonly number[]) => {
  await db.delete(planProducts).where(eq(planProducts.planId, planId));
  if (productIds.length > 0)
    await db
      .insert(planProducts)
      .values([...new Set(productIds)].map((productId) => ({ planId, productId })));
};

/** Inserts an activation; null when its code is already taken in the organisation (try another). */
export const insertActivation = async (
  db: DbOrTx,
  row: typeof planActivations.$inferInsert,
): Promise<number | null> => {
  const inserted = await db
    .insert(planActivations)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: planActivations.id });
  return inserted[0]?.id ?? null;
};

/** Who an activation list is for: a retailer subtree, or a customer user by their mobile. */
export type ActivationScope = { orgId: number } & (
  | { retailerIds: number[]; mobile?: undefined }
  | { mobile: string; retailerIds?: undefined }
);

/** Activations in the scope, newest first, optionally of some app_types or of one customer. */
export const listActivations = async (
  db: DbOrTx,
  scope: ActivationScope,
  filter: { appTypes?: readonly number[] | undefined; customerId?: number | undefined; id?: number },
): Promise<ActivationRow[]> => {
  const conditions: SQL[] = [eq(planActivations.orgId, scope.orgId)];
  if (scope.retailerIds) conditions.push(inArray(planActivations.retailerId, scope.retailerIds));
  else conditions.push(eq(planActivations.mobile, scope.mobile));
  if (filter.appTypes) conditions.push(inArray(planActivations.appType, [...filter.appTypes]));
  if (filter.customerId !== undefined) conditions.push(eq(planActivations.customerId, filter.customerId));
  if (filter.id !== undefined) conditions.push(eq(planActivations.id, filter.id));
  const rows = await db
    .select({ activation: planActivations, planName: plans.name, customerStatus: customers.status })
    .from(planActivations)
    .innerJoin(plans, eq(plans.id, planActivations.planId))
    .leftJoin(customers, eq(customers.id, planActivations.customerId))
    .where(and(...conditions))
    .orderBy(desc(planActivations.createdAt), desc(planActivations.id))
    .limit(500);
  return rows.map((row) => ({
    ...row.activation,
    planName: row.planName,
    customerStatus: row.customerStatus,
  }));
};

/** The activation with this code in the organisation, locked for the redeeming transaction. */
export const findActivationByCodeForUpdate = async (
  db: DbOrTx,
  orgId: number,
  code: string,
): Promise<(ActivationRow & { customerPhone: TSoldForPhone | null }) | null> => {
  const [row] = await db
    .select({
      activation: planActivations,
      planName: plans.name,
      imei1: devices.imei1,
      imei2: devices.imei2,
      serialNumber: devices.serialNumber,
    })
    .from(planActivations)
    .innerJoin(plans, eq(plans.id, planActivations.planId))
    .leftJoin(devices, eq(devices.customerId, planActivations.customerId))
    .where(and(eq(planActivations.orgId, orgId), eq(planActivations.code, code)))
    .for('update', { of: planActivations });
  if (!row) return null;
  const customerPhone =
    row.imei1 === null ? null : { imei1: row.imei1, imei2: row.imei2, serialNumber: row.serialNumber };
  return { ...row.activation, planName: row.planName, customerPhone };
};

/** The financed customer's phone a plan was sold with: its IMEIs and serial number. */
export type TSoldForPhone = { imei1: string; imei2: string | null; serialNumber: string | null };

/** Marks an activation redeemed on a phone. */
export const markRedeemed = async (
  db: DbOrTx,
  activationId: number,
  device: Record<string, string>,
  at: Date,
): Promise<void> => {
  await db
    .update(planActivations)
    .set({ status: 'redeemed', redeemedAt: at, redeemedDevice: device })
    .where(eq(planActivations.id, activationId));
};

/**
 * Extended warranties ending within `days` of `today` (+05:30 days) whose reminder was not sent,
 * claimed with FOR UPDATE SKIP LOCKED so one server process sends each.
 */
export const claimExpiringWarranties = async (
  db: DbOrTx,
  options: { appType: number; lastDay: string; today: string; limit: number },
) =>
  db
    .select()
    .from(planActivations)
    .where(
      and(
        eq(planActivations.appType, options.appType),
        isNull(planActivations.reminderSentAt),
        lte(planActivations.endsOn, options.lastDay),
        sql`${planActivations.endsOn} >= ${options.today}`,
      ),
    )
    .limit(options.limit)
    .for('update', { skipLocked: true });

/** Records that an activation's expiry reminder went out. */
export const markReminderSent = async (db: DbOrTx, activationId: number, at: Date): Promise<void> => {
  await db.update(planActivations).set({ reminderSentAt: at }).where(eq(planActivations.id, activationId));
};
