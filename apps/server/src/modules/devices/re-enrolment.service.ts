import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { canTransitionStatus } from '@kisht/domain/customers/customer-status';
import type { TReEnrolReason, TReEnrolRequest, TReEnrolResponse } from '@kisht/domain/devices/devices.schema';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { recordStatusChange, requireImeisFree } from '../customers/customers.service';
import { findCustomerForActor } from '../scope/scope.service';
import { requireAccess } from '../users/users.service';
import { endCommandsOfGoneDevice } from './control-commands.service';
import type { CommandDispatcher } from './device-outbox.service';
import type { DeviceRow } from './devices.repository';
import * as devicesRepo from './devices.repository';

/** How each reason reads in the customer's status history (the audit trail). */
const REASON_TEXT: Record<TReEnrolReason, string> = {
  factory_reset: 'the phone was reset to factory settings',
  replaced_under_warranty: 'the phone was replaced under warranty',
  lost_or_stolen: 'the phone was lost or stolen',
  other: 'another reason',
};

/**
 * Re-enrolment (issue 27): the shop takes a customer's phone out of Kisht because it was wiped,
 * replaced or lost, so that a phone can enrol again from a new QR. In one transaction: the old
 * phone's credentials are revoked (the broker refuses its secret from now on; an MDM phone's id is
 * forgotten, so its check-ins and reports change nothing), its state and presence cleared, its
 * waiting commands cancelled ("the phone was re-enrolled"), the new phone's IMEIs written when it
 * is another phone, and the customer made inactive again with the reason in the status history
 * (event `re_enrol`). The consent to remote locking, the loan, the EMIs and the payments stay.
 * After the commit, an old phone still connected to the embedded broker is sent a signed release
 * and disconnected, and an MDM phone is released through its service by its former id
 * (dispatcher.retireDevice: an iPhone's MDM profile removed, a managed Android phone pointed at a
 * released policy). The new QR then comes from get_customers_qrCode as
 * for any inactive customer: the same phone (IMEI 1 unchanged) costs no new key; another phone
 * costs one, as any enrolment of a new IMEI does.
 *
 * Throws CUSTOMER_NOT_FOUND (404) outside the actor's scope, FORBIDDEN without uninstall access,
 * STATUS_CHANGE_NOT_ALLOWED (409, field customer_id) for a customer not enrolled or already released
 * or paid up, IMEI_IN_USE (409, fields imei1/imei2) when another device of the organisation holds
 * a new IMEI.
 */
export const reEnrolDevice = async (
  deps: { db: Db; dispatcher: CommandDispatcher },
  options: { actor: TActor; request: TReEnrolRequest },
): Promise<TReEnrolResponse> => {
  const { actor, request } = options;
  const { customer, device } = await findCustomerForActor(deps.db, actor, request.customer_id);
  await requireAccess(deps.db, actor, ['user.unistall', 'lock.uninstall']);
  if (!canTransitionStatus(customer.status, 're_enrol')) {
    throw new AppError(AppErrorCode.STATUS_CHANGE_NOT_ALLOWED, 'This phone cannot be re-enrolled', [
      {
        field: 'customer_id',
        message: 'Only an enrolled phone whose loan is running can be re-enrolled',
      },
    ]);
  }
  // An MQTT phone is released only while connected; an MDM service holds the release for its phone.
  const isReachable =
    device.channel === 'mqtt' ? device.isOnline && device.secretHash !== null : device.mdmId !== null;
  const cancelled = await deps.db.transaction(async (tx) => {
    if (request.imei1 !== undefined && request.imei2 !== undefined) {
      await requireImeisFree(tx, customer.orgId, { imei1: request.imei1, imei2: request.imei2 }, device.id);
    }
    await devicesRepo.updateDevice(tx, device.id, {
      ...(request.imei1 !== undefined && request.imei2 !== undefined
        ? { imei1: request.imei1, imei2: request.imei2 }
        : {}),
      secretHash: null,
      enrolledAt: null,
      enrolmentTokenHash: null,
      enrolmentExpiresAt: null,
      enrolmentCodeHash: null,
      mdmId: null,
      mdmInfo: null,
      mdmInfoAt: null,
      pushToken: null,
      connectionId: null,
      isOnline: false,
      // The new phone's first report is fresh whatever its sequence numbers.
      reportedSeq: null,
      reportedLocked: false,
      reportedControls: {},
      reportedPolicyVersion: 0,
    });
    const ended = await endCommandsOfGoneDevice(tx, device.id, 'the phone was re-enrolled');
    await recordStatusChange(tx, {
      orgId: customer.orgId,
      customerId: customer.id,
      event: 're_enrol',
      actorUserId: actor.userId,
      reason: reEnrolmentReason(request, device),
      strict: true,
    });
    return ended.length;
  });
  const wasReleaseSent = isReachable ? await deps.dispatcher.retireDevice(device) : false;
  return { customerId: customer.id, status: 0, cancelledCommands: cancelled, wasReleaseSent };
};

/** The status history's line for a re-enrolment: why, the shop's note, and the phones' IMEIs. */
const reEnrolmentReason = (request: TReEnrolRequest, device: DeviceRow): string => {
  const parts = [`Re-enrolment: ${REASON_TEXT[request.reason]}`];
  if (request.note) parts.push(request.note);
  if (request.imei1 !== undefined) {
    parts.push(`new phone IMEI ${request.imei1} / ${request.imei2} (was ${device.imei1} / ${device.imei2})`);
  }
  return parts.join('; ');
};
