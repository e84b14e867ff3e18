import { z } from 'zod';
import { ZId } from '../common/identifiers';
import { ZAppTypeCode, ZKeyQuantity } from './ledger.schema';

/*
 * Key requests and returns up the chain (issue 30, docs/key-requests.md): a shop asks its parent
 * (a mini-retailer its retailer, a retailer the organisation) for keys at the parent's price; the
 * parent approves (the keys move, one ledger movement) or rejects; a shop returns unused keys to its
 * parent. Quantities are whole keys, prices integer paise, times ISO 8601 UTC.
 */

/** Where a request stands: waiting for the parent, approved (keys moved), rejected, or withdrawn. */
export const KEY_REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type TKeyRequestStatus = (typeof KEY_REQUEST_STATUSES)[number];

/** POST paths.keyRequests.list: keys of one app_type from the actor's parent, with how it was paid. */
export const ZCreateKeyRequest = z.object({
  appType: ZAppTypeCode,
  quantity: ZKeyQuantity,
  /** The payment's reference (UPI transaction id, cheque number…), for the parent to match. */
  paymentReference: z.string().trim().max(80, 'At most 80 characters').optional(),
});
export type TCreateKeyRequest = z.input<typeof ZCreateKeyRequest>;

/** GET paths.keyRequests.list: the actor's own requests (`sent`) or its children's (`received`). */
export const ZKeyRequestsQuery = z.object({ box: z.enum(['sent', 'received']).default('sent') });

/** A key request as the requester and its parent see it. */
export const ZKeyRequest = z.object({
  id: ZId,
  requesterId: ZId,
  requesterName: z.string(),
  /** The parent asked: a retailer's shop name, or null for the organisation. */
  parentName: z.string().nullable(),
  appType: z.number().int(),
  quantity: z.number().int().positive(),
  /** The parent's price per key when asked, paise; null when the parent has set none. */
  unitPricePaise: z.number().int().nullable(),
  totalPaise: z.number().int().nullable(),
  paymentReference: z.string().nullable(),
  status: z.enum(KEY_REQUEST_STATUSES),
  /** Why it was rejected (the parent's note), or the approver's note. */
  decisionNote: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type TKeyRequest = z.infer<typeof ZKeyRequest>;

/** POST paths.keyRequests.decide: the parent approves or rejects (a rejection says why). */
export const ZDecideKeyRequest = z
  .object({
    request_id: ZId,
    decision: z.enum(['approve', 'reject']),
    note: z.string().trim().max(200, 'At most 200 characters').optional(),
  })
  .superRefine((value, ctx) => {
    if (value.decision === 'reject' && !value.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'Say why the request is rejected' });
  });
export type TDecideKeyRequest = z.input<typeof ZDecideKeyRequest>;

/** POST paths.keyRequests.cancel: the requester withdraws a pending request. */
export const ZCancelKeyRequest = z.object({ request_id: ZId });

/** POST paths.keyRequests.returnKeys: unused keys back to the actor's parent. */
export const ZReturnKeysRequest = z.object({
  appType: ZAppTypeCode,
  quantity: ZKeyQuantity,
  note: z.string().trim().max(200, 'At most 200 characters').optional(),
});
export type TReturnKeysRequest = z.input<typeof ZReturnKeysRequest>;
