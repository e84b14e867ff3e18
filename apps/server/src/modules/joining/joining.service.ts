import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TSignupRequestItem, TSignupStatus } from '@kisht/domain/joining/joining.schema';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { getOrgAppConfig } from '../orgs/orgs.service';
import type { SmsOutbox } from '../sms/sms.service';
import * as repo from './joining.repository';

/** What the joining operations need: the database and the SMS outbox. */
export type JoiningDeps = { db: Db; sms: SmsOutbox };

const toItem = (row: repo.TSignupRow): TSignupRequestItem => ({
  id: row.id,
  name: row.name,
  shopName: row.shopName,
  mobile: row.mobile,
  city: row.city,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  decidedAt: row.decidedAt?.toISOString() ?? null,
  userId: row.userId,
});

/** Throws FORBIDDEN unless the actor is an organisation admin. */
const requireAdmin = (actor: TActor): void => {
  if (actor.userType !== 'admin') {
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only the organisation admin can see join requests');
  }
};

/**
 * A shop asks to join the organisation (public; issue 13 "Joining"): records a pending join
 * request for the admin. Inputs are validated by ZSignupRequest (mobile E.164).
 *
 * The answer does not tell whether the mobile already has an account: a mobile with a retailer,
 * mini-retailer or admin account of the organisation gets the same success, and nothing is
 * recorded. Throws NOT_FOUND for an unknown organisation, SIGNUP_ALREADY_REQUESTED (409, naming
 * `mobile`) while a request of the same organisation and mobile is pending.
 */
export const requestSignup = async (
  deps: Pick<JoiningDeps, 'db'>,
  request: { orgId: number; name: string; shopName: string; mobile: string; city: string },
): Promise<void> => {
  await getOrgAppConfig(deps.db, request.orgId);
  await deps.db.transaction(async (tx) => {
    await repo.lockSignupMobile(tx, request.orgId, request.mobile);
    if (await repo.hasShopAccount(tx, request.orgId, request.mobile)) return;
    if (await repo.findPendingSignup(tx, request.orgId, request.mobile)) {
      const message = 'A request for this mobile number is already waiting for approval';
      throw new AppError(AppErrorCode.SIGNUP_ALREADY_REQUESTED, message, [{ field: 'mobile', message }]);
    }
    await repo.insertSignup(tx, request);
  });
};

/**
 * The actor's organisation's join requests (organisation admin only, else FORBIDDEN): of one
 * status, or all; pending first, then newest first (at most 500).
 */
export const listSignupRequests = async (
  deps: Pick<JoiningDeps, 'db'>,
  options: { actor: TActor; status: TSignupStatus | 'all' },
): Promise<TSignupRequestItem[]> => {
  requireAdmin(options.actor);
  return (await repo.listSignups(deps.db, options.actor.orgId, options.status)).map(toItem);
};

/**
 * The organisation admin approves or declines a pending join request, in one transaction with an
 * audit entry (`signup.approve` / `signup.decline`) and an SMS to the shop through the outbox
 * (delivered after commit). Approving creates the retailer (users: name, shop_name, mobile,
 * address.city), who can then log in with an OTP.
 *
 * Throws FORBIDDEN for anyone but an admin; NOT_FOUND for a request of another organisation or none;
 * SIGNUP_ALREADY_DECIDED (409) when it was approved or declined before; MOBILE_IN_USE (409) when
 * approving a mobile that meanwhile got a shop account in the organisation.
 */
export const decideSignupRequest = async (
  deps: JoiningDeps,
  options: { actor: TActor; id: number; decision: 'approve' | 'decline' },
): Promise<TSignupRequestItem> => {
  const { actor } = options;
  requireAdmin(actor);
  const { row, smsId } = await deps.db.transaction(async (tx) => {
    const request = await repo.findSignupForUpdate(tx, actor.orgId, options.id);
    if (!request) throw new AppError(AppErrorCode.NOT_FOUND, 'Join request not found');
    if (request.status !== 'pending') {
      throw new AppError(AppErrorCode.SIGNUP_ALREADY_DECIDED, `This request was already ${request.status}`);
    }
    await repo.lockSignupMobile(tx, request.orgId, request.mobile);
    let userId: number | null = null;
    if (options.decision === 'approve') {
      if (await repo.hasShopAccount(tx, request.orgId, request.mobile)) {
        throw new AppError(AppErrorCode.MOBILE_IN_USE, 'This mobile number already has a shop account');
      }
      userId = await repo.insertRetailer(tx, request);
    }
    const decided = await repo.markSignupDecided(tx, request.id, {
      status: options.decision === 'approve' ? 'approved' : 'declined',
      decidedBy: actor.userId,
      userId,
    });
    if (!decided) throw new AppError(AppErrorCode.SIGNUP_ALREADY_DECIDED, 'This request was already decided');
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: `signup.${options.decision}`,
      entity: 'signup_request',
      entityId: String(request.id),
      details: { mobile: request.mobile, shopName: request.shopName, userId },
    });
    const id = await deps.sms.queueSms(tx, {
      orgId: actor.orgId,
      mobile: request.mobile,
      purpose: 'SIGNUP_DECISION',
      // The texts are DLT templates (modules/sms/sms-templates.ts).
      content:
        options.decision === 'approve'
          ? { kind: 'SIGNUP_APPROVED', variables: { shop: request.shopName, mobile: request.mobile } }
          : { kind: 'SIGNUP_DECLINED', variables: { shop: request.shopName } },
    });
    return { row: decided, smsId: id };
  });
  deps.sms.deliverInBackground(smsId);
  return toItem(row);
};
