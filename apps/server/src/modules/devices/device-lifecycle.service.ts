import { CustomerStatus } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TDeviceCommand, TSimChange, TSimChangePage } from '@kisht/domain/devices/devices.schema';
import type { TSimSlot } from '@kisht/domain/devices/protocol.schema';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import type { AuthDeps } from '../auth/auth.service';
import { recordStatusChange } from '../customers/customers.service';
import { notifyAboutCustomer } from '../notifications/notifications.service';
import { findCustomerForActor, scopeOf } from '../scope/scope.service';
import type { SmsOutbox } from '../sms/sms.service';
import { requireAccess } from '../users/users.service';
import { enqueueWebhookEvent } from '../webhooks/webhooks.service';
import type { CommandRow } from './commands.repository';
import { endCommandsOfGoneDevice, loadTargetForActor, sendControlCommand } from './control-commands.service';
import type { CommandDispatcher } from './device-outbox.service';
import { findSimChanges } from './device-reports.repository';
import type { DeviceRow } from './devices.repository';
import * as repo from './devices.repository';
import { verifyOwnOtp } from './offline-code.service';

type Deps = AuthDeps & { dispatcher: CommandDispatcher };

const describeSims = (slots: TSimSlot[]) =>
  slots
    .map((s) => `slot ${s.slot}: ${s.iccid ? `${s.operator ?? 'SIM'} …${s.iccid.slice(-4)}` : 'empty'}`)
    .join(', ');

/** The operators of the SIMs now in slots that changed (else of every filled slot), for the notification. */
const newOperators = (before: TSimSlot[], after: TSimSlot[]): string => {
  const changed = after.filter(
    (slot) => slot.iccid && !before.some((b) => b.slot === slot.slot && b.iccid === slot.iccid),
  );
  const shown = (changed.length > 0 ? changed : after.filter((slot) => slot.iccid)).map(
    (slot) => slot.operator ?? 'SIM',
  );
  return [...new Set(shown)].join(', ');
};

/**
 * A phone reported different SIMs (recorded already by the dispatcher): audit it and tell the
 * retailer by SMS, e.g. "SIM changed on Priya Patel's phone. Now slot 1: Airtel …1234 …", and in
 * the app (a `sim_changed` notification to the retailer and its parent). The audit entry, the
 * notification and the SMS (an sms_outbox row) are written together; the SMS goes out after commit
 * without holding up the device events, and the outbox job retries it if the gateway fails.
 */
export const notifySimChange = async (
  deps: { db: DbOrTx; sms: SmsOutbox },
  change: { device: DeviceRow; before: TSimSlot[]; after: TSimSlot[] },
): Promise<void> => {
  const owners = await repo.findOwnersOfDevice(deps.db, change.device.id);
  if (!owners) return;
  const smsId = await deps.db.transaction(async (tx) => {
    await insertAudit(tx, {
      orgId: change.device.orgId,
      action: 'device.sim_change',
      entity: 'customer',
      entityId: String(owners.customerId),
      details: { deviceId: change.device.id, before: change.before, after: change.after },
    });
    await notifyAboutCustomer(tx, {
      orgId: change.device.orgId,
      customerId: owners.customerId,
      kind: 'sim_changed',
      params: { operator: newOperators(change.before, change.after) },
      dedupeKey: null,
    });
    await enqueueWebhookEvent(tx, {
      orgId: change.device.orgId,
      type: 'sim.changed',
      orderingKey: `customer:${owners.customerId}`,
      data: {
        customerId: owners.customerId,
        deviceId: change.device.id,
        before: change.before,
        after: change.after,
      },
    });
    return deps.sms.queueSms(tx, {
      orgId: change.device.orgId,
      mobile: owners.retailerMobile,
      purpose: 'SIM_CHANGE',
      content: {
        kind: 'SIM_CHANGE',
        variables: {
          customer: `${owners.firstName} ${owners.lastName}`,
          now: describeSims(change.after),
          before: describeSims(change.before),
        },
      },
    });
  });
  deps.sms.deliverInBackground(smsId);
};

/**
 * After a phone confirms `uninstall`: it is released. Its credentials are revoked (it can no longer
 * connect), its pending commands cancelled, and the customer moves to status uninstall (3), audited.
 */
