import { z } from 'zod';
import { APP_TYPE_CODES } from '../common/enums';
import { ZIsoDate } from '../common/envelope';
import { ZId, ZQueryId } from '../common/identifiers';
import { formatCalendarDate } from '../common/time';
import { KEY_STOCK_LEVELS } from './ledger.rules';

/**
 * The key ledger (issue 13 "Keys, balance and transactions"): keys per app_type (spec §1), moved
 * by double-entry movements. Quantities are whole keys.
 */

/**
 * Kinds of ledger movement: an admin top-up, a transfer between a retailer and its mini-retailer,
 * a key reserved by an enrolment QR, a reservation returned when its QR lapsed, a key spent on an
 * enrolment (from the reservation, issue 27), a refund of a key, keys bought through the payment
 * gateway, unused keys a retailer returned to its organisation (issue 30; a mini-retailer's return
 * to its retailer is a transfer).
 */
export const LEDGER_MOVEMENT_KINDS = [
  'top_up',
  'transfer',
  'reserve',
  'release',
  'key_use',
  'refund',
  'purchase',
  'return',
] as const;
export type TLedgerMovementKind = (typeof LEDGER_MOVEMENT_KINDS)[number];

/** Most keys one transfer or credit may move (a typo guard, not a business limit). */
export const MAX_KEYS_PER_MOVEMENT = 100_000;

/** A spec §1 app_type code (0 device policy controller, 1 link-based, …). */
export const ZAppTypeCode = z.union(APP_TYPE_CODES.map((code) => z.literal(code)));

/** A number of keys to move: a whole number from 1 to MAX_KEYS_PER_MOVEMENT. */
export const ZKeyQuantity = z
  .number()
  .int('Enter a whole number of keys')
  .min(1, 'Enter at least 1 key')
  .max(MAX_KEYS_PER_MOVEMENT, `At most ${MAX_KEYS_PER_MOVEMENT} keys at a time`);

/** Keys of one app_type an account holds (api/points/getBalanceTypesWithScheme). */
export const ZKeyBalance = z.object({
  appType: z.number().int(),
  balance: z.number().int().nonnegative(),
  /** The balance against the organisation's low-keys threshold (ledger.rules keyStockLevel). */
  level: z.enum(KEY_STOCK_LEVELS),
});
export type TKeyBalance = z.infer<typeof ZKeyBalance>;

/** An account's balances, one per app_type it ever held keys of, ordered by app_type. */
export const ZKeyBalances = z.array(ZKeyBalance);
export type TKeyBalances = z.infer<typeof ZKeyBalances>;

/** Transfer directions, seen from the retailer: to its mini-retailer, or back from it. */
export const TRANSFER_DIRECTIONS = ['to_child', 'from_child'] as const;

/**
 * A retailer moves keys to one of its own mini-retailers (`to_child`) or takes them back
 * (`from_child`). `userId` is the mini-retailer. 409 INSUFFICIENT_KEYS when the source has fewer.
 */
export const ZTransferKeysRequest = z.object({
  userId: ZId,
  appType: ZAppTypeCode,
  quantity: ZKeyQuantity,
  direction: z.enum(TRANSFER_DIRECTIONS),
});
export type TTransferKeysRequest = z.infer<typeof ZTransferKeysRequest>;

/** The organisation admin credits keys to a retailer of its organisation (a top-up). */
export const ZCreditKeysRequest = z.object({
  retailerId: ZId,
  appType: ZAppTypeCode,
  quantity: ZKeyQuantity,
  note: z.string().trim().max(200, 'At most 200 characters').optional(),
});
export type TCreditKeysRequest = z.infer<typeof ZCreditKeysRequest>;

/**
 * One movement as the viewer's transaction history shows it (top_up_history): `direction` is
 * from the viewed account's side ('in' keys arrived, 'out' keys left); `counterpartyName` is the
 * other user (transfers), or null for the organisation (top-ups, purchases, key use); the customer
 * is set for key use and refunds. `createdAt` is ISO 8601 UTC.
 */
export const ZLedgerMovement = z.object({
  id: ZId,
  kind: z.enum(LEDGER_MOVEMENT_KINDS),
  appType: z.number().int(),
  quantity: z.number().int().positive(),
  direction: z.enum(['in', 'out']),
  counterpartyName: z.string().nullable(),
  customerId: z.number().int().nullable(),
  customerName: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type TLedgerMovement = z.infer<typeof ZLedgerMovement>;

/** Longest keyset cursor accepted (a movement id as text). */
const ZCursor = z.string().regex(/^\d{1,10}$/, 'Invalid cursor');

/**
 * top_up_history query (spec §3 parameter names `from`, `to`, `user_id`): `from` and `to` are
 * +05:30 calendar days `YYYY-MM-DD`, both inclusive; `type` one movement kind; `cursor` the
 * `nextCursor` of the previous page; `user_id` a mini-retailer of the actor (its parent only).
 */
export const ZTransactionQuery = z
  .object({
    from: ZIsoDate.optional(),
    to: ZIsoDate.optional(),
    type: z.enum(LEDGER_MOVEMENT_KINDS).optional(),
    cursor: ZCursor.optional(),
    user_id: ZQueryId.optional(),
  })
  .superRefine((value, ctx) => {
    for (const field of ['from', 'to'] as const) {
      const day = value[field];
      if (day && formatCalendarDate(day) === '')
        ctx.addIssue({ code: 'custom', path: [field], message: 'Not a real date' });
    }
    if (value.from && value.to && value.from > value.to)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'The end date must not be before the start date',
      });
  });
export type TTransactionQuery = z.input<typeof ZTransactionQuery>;

/** One page of top_up_history, newest first; `nextCursor` is null on the last page. */
export const ZTransactionPage = z.object({
  items: z.array(ZLedgerMovement),
  nextCursor: z.string().nullable(),
});
export type TTransactionPage = z.infer<typeof ZTransactionPage>;

/** Query of the balances route: the actor's own, or its mini-retailer's with `user_id`. */
export const ZBalancesQuery = z.object({ user_id: ZQueryId.optional() });

/** Query of the admin's retailer list (for crediting): a name, shop or mobile fragment. */
export const ZAdminRetailersQuery = z.object({ search: z.string().trim().max(60).optional() });

/** A retailer as the admin's credit screen lists it. */
export const ZAdminRetailer = z.object({
  id: ZId,
  name: z.string(),
  shopName: z.string().nullable(),
  mobile: z.string(),
  isActive: z.boolean(),
});
export type TAdminRetailer = z.infer<typeof ZAdminRetailer>;

/**
 * Gives back the key an enrolment QR spent (api/points/refund_key), for the actor's customer who
 * is still inactive and whose phone never enrolled; the QR's token is voided. `note` is kept on
 * the refund movement.
 */
export const ZRefundKeyRequest = z.object({
  customer_id: ZId,
  note: z.string().trim().max(200, 'At most 200 characters').optional(),
});
export type TRefundKeyRequest = z.infer<typeof ZRefundKeyRequest>;
