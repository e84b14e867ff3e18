import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { istDate } from '@kisht/domain/common/time';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { visibleRetailerIds } from '../users/users.service';
import * as repo from './scope.repository';

/*
 * The actor's scope (issue 25): which customers, and so which phones, an actor may read or
 * command. Below every feature module that takes a customer id (customers, devices, EMIs, ledger,
 * plans, media…), so none of them needs another to find its customer: a request for another
 * tenant's id answers 404 here.
 */

/** Which customers an actor sees: the organisation and the retailer subtree. */
export type CustomerScope = repo.CustomerScope;

/** The actor's customer scope: organisation and visible retailers. Throws FORBIDDEN for customers. */
export const scopeOf = async (db: DbOrTx, actor: TActor): Promise<CustomerScope> => ({
  orgId: actor.orgId,
  retailerIds: await visibleRetailerIds(db, actor),
});

const notFound = () => new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Customer not found');

/** A customer in the actor's scope with device and product, or CUSTOMER_NOT_FOUND (other tenants too). */
export const findCustomerForActor = async (db: DbOrTx, actor: TActor, customerId: number) => {
  const found = await repo.findCustomer(db, await scopeOf(db, actor), customerId);
  if (!found) throw notFound();
  return found;
};

/**
 * The actor's customer of device family `family.deviceType` (spec §1) and its device (issue 15).
 * Throws CUSTOMER_NOT_FOUND (404) outside the actor's scope and NOT_FOR_THIS_DEVICE_FAMILY (409,
 * field customer_id) with the family's `message` and `fieldMessage` for a customer of another.
 */
export const findCustomerOfFamily = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
  family: { deviceType: number; message: string; fieldMessage: string },
) => {
  const found = await findCustomerForActor(db, actor, customerId);
  if (found.customer.deviceType !== family.deviceType) {
    throw new AppError(AppErrorCode.NOT_FOR_THIS_DEVICE_FAMILY, family.message, [
      { field: 'customer_id', message: family.fieldMessage },
    ]);
  }
  return found;
};

/**
 * Whether `customerId` is a loan of a customer user's own: a customer record of the organisation
 * with the user's mobile (customers log in with the mobile their loans were booked under).
 */
export const isOwnLoanOfCustomerUser = (
  db: DbOrTx,
  options: { orgId: number; customerId: number; mobile: string },
): Promise<boolean> => repo.isCustomerOfMobile(db, options);

/**
 * Customers in the actor's scope with their devices, for a bulk command: the chosen ids (any
 * status; repeats count once), or all with an enrolled phone, or those overdue today (+05:30); the
 * filters leave out customers uninstalled, Apple-removed or with EMIs completed
 * (BULK_EXCLUDED_STATUSES). Throws CUSTOMER_NOT_FOUND (field customer_ids) when any chosen id is
 * outside the actor's scope.
 */
export const findBulkTargets = async (
  db: DbOrTx,
  actor: TActor,
  selection: { customerIds: number[] } | { filter: 'all_enrolled' | 'overdue' },
) => {
  const scope = await scopeOf(db, actor);
  if (!('customerIds' in selection)) {
    return repo.findBulkTargets(db, scope, { filter: selection.filter, today: istDate() });
  }
  const chosen = [...new Set(selection.customerIds)];
  const targets = await repo.findBulkTargets(db, scope, { customerIds: chosen });
  if (targets.length !== chosen.length) {
    throw new AppError(AppErrorCode.CUSTOMER_NOT_FOUND, 'Some customers were not found', [
      { field: 'customer_ids', message: 'Some of these customers are not yours' },
    ]);
  }
  return targets;
};
