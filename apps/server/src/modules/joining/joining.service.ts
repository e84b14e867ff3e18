import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TSignupRequestItem, TSignupStatus, ZSignupRequest } from '@kisht/domain/joining/joining.schema';
import { mayJoinUnder, type TJoiningRole, type TNetworkParent } from '@kisht/domain/network/network.rules';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { getDistributorLevels, getOrgAppConfig } from '../orgs/orgs.service';
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
  role: row.role,
});

/**
 * Whose join requests the actor decides (issue 30): the organisation admin those made to the
 * organisation (null), a distributor those made to it. FORBIDDEN for anyone else.
 */
const decidesFor = (actor: TActor): number | null => {
  if (actor.userType === 'admin') return null;
  if (actor.userType === 'distributor') return actor.userId;
  throw new AppError(
    AppErrorCode.FORBIDDEN,
    'Only the organisation admin or a distributor can see join requests',
  );
};

/**
 * Throws ROLE_NOT_ALLOWED (409, naming `role`) unless `role` may join under `parent` with the
 * organisation's distributor levels (network.rules mayJoinUnder).
 */
const assertMayJoin = async (db: DbOrTx, orgId: number, role: TJoiningRole, parent: TNetworkParent) => {
  const levels = await getDistributorLevels(db, orgId);
  if (mayJoinUnder(role, parent, levels)) return;
  const message =
    parent.kind === 'organisation'
      ? 'This organisation has no distributors'
      : 'This distributor cannot have distributors below it';
  throw new AppError(AppErrorCode.ROLE_NOT_ALLOWED, message, [{ field: 'role', message }]);
};

/**
 * A shop asks to join the organisation (public; issue 13 "Joining"): records a pending join
 * request. Inputs are validated by ZSignupRequest (mobile E.164). Issue 30: it joins as a retailer
 * or a distributor (`role`), under the organisation (its admin decides) or under the distributor
 * whose mobile is `parentMobile` (that distributor decides).
 *
 * The answer does not tell whether the mobile already has an account: a mobile with a distributor,
 * retailer, mini-retailer or admin account of the organisation gets the same success, and nothing
 * is recorded. Throws NOT_FOUND for an unknown organisation, NOT_FOUND (naming `parentMobile`) when
 * no active distributor of the organisation has that mobile, ROLE_NOT_ALLOWED (409, naming `role`)
 * for a distributor where the organisation's levels allow none, SIGNUP_ALREADY_REQUESTED (409,
 * naming `mobile`) while a request of the same organisation and mobile is pending.
 */
export const requestSignup = async (
  deps: Pick<JoiningDeps, 'db'>,
  request: z.output<typeof ZSignupRequest>,
): Promise<void> => {
  await getOrgAppConfig(deps.db, request.orgId);
  let parentId: number | null = null;
  let parent: TNetworkParent = { kind: 'organisation' };
  if (request.parentMobile) {
    const found = await repo.findDistributor(deps.db, request.orgId, { mobile: request.parentMobile });
    if (!found) {
      const message = 'No distributor of this organisation has this mobile number';
      throw new AppError(AppErrorCode.NOT_FOUND, message, [{ field: 'parentMobile', message }]);
    }
    parentId = found.id;
    parent = { kind: 'distributor', level: found.level };
  }
  await assertMayJoin(deps.db, request.orgId, request.role, parent);
  await deps.db.transaction(async (tx) => {
    await repo.lockSignupMobile(tx, request.orgId, request.mobile);
    if (await repo.hasShopAccount(tx, request.orgId, request.mobile)) return;
    if (await repo.findPendingSignup(tx, request.orgId, request.mobile)) {
      const message = 'A request for this mobile number is already waiting for approval';
      throw new AppError(AppErrorCode.SIGNUP_ALREADY_REQUESTED, message, [{ field: 'mobile', message }]);
    }
    await repo.insertSignup(tx, {
      orgId: request.orgId,
      name: request.name,
      shopName: request.shopName,
      mobile: request.mobile,
      city: request.city,
      role: request.role,
      parentId,
    });
  });
};

/**
 * The join requests the actor decides (the organisation admin those made to the organisation, a
 * distributor those made to it; anyone else FORBIDDEN): of one status, or all; pending first, then
 * newest first (at most 500).
 */
export const listSignupRequests = async (
  deps: Pick<JoiningDeps, 'db'>,
  options: { actor: TActor; status: TSignupStatus | 'all' },
): Promise<TSignupRequestItem[]> => {
  const parentId = decidesFor(options.actor);
  return (await repo.listSignups(deps.db, { orgId: options.actor.orgId, parentId }, options.status)).map(
    toItem,
  );
};

/**
 * The parent (the organisation admin for a request to the organisation, the distributor for one to
 * it) approves or declines a pending join request, in one transaction with an audit entry
 * (`signup.approve` / `signup.decline`) and an SMS to the shop through the outbox (delivered after
 * commit). Approving creates the retailer or distributor under that parent (users: name,
 * shop_name, mobile, address.city), who can then log in with an OTP.
 *
 * Throws FORBIDDEN for anyone but an admin or a distributor; NOT_FOUND for a request made to
 * another parent, of another organisation, or none; SIGNUP_ALREADY_DECIDED (409) when it was
 * approved or declined before; MOBILE_IN_USE (409) when approving a mobile that meanwhile got a
 * shop account in the organisation; ROLE_NOT_ALLOWED (409) when approving a distributor the
 * organisation's levels no longer allow there.
 */
export const decideSignupRequest = async (
  deps: JoiningDeps,
  options: { actor: TActor; id: number; decision: 'approve' | 'decline' },
): Promise<TSignupRequestItem> => {
  const { actor } = options;
  const parentId = decidesFor(actor);
  const { row, smsId } = await deps.db.transaction(async (tx) => {
    const request = await repo.findSignupForUpdate(tx, actor.orgId, options.id);
    if (!request || request.parentId !== parentId)
      throw new AppError(AppErrorCode.NOT_FOUND, 'Join request not found');
    if (request.status !== 'pending') {
      throw new AppError(AppErrorCode.SIGNUP_ALREADY_DECIDED, `This request was already ${request.status}`);
    }
    await repo.lockSignupMobile(tx, request.orgId, request.mobile);
    let userId: number | null = null;
    if (options.decision === 'approve') {
      if (await repo.hasShopAccount(tx, request.orgId, request.mobile)) {
        throw new AppError(AppErrorCode.MOBILE_IN_USE, 'This mobile number already has a shop account');
      }
      if (request.role === 'distributor') {
        // The levels may have changed since the request: the parent (the actor) is asked again.
        const parent =
          parentId === null ? null : await repo.findDistributor(tx, actor.orgId, { id: parentId });
        await assertMayJoin(
          tx,
          actor.orgId,
          'distributor',
          parent ? { kind: 'distributor', level: parent.level } : { kind: 'organisation' },
        );
      }
      userId = await repo.insertMember(tx, request);
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
      details: {
        mobile: request.mobile,
        shopName: request.shopName,
        userId,
        role: request.role,
        parentId: request.parentId,
      },
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
