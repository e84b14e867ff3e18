import { z } from 'zod';
import { APP_TYPE_CODES } from '../common/enums';
import { ZId } from '../common/identifiers';

/**
 * payment_gateway (issue 13 "Payments"): keys bought online and instalments paid online through a
 * gateway of the Razorpay model (an order, the checkout, a signed payment, a signed webhook).
 * Money is integer paise; the currency is always INR.
 */

/** Message of a purchase when the organisation has no price for the keys (spec §5/§9). */
export const PRICES_NOT_SET_MESSAGE = 'Please contact admin for prices';

/** Most keys one online purchase may buy. */
export const MAX_KEYS_PER_PURCHASE = 1000;

/** Highest price of one key the admin may set: ₹1,00,000 in paise (a typo guard). */
export const MAX_KEY_PRICE_PAISE = 10_000_000;

/** The one currency of the gateway. */
export const PAYMENT_CURRENCY = 'INR';

/** A spec §1 app_type code. */
const ZAppType = z.union(
  APP_TYPE_CODES.map((code) => z.literal(code)),
  {
    error: 'Choose a key type',
  },
);

/** The price of one key of an app_type, in paise (a whole number above zero). */
export const ZKeyPrice = z.object({
  appType: ZAppType,
  unitPricePaise: z
    .number({ error: 'Enter a price' })
    .int('Price must be whole paise')
    .positive('Price must be more than zero')
    .max(MAX_KEY_PRICE_PAISE, `At most ${MAX_KEY_PRICE_PAISE} paise`),
});
export type TKeyPrice = z.infer<typeof ZKeyPrice>;

/**
 * The organisation's key prices (admin GET/PUT paths.admin.keyPrices): at most one per app_type,
 * ordered by app_type in answers; an app_type absent here cannot be bought online.
 */
export const ZKeyPrices = z.object({
  prices: z.array(ZKeyPrice).superRefine((prices, ctx) => {
    const seen = new Set<number>();
    prices.forEach((price, index) => {
      if (seen.has(price.appType))
        ctx.addIssue({ code: 'custom', path: [index, 'appType'], message: 'This key type is listed twice' });
      seen.add(price.appType);
    });
  }),
});
export type TKeyPrices = z.infer<typeof ZKeyPrices>;

/** Stored key prices (paise by app_type code, as settings keep them) as the wire's list, by app_type. */
export const keyPricesFromMap = (pricesPaise: Record<string, number> | null | undefined): TKeyPrices => ({
  prices: Object.entries(pricesPaise ?? {})
    .map(([appType, unitPricePaise]) => ({ appType: Number(appType), unitPricePaise }))
    .sort((a, b) => a.appType - b.appType) as TKeyPrices['prices'],
});

/** The wire's key prices as stored: paise by app_type code. */
export const keyPricesToMap = (request: TKeyPrices): Record<string, number> =>
  Object.fromEntries(request.prices.map((p) => [String(p.appType), p.unitPricePaise]));

/** Keys to buy (paths.payments.validate and paths.payments.create): an app_type and 1 to 1000 keys. */
export const ZPaymentQuoteRequest = z.object({
  appType: ZAppType,
  quantity: z
    .number({ error: 'Enter the number of keys' })
    .int('Enter a whole number of keys')
    .min(1, 'Enter at least 1 key')
    .max(MAX_KEYS_PER_PURCHASE, `At most ${MAX_KEYS_PER_PURCHASE} keys at a time`),
});
export type TPaymentQuoteRequest = z.infer<typeof ZPaymentQuoteRequest>;

/** What the keys cost: unit price × quantity, paise. */
export const ZPaymentQuote = z.object({
  appType: z.number().int(),
  quantity: z.number().int().positive(),
  unitPricePaise: z.number().int().positive(),
  amountPaise: z.number().int().positive(),
  currency: z.literal(PAYMENT_CURRENCY),
});
export type TPaymentQuote = z.infer<typeof ZPaymentQuote>;

/**
 * What the web app needs to open the gateway's checkout: our order id (uuid), the gateway's
 * order id, the amount (paise) and currency, the gateway's public key id, the checkout script URL
 * to load, the texts the checkout shows and the payer's details it pre-fills.
 */
export const ZCheckoutOrder = z.object({
  orderId: z.string().uuid(),
  gatewayOrderId: z.string(),
  amountPaise: z.number().int().positive(),
  currency: z.literal(PAYMENT_CURRENCY),
  keyId: z.string(),
  checkoutScriptUrl: z.string(),
  name: z.string(),
  description: z.string(),
  prefill: z.object({ name: z.string(), contact: z.string() }),
});
export type TCheckoutOrder = z.infer<typeof ZCheckoutOrder>;

/** A gateway id as the checkout hands it back (`order_…`, `pay_…`): letters, digits, '_' and '-'. */
const ZGatewayId = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(64, 'At most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Not a gateway id');

/**
 * The checkout's success callback (paths.payments.verify), as Razorpay's handler passes it:
 * razorpay_signature = hex HMAC-SHA256(key secret, `${razorpay_order_id}|${razorpay_payment_id}`).
 */
export const ZCheckoutResult = z.object({
  razorpay_order_id: ZGatewayId,
  razorpay_payment_id: ZGatewayId,
  razorpay_signature: z
    .string({ error: 'Required' })
    .trim()
    .regex(/^[0-9a-f]{64}$/i, 'Not a signature'),
});
export type TCheckoutResult = z.infer<typeof ZCheckoutResult>;

/** Why an order was made: keys bought by a retailer, or an instalment paid by a customer. */
export const PAYMENT_PURPOSES = ['keys', 'instalment'] as const;

/** States of one of our payment orders. */
export const PAYMENT_ORDER_STATUSES = ['created', 'paid', 'failed'] as const;

/**
 * One of our payment orders: its status, purpose and amount (paise); the app_type and quantity of
 * a key purchase; the receipt number of an instalment once it is recorded.
 */
export const ZPaymentOrderStatus = z.object({
  orderId: z.string().uuid(),
  status: z.enum(PAYMENT_ORDER_STATUSES),
  purpose: z.enum(PAYMENT_PURPOSES),
  amountPaise: z.number().int(),
  appType: z.number().int().optional(),
  quantity: z.number().int().optional(),
  receiptNo: z.string().optional(),
});
export type TPaymentOrderStatus = z.infer<typeof ZPaymentOrderStatus>;

/** Query of paths.payments.status: our order id. */
export const ZPaymentStatusQuery = z.object({ order_id: z.string().uuid('Not an order id') });

/**
 * A customer pays online (paths.payments.instalment): their own customer record, and the amount
 * (paise) — by default what is due now (overdue and due today, else the next instalment); never
 * more than what is still owed.
 */
export const ZInstalmentOrderRequest = z.object({
  customerId: ZId,
  amountPaise: z
    .number()
    .int('Amount must be whole paise')
    .positive('Amount must be more than zero')
    .optional(),
});
export type TInstalmentOrderRequest = z.infer<typeof ZInstalmentOrderRequest>;
