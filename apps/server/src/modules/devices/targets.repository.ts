import { and, asc, eq, inArray, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers, devices, emis, organizations, users } from '../../db/schema';
import { type DeviceRow, isAnyUuid } from './devices.repository';

/*
 * The targets of commands (issue 25): the phones a command may go to, with what the command gate
 * judges them by, and the rows the jobs take FOR UPDATE SKIP LOCKED.
 */

/** A customer's phone as the command gate judges and writes for it, read in one statement. */
export type TCommandTargetRow = {
  customerId: number;
  orgId: number;
  /** Customer status, spec §4. */
  status: number;
  /** Device family and app type, spec §1. */
  deviceType: number;
  appType: number;
  retailerId: number;
  retailerName: string;
  /** The retailer's mobile, E.164. */
  retailerPhone: string;
  /** The unpaid part of the customer's instalments due before `today` (+05:30), paise. */
  overduePaise: number;
  /** The due date (YYYY-MM-DD) of the customer's oldest instalment not fully paid, or null. */
  oldestUnpaidDueDate: string | null;
  /** The organisation's settings document (allowed list, command expiry, offline limit, lock-screen text). */
  orgSettings: (typeof organizations.$inferSelect)['settings'];
  device: DeviceRow;
};

/**
 * Which targets to read: within an organisation (always, for a person's request) by customers or a
 * bulk filter, or a job's devices by id across organisations.
 */
export type TTargetSelection = {
  orgId?: number | undefined;
  /** Only customers of these retailers (the actor's scope); absent: any of the organisation's. */
  retailerIds?: number[] | undefined;
  customerIds?: number[] | undefined;
  deviceIds?: string[] | undefined;
  /** A bulk filter: customers with an enrolled phone, or with an instalment overdue on `today`. */
  filter?: 'all_enrolled' | 'overdue' | undefined;
  /** Statuses a filter leaves out. */
  excludedStatuses?: readonly number[] | undefined;
};

/**
 * The command targets of a selection with everything the gate needs (status, family, retailer,
 * overdue paise on `today`, the organisation's settings, the device row), in one statement,
 * ordered by customer id. Devices or customers outside the selection are left out.
 */
export const findCommandTargets = async (
  db: DbOrTx,
  selection: TTargetSelection,
  today: string,
): Promise<TCommandTargetRow[]> => {
  const conditions: SQL[] = [];
  if (selection.orgId !== undefined) conditions.push(eq(customers.orgId, selection.orgId));
  else if (!selection.deviceIds) throw new Error('a selection without an organisation names its devices');
  if (selection.retailerIds) conditions.push(inArray(customers.retailerId, selection.retailerIds));
  if (selection.customerIds) conditions.push(inArray(customers.id, selection.customerIds));
  if (selection.deviceIds) conditions.push(isAnyUuid(devices.id, selection.deviceIds));
  if (selection.filter) conditions.push(sql`${devices.enrolledAt} is not null`);
  if (selection.excludedStatuses?.length)
    conditions.push(notInArray(customers.status, [...selection.excludedStatuses]));
  const overdue = sql<number>`coalesce((select sum(e.amount_paise - e.paid_paise) from ${emis} e
      where e.customer_id = ${customers.id} and e.paid_paise < e.amount_paise
        and e.due_date < ${today}), 0)::bigint`.mapWith(Number);
  if (selection.filter === 'overdue') conditions.push(sql`${overdue} > 0`);
  return db
    .select({
      customerId: customers.id,
      orgId: customers.orgId,
      status: customers.status,
      deviceType: customers.deviceType,
      appType: customers.appType,
      retailerId: customers.retailerId,
      retailerName: users.name,
      retailerPhone: users.mobile,
      overduePaise: overdue,
      oldestUnpaidDueDate: sql<string | null>`(select min(e.due_date)::text from ${emis} e
        where e.customer_id = ${customers.id} and e.paid_paise < e.amount_paise)`,
      orgSettings: organizations.settings,
      device: devices,
    })
    .from(customers)
    .innerJoin(devices, eq(devices.customerId, customers.id))
    .innerJoin(users, eq(users.id, customers.retailerId))
    .innerJoin(organizations, eq(organizations.id, customers.orgId))
    .where(and(...conditions))
    .orderBy(asc(customers.id));
};

/**
 * Enrolled, unlocked-by-intent devices of an organisation whose customer is in one of `statuses`
 * and has an unpaid instalment due on or before `dueOnOrBefore`, locked for update (SKIP LOCKED:
 * two server processes never take the same device), with no pending lock already.
 */
export const lockDevicesForAutoLock = (
  db: DbOrTx,
  orgId: number,
  dueOnOrBefore: string,
  statuses: readonly number[],
) =>
  db
    .select({ device: devices, customerId: customers.id })
    .from(devices)
    .innerJoin(customers, eq(customers.id, devices.customerId))
    .where(
      and(
        eq(devices.orgId, orgId),
        sql`${devices.enrolledAt} is not null`,
        eq(devices.desiredLocked, false),
        inArray(customers.status, [...statuses]),
        sql`exists (select 1 from emis e where e.customer_id = ${customers.id}
              and e.paid_paise < e.amount_paise and e.due_date <= ${dueOnOrBefore})`,
        sql`not exists (select 1 from device_commands c where c.device_id = ${devices.id}
              and c.name = 'lock' and c.state in ('queued', 'sent', 'received'))`,
      ),
    )
    .for('update', { of: devices, skipLocked: true });

/**
 * Unpaid instalments due exactly on `dueDate` whose enrolled device has had no reminder for that
 * instalment yet (a set_wallpaper command carrying its emiId), with the device locked for update.
 */
export const lockDevicesForReminder = (db: DbOrTx, orgId: number, dueDate: string) =>
  db
    .select({
      device: devices,
      customerId: customers.id,
      emiId: emis.id,
      owedPaise: sql<number>`(${emis.amountPaise} - ${emis.paidPaise})::bigint`.mapWith(Number),
    })
    .from(emis)
    .innerJoin(customers, eq(customers.id, emis.customerId))
    .innerJoin(devices, eq(devices.customerId, customers.id))
    .where(
      and(
        eq(emis.orgId, orgId),
        eq(emis.dueDate, dueDate),
        sql`${emis.paidPaise} < ${emis.amountPaise}`,
        sql`${devices.enrolledAt} is not null`,
        eq(devices.reportedLocked, false),
        sql`not exists (select 1 from device_commands c where c.device_id = ${devices.id}
              and c.name = 'set_wallpaper' and c.args->>'emiId' = ${emis.id}::text)`,
      ),
    )
    .for('update', { of: devices, skipLocked: true });

/**
 * The device locked for update when we intend it locked (or it reports locked) and its customer
 * has no unpaid instalment due before `today`; null otherwise.
 */
export const lockDeviceIfClearedAndLocked = async (db: DbOrTx, deviceId: string, today: string) => {
  const rows = await db
    .select()
    .from(devices)
    .where(
      and(
        eq(devices.id, deviceId),
        or(eq(devices.desiredLocked, true), eq(devices.reportedLocked, true)),
        sql`not exists (select 1 from emis e where e.customer_id = ${devices.customerId}
              and e.paid_paise < e.amount_paise and e.due_date < ${today})`,
      ),
    )
    .for('update');
  return rows[0] ?? null;
};