export const completeUninstall = async (
  db: Db,
  done: { device: DeviceRow; command: CommandRow },
): Promise<void> => {
  if (done.command.name !== 'uninstall') return;
  await db.transaction(async (tx) => {
    await repo.updateDevice(tx, done.device.id, { secretHash: null, isOnline: false });
    await endCommandsOfGoneDevice(tx, done.device.id, 'the phone was released');
    await recordStatusChange(tx, {
      orgId: done.device.orgId,
      customerId: done.device.customerId,
      event: 'release',
      actorUserId: done.command.createdBy,
      reason: 'Phone released (uninstall confirmed by the phone)',
    });
    await enqueueWebhookEvent(tx, {
      orgId: done.device.orgId,
      type: 'device.released',
      orderingKey: `customer:${done.device.customerId}`,
      data: { customerId: done.device.customerId, deviceId: done.device.id },
    });
  });
};

/**
 * Uninstall (release) a customer's phone after an OTP of purpose UNINSTALL sent to the user's own
 * mobile (send-otp-to-user). Throws as sendControlCommand (FORBIDDEN without uninstall access,
 * COMMAND_NOT_AVAILABLE for a locked phone), OTP_INVALID / OTP_EXPIRED (field otp).
 */
export const requestUninstall = async (
  deps: Deps,
  options: { actor: TActor; customerId: number; otp: string },
): Promise<TDeviceCommand> => {
  const { actor } = options;
  await loadTargetForActor(deps, actor, options.customerId);
  // Before the OTP is used up: a user without uninstall access keeps its OTP.
  await requireAccess(deps.db, actor, ['user.unistall', 'lock.uninstall']);
  await verifyOwnOtp(deps, actor, 'UNINSTALL', options.otp);
  return sendControlCommand(deps, { actor, customerId: options.customerId, feature: 'uninstall' });
};

/**
 * unclaim_customer: release the phone of a customer whose EMIs are completed (status 5), no OTP
 * needed as nothing is owed. Throws LOAN_NOT_COMPLETED for other customers, and as sendControlCommand.
 */
export const unclaimCustomer = async (
  deps: Deps,
  options: { actor: TActor; customerId: number },
): Promise<TDeviceCommand> => {
  const target = await loadTargetForActor(deps, options.actor, options.customerId);
  await requireAccess(deps.db, options.actor, ['user.unistall', 'lock.uninstall']);
  if (target.status !== CustomerStatus.EMI_COMPLETED) {
    throw new AppError(
      AppErrorCode.LOAN_NOT_COMPLETED,
      'Only a customer whose EMIs are completed can be released',
      [{ field: 'customer_id', message: 'The EMIs of this customer are not completed' }],
    );
  }
  return sendControlCommand(deps, {
    actor: options.actor,
    customerId: target.customerId,
    feature: 'uninstall',
  });
};

const toSimChange = (row: Awaited<ReturnType<typeof findSimChanges>>['rows'][number]): TSimChange => ({
  id: row.change.id,
  customerId: row.change.customerId,
  customerName: `${row.firstName} ${row.lastName}`,
  before: row.change.before,
  after: row.change.after,
  detectedAt: row.change.detectedAt.toISOString(),
});

/** sim_changes: SIM changes of the actor's customers, newest first, one page. */
export const listSimChanges = async (
  db: DbOrTx,
  actor: TActor,
  page: { page: number; pageSize: number },
): Promise<TSimChangePage> => {
  const { rows, total } = await findSimChanges(db, await scopeOf(db, actor), {
    limit: page.pageSize,
    offset: (page.page - 1) * page.pageSize,
  });
  return { items: rows.map(toSimChange), total, page: page.page, pageSize: page.pageSize };
};

/** customer_sim_change_details: one customer's SIM changes, newest first. Throws CUSTOMER_NOT_FOUND. */
export const listCustomerSimChanges = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
): Promise<TSimChange[]> => {
  const { customer } = await findCustomerForActor(db, actor, customerId);
  const { rows } = await findSimChanges(db, await scopeOf(db, actor), {
    customerId: customer.id,
    limit: 500,
    offset: 0,
  });
  return rows.map(toSimChange);
};
