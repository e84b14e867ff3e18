import { z } from 'zod';
import { COMMAND_NAMES, type TCommandName, type TMessageFeature } from '../common/enums';
import { CONSENT_LANGUAGES } from '../customers/consent-texts';
import { CUSTOMER_STATUS_EVENTS } from '../customers/customer-status';
import { PUSH_REFUSAL_REASONS } from '../customers/customers.schema';
import { commandSpecOf } from '../devices/command-catalogue';
import { ZDeviceControlSettings, ZLockAccess, ZUserAccess } from '../devices/devices.schema';
import { LOCK_REASON_CATEGORIES } from '../devices/lock-reasons';
import { OFFLINE_CODE_ACTIONS } from '../devices/offline-code';
import {
  ZOfflineCodeLockData,
  ZOfflineLimitLockData,
  ZPaidThroughLockData,
  ZSimSlot,
} from '../devices/protocol.schema';
import { RECORDED_PAYMENT_MODES, ZPenaltyRule } from '../emi/emi.schema';
import { DOCUMENT_TYPES, MEDIA_KINDS } from '../media/media.schema';
import { ORG_PAGE_LANGUAGES, ORG_PAGES, ZSupportContact } from '../org-pages/org-pages.schema';
import { PAYMENT_PURPOSES } from '../payments/payments.schema';
import { ZReminderSettings } from '../reminders/reminders.schema';

/*
 * The audit log (design §6: "audit every command and every money movement, as typed audit
 * events"), as documenso types its audit log: every entry the server writes is a member of one zod
 * union, ZAuditEvent, told apart by `action`. A member names the entity the entry is about
 * (`entity`, `entityId`) and the exact shape of its `details`. The action strings, entities and
 * details keys are those of the rows already stored: readers and existing rows depend on them.
 * `details` objects are strict: a key the member does not name is refused.
 */

/** One member of the union: an action (a literal, or an enum for a family), its entity and details. */
const member = <A extends z.ZodLiteral<string> | z.ZodEnum, E extends string, D extends z.ZodType>(
  action: A,
  entity: E,
  details: D,
) => z.object({ action, entity: z.literal(entity), entityId: z.string(), details });

/** `${prefix}${name}` for each name, for the enum of an action family (device.<name>, signup.<decision>, …). */
const prefixed = <P extends string, N extends string>(prefix: P, names: readonly N[]) =>
  names.map((name) => `${prefix}${name}` as `${P}${N}`);

const ZArgs = z.record(z.string(), z.unknown());
const ZAppType = z.number().int();
const ZPaise = z.number().int();
const ZAddress = z.object({
  line1: z.string(),
  countryCode: z.string(),
  stateCode: z.string(),
  city: z.string(),
  pincode: z.string().optional(),
});
/** A field's value before and after an edit. */
const zChange = <T extends z.ZodType>(value: T) => z.object({ before: value, after: value });
/** Why a person restricted a phone (lock-reasons): the category, and the note when one was written. */
const REASON_FIELDS = {
  reasonCategory: z.enum(LOCK_REASON_CATEGORIES).optional(),
  reason: z.string().optional(),
};

// Commands: which device commands have a member of their own.

/** The message commands (issue 16): audited with their arguments, never superseding. */
export const MESSAGE_COMMAND_NAMES = ['show_message', 'show_ad'] as const satisfies readonly TCommandName[];
export type TMessageCommandName = (typeof MESSAGE_COMMAND_NAMES)[number];
/** True when `name` is a message command (device.show_message, device.show_ad, their bulk). */
export const isMessageCommandName = (name: string): name is TMessageCommandName =>
  (MESSAGE_COMMAND_NAMES as readonly string[]).includes(name);

/** The command a message feature sends (command-catalogue), audited as device.<name> and device.bulk_<name>. */
export const messageCommandOf = (feature: TMessageFeature): TMessageCommandName => {
  const name = commandSpecOf(feature)?.on;
  if (!name || !isMessageCommandName(name)) throw new Error(`${feature} sends no message command`);
  return name;
};

/** Commands whose entry is a member of their own: a new PIN (its sealed argument is never audited), messages. */
const OWN_MEMBER_COMMANDS: readonly string[] = ['change_pin', ...MESSAGE_COMMAND_NAMES];
/** A command audited as device.<name>, device.schedule_<name> or device.auto_<name>. */
export type TControlCommandName = Exclude<TCommandName, 'change_pin' | TMessageCommandName>;
/** True when `name` is audited as device.<name> (every command but change_pin and the messages). */
export const isControlCommandName = (name: string): name is TControlCommandName =>
  (COMMAND_NAMES as readonly string[]).includes(name) && !OWN_MEMBER_COMMANDS.includes(name);
/** Every command audited as device.<name> (COMMAND_NAMES but change_pin and the message commands). */
export const CONTROL_COMMAND_NAMES: readonly TControlCommandName[] =
  COMMAND_NAMES.filter(isControlCommandName);

// Customers and loans (spec §2 customer screens, §4 statuses).

/** add_customer (spec §2): a customer and its loan were created. */
export const ZCustomerCreateAuditEvent = member(
  z.literal('customer.create'),
  'customer',
  z.strictObject({ loanAmountPaise: ZPaise, tenureMonths: z.number().int() }),
);

/**
 * A customer's status changed (spec §4 codes, domain customer-status: the event that moved it), by
 * hand, enrolment, completion, release or the EMIs-maturing job; the status history reads these.
 */
export const ZCustomerStatusAuditEvent = member(
  z.literal('customer.status'),
  'customer',
  z.strictObject({
    from: z.number().int(),
    to: z.number().int(),
    event: z.enum(CUSTOMER_STATUS_EVENTS),
    reason: z.string(),
  }),
);

const ZDeviceIdentity = z.object({
  imei1: z.string(),
  imei2: z.string().nullable(),
  serialNumber: z.string().nullable(),
});
/** IMEI_EDIT (spec §2): the phone's IMEIs and serial number corrected, old and new. */
export const ZCustomerImeiEditAuditEvent = member(
  z.literal('customer.imei_edit'),
  'customer',
  z.strictObject({ before: ZDeviceIdentity, after: ZDeviceIdentity }),
);

/**
 * The customer's lock consent was recorded (issue 16): the language and text version shown, and
 * the signature taken in the app or, through the partner API (issue 30), the lender's reference to
 * its signed record.
 */
export const ZCustomerConsentAuditEvent = member(
  z.literal('customer.consent'),
  'customer',
  z.strictObject({
    language: z.enum(CONSENT_LANGUAGES),
    textVersion: z.string(),
    signatureMediaId: z.number().int().optional(),
    evidenceReference: z.string().optional(),
  }),
);

/** An iPhone's serial number set or corrected by a person (issue 15, docs/apple.md). */
export const ZCustomerSerialNumberAuditEvent = member(
  z.literal('customer.serial_number'),
  'customer',
  z.strictObject({ deviceId: z.string(), from: z.string().nullable(), to: z.string() }),
);

const HANDOFF_BASE = { financer: z.string().nullable(), attempt: z.number().int() };
/** The outcome of one hand-off of a customer to its financer (spec §7 create-customer-hdb, docs/financers.md). */
export const ZCustomerFinancerHandoffAuditEvent = member(
  z.literal('customer.financer_handoff'),
  'customer',
  z.union([
    z.strictObject({ ...HANDOFF_BASE, outcome: z.literal('done'), reference: z.string() }),
    z.strictObject({ ...HANDOFF_BASE, outcome: z.literal('failed'), error: z.string() }),
  ]),
);

/** One try to hand a customer to its financer: counts the tries and leases the customer (financers.repository). */
export const ZCustomerFinancerHandoffAttemptAuditEvent = member(
  z.literal('customer.financer_handoff_attempt'),
  'customer',
  z.strictObject({ attempt: z.number().int() }),
);

/** A customer's file was stored (spec §3 media: photo, invoice, documents, signatures). */
export const ZMediaUploadAuditEvent = member(
  z.literal('media.upload'),
  'customer',
  z.strictObject({
    mediaId: z.number().int(),
    kind: z.enum(MEDIA_KINDS),
    documentType: z.enum(DOCUMENT_TYPES).nullable(),
    path: z.string(),
    sizeBytes: z.number().int(),
  }),
);

/** A customer's file was deleted (the row is kept, marked deleted). */
export const ZMediaDeleteAuditEvent = member(
  z.literal('media.delete'),
  'customer',
  z.strictObject({ mediaId: z.number().int(), kind: z.string(), path: z.string() }),
);

// EMIs (spec §2 EMI screens; ARCHITECTURE "Money and loans").

/** multiple_emi_paid: a payment, its receipt and how it was allocated to instalments (earliest first). */
export const ZEmiPaymentAuditEvent = member(
  z.literal('emi.payment'),
  'customer',
  z.strictObject({
    paymentId: z.number().int(),
    receiptNo: z.string(),
    amountPaise: ZPaise,
    mode: z.enum(RECORDED_PAYMENT_MODES),
    allocations: z.array(z.object({ instalmentId: z.number().int(), amountPaise: ZPaise })),
    isPaidOff: z.boolean(),
  }),
);

const ZLoanTerms = z.object({
  loanAmountPaise: ZPaise,
  annualRateBps: z.number().int(),
  tenureMonths: z.number().int(),
});
/** EMI_EDIT (spec §2): the loan's terms changed before any payment, old and new. */
export const ZEmiEditTermsAuditEvent = member(
  z.literal('emi.edit_terms'),
  'customer',
  z.strictObject({ before: ZLoanTerms, after: ZLoanTerms }),
);

/** send_penalty: the organisation's late-payment penalty levied on one instalment, with the rule applied. */
export const ZEmiPenaltyAuditEvent = member(
  z.literal('emi.penalty'),
  'customer',
  z.strictObject({
    emiId: z.number().int(),
    instalmentNo: z.number().int(),
    penaltyPaise: ZPaise,
    rule: ZPenaltyRule,
  }),
);

/** update_emi_status: an instalment (or only its penalty) waived, why, and whether the loan is paid off. */
export const ZEmiWaiveAuditEvent = member(
  z.literal('emi.waive'),
  'customer',
  z.strictObject({
    emiId: z.number().int(),
    instalmentNo: z.number().int(),
    status: z.enum(['waived', 'penalty_waived']),
    waivedPaise: ZPaise,
    reason: z.string(),
    isPaidOff: z.boolean(),
  }),
);

/** The customer's EMI PIN was rotated by the retailer (the PIN itself is never audited). */
export const ZEmiPinRotatedAuditEvent = member(z.literal('emi.pin_rotated'), 'customer', z.strictObject({}));

// Keys, plans and online payments (issues 13 and 14, docs/payment-gateway.md).

/** An enrolment QR reserved one of the retailer's keys for a phone (a `reserve` movement, issue 27). */
export const ZLedgerKeyReserveAuditEvent = member(
  z.literal('ledger.key_reserve'),
  'customer',
  z.strictObject({
    movementId: z.number().int(),
    retailerId: z.number().int(),
    appType: ZAppType,
    imei: z.string(),
  }),
);

/**
 * A phone's enrolment spent the key its QR reserved (a `key_use` movement; `reserveMovementId`
 * the reservation). Entries from before issue 27 spent it at the QR and name no reservation.
 */
export const ZLedgerKeyUseAuditEvent = member(
  z.literal('ledger.key_use'),
  'customer',
  z.strictObject({
    movementId: z.number().int(),
    reserveMovementId: z.number().int().optional(),
    retailerId: z.number().int(),
    appType: ZAppType,
    imei: z.string(),
  }),
);

/** A reservation whose enrolment QR lapsed gave its key back to the retailer (a `release` movement). */
export const ZLedgerKeyReleaseAuditEvent = member(
  z.literal('ledger.key_release'),
  'customer',
  z.strictObject({
    movementId: z.number().int(),
    reserveMovementId: z.number().int(),
    appType: ZAppType,
  }),
);

/** A retailer moved keys to one of its mini-retailers or took them back (a `transfer` movement). */
export const ZLedgerTransferAuditEvent = member(
  z.literal('ledger.transfer'),
  'user',
  z.strictObject({
    movementId: z.number().int(),
    appType: ZAppType,
    quantity: z.number().int(),
    direction: z.enum(['to_child', 'from_child']),
  }),
);

/**
 * A key request up the chain (issue 30): asked, approved (with the movement that moved the keys),
 * rejected or withdrawn.
 */
export const ZKeyRequestAuditEvent = member(
  z.enum(['key_request.created', 'key_request.approved', 'key_request.rejected', 'key_request.cancelled']),
  'key_request',
  z.strictObject({
    appType: ZAppType,
    quantity: z.number().int(),
    movementId: z.number().int().optional(),
    note: z.string().optional(),
  }),
);

/** Unused keys returned up the chain (issue 30): to the parent retailer, or to the organisation. */
export const ZKeyReturnAuditEvent = member(
  z.literal('ledger.return'),
  'user',
  z.strictObject({ movementId: z.number().int(), appType: ZAppType, quantity: z.number().int() }),
);

/** A retailer set its price per key to its mini-retailers (issue 30). */
export const ZShopKeyPricesAuditEvent = member(
  z.literal('ledger.shop_key_prices'),
  'user',
  z.strictObject({ pricesPaise: z.record(z.string(), z.number().int()) }),
);

/** Keys credited to a retailer by the organisation (admin route or CLI; a `top_up` movement). */
export const ZLedgerCreditAuditEvent = member(
  z.literal('ledger.credit'),
  'user',
  z.strictObject({
    movementId: z.number().int(),
    appType: ZAppType,
    quantity: z.number().int(),
    note: z.string().nullable(),
  }),
);

/**
 * The key an enrolment QR reserved (before issue 27: spent) given back by the retailer
 * (api/points/refund_key; a `refund` movement); `keyUseMovementId` is the reservation or key use.
 */
export const ZLedgerRefundAuditEvent = member(
  z.literal('ledger.refund'),
  'customer',
  z.strictObject({
    movementId: z.number().int(),
    keyUseMovementId: z.number().int(),
    appType: ZAppType,
    imei: z.string().nullable(),
    note: z.string().nullable(),
  }),
);

/** The admin created or edited a protection plan (issue 14), with the products it applies to. */
export const ZPlanSaveAuditEvent = member(
  z.enum(['plan.create', 'plan.update']),
  'plan',
  z.strictObject({
    name: z.string(),
    appType: ZAppType,
    pricePaise: ZPaise,
    durationMonths: z.number().int(),
    description: z.string(),
    isActive: z.boolean(),
    productIds: z.array(z.number().int()),
  }),
);

/** A retailer sold a protection plan: an activation code, for a customer when it went to one. */
export const ZPlanSellAuditEvent = member(
  z.literal('plan.sell'),
  'plan_activation',
  z.strictObject({ planId: z.number().int(), appType: ZAppType, customerId: z.number().int().nullable() }),
);

/** The app on a phone redeemed an activation code, with what the phone said of itself. */
export const ZPlanRedeemAuditEvent = member(
  z.literal('plan.redeem'),
  'plan_activation',
  z.strictObject({
    imei: z.string().optional(),
    serialNumber: z.string().optional(),
    model: z.string().optional(),
  }),
);

const ZKeyPriceRow = z.object({ appType: ZAppType, unitPricePaise: ZPaise });
/** The admin replaced the organisation's key prices (paths.admin.keyPrices). */
export const ZPaymentsKeyPricesAuditEvent = member(
  z.literal('payments.key_prices'),
  'organization',
  z.strictObject({ before: z.array(ZKeyPriceRow), after: z.array(ZKeyPriceRow) }),
);

/** A payment-gateway order was created (keys to buy, or an instalment a customer pays online). */
export const ZPaymentsOrderAuditEvent = member(
  z.literal('payments.order'),
  'payment_order',
  z.strictObject({
    purpose: z.enum(PAYMENT_PURPOSES),
    amountPaise: ZPaise,
    appType: ZAppType.nullable(),
    quantity: z.number().int().nullable(),
    customerId: z.number().int().nullable(),
    gatewayOrderId: z.string(),
  }),
);

const PAID_BASE = {
  purpose: z.enum(PAYMENT_PURPOSES),
  amountPaise: ZPaise,
  gatewayOrderId: z.string(),
  gatewayPaymentId: z.string(),
  source: z.enum(['callback', 'webhook', 'reconcile']),
};
/**
 * A gateway order was settled once, whoever reported it: keys credited (keys), or the instalment
 * payment recorded with its receipt (instalment).
 */
export const ZPaymentsPaidAuditEvent = member(
  z.literal('payments.paid'),
  'payment_order',
  z.union([
    z.strictObject({ ...PAID_BASE, appType: ZAppType, quantity: z.number().int(), isCredited: z.boolean() }),
    z.strictObject({
      ...PAID_BASE,
      customerId: z.number().int(),
      paymentId: z.number().int(),
      receiptNo: z.string(),
    }),
  ]),
);

/**
 * A UPI AutoPay mandate was set up, or moved by a token event or a cancellation (issue 29,
 * docs/autopay.md): the customer, the move (autopay.rules MANDATE_TRANSITIONS) and who made it.
 */
export const ZAutopayMandateAuditEvent = member(
  z.literal('autopay.mandate'),
  'autopay_mandate',
  z.strictObject({
    customerId: z.number().int(),
    event: z.enum(['set_up', 'confirmed', 'rejected', 'paused', 'resumed', 'cancelled', 'expired']),
    from: z.string().nullable(),
    to: z.string(),
    maxAmountPaise: ZPaise,
    by: z.enum(['customer', 'shop', 'gateway']),
  }),
);

/** A UPI AutoPay charge attempt of an instalment was created, captured (and recorded) or failed. */
export const ZAutopayChargeAuditEvent = member(
  z.literal('autopay.charge'),
  'autopay_charge',
  z.strictObject({
    customerId: z.number().int(),
    emiId: z.number().int(),
    attempt: z.number().int(),
    amountPaise: ZPaise,
    status: z.enum(['created', 'captured', 'failed']),
    gatewayOrderId: z.string().nullable(),
    gatewayPaymentId: z.string().nullable(),
    failureReason: z.string().nullable(),
    receiptNo: z.string().nullable(),
  }),
);

/**
 * The organisation admin added, removed, enabled a webhook endpoint or rotated its secret (issue
 * 30, docs/webhooks.md): its URL, events and status afterwards (never the secret).
 */
export const ZWebhookEndpointAuditEvent = member(
  z.enum([
    'webhook.endpoint_created',
    'webhook.endpoint_removed',
    'webhook.endpoint_enabled',
    'webhook.secret_rotated',
  ]),
  'webhook_endpoint',
  z.strictObject({ url: z.string(), events: z.array(z.string()), status: z.enum(['enabled', 'disabled']) }),
);

/**
 * The organisation admin made or revoked a partner API key (issue 30, docs/partner-api.md): its
 * name, scopes and the retailer its loans are booked under (never the key).
 */
export const ZPartnerKeyAuditEvent = member(
  z.enum(['partner_key.created', 'partner_key.revoked']),
  'partner_key',
  z.strictObject({ name: z.string(), scopes: z.array(z.string()), retailerId: z.number().int() }),
);

// Users, retailers and the organisation (spec §2 retailer screens, §6 access flags).

/** A shop account was linked to a Google account at its first Google sign-in (docs/google-sign-in.md). */
export const ZUserGoogleLinkedAuditEvent = member(
  z.literal('user.google_linked'),
  'user',
  z.strictObject({ by: z.enum(['email', 'mobile']) }),
);

/** The admin CLI created an organisation admin. */
export const ZUserCreateAdminAuditEvent = member(
  z.literal('user.create_admin'),
  'user',
  z.strictObject({ mobile: z.string(), source: z.literal('cli') }),
);

/** A retailer's profile image or signature was stored (spec §9: at most 5 MB). */
export const ZUserImageAuditEvent = member(
  z.enum(['user.profile_image', 'user.signature']),
  'user',
  z.strictObject({ mediaId: z.number().int(), path: z.string(), sizeBytes: z.number().int() }),
);

/** retailer_payment_qr: the shop's UPI ID changed (and its payee name, when that changed too). */
export const ZUserPaymentQrAuditEvent = member(
  z.literal('user.payment_qr'),
  'user',
  z.strictObject({
    before: z.string().nullable(),
    after: z.string(),
    payeeNameBefore: z.string().nullable().optional(),
    payeeNameAfter: z.string().nullable().optional(),
  }),
);

/** The shop uploaded its own payment QR image (replacing the previous one, if any). */
export const ZUserPaymentQrImageAuditEvent = member(
  z.literal('user.payment_qr_image'),
  'user',
  z.strictObject({
    mediaId: z.number().int(),
    path: z.string(),
    sizeBytes: z.number().int(),
    replaced: z.number().int().nullable(),
  }),
);

/** The shop removed its payment QR image. */
export const ZUserPaymentQrImageDeleteAuditEvent = member(
  z.literal('user.payment_qr_image_delete'),
  'user',
  z.strictObject({ mediaId: z.number().int() }),
);

const ZStoredFlags = z.record(z.string(), z.enum(['0', '1']));
/** add_retailer: a retailer added a mini-retailer, with the access flags it set. */
export const ZRetailerCreateAuditEvent = member(
  z.literal('retailer.create'),
  'user',
  z.strictObject({
    name: z.string(),
    shopName: z.string(),
    mobile: z.string(),
    gstNumber: z.string().nullable(),
    access: z.object({ userAccess: ZStoredFlags, lockAccess: ZStoredFlags }),
  }),
);

/** updateUsers: the fields of a mini-retailer its parent changed, each before and after. */
export const ZRetailerUpdateAuditEvent = member(
  z.literal('retailer.update'),
  'user',
  z.strictObject({
    name: zChange(z.string()).optional(),
    shopName: zChange(z.string().nullable()).optional(),
    mobile: zChange(z.string()).optional(),
    email: zChange(z.string().nullable()).optional(),
    gstNumber: zChange(z.string().nullable()).optional(),
    address: zChange(ZAddress.nullable()).optional(),
  }),
);

const ZEffectiveAccess = z.object({ userAccess: ZUserAccess, lockAccess: ZLockAccess });
/** updateUsers: a mini-retailer's effective access flags (spec §6) changed. */
export const ZRetailerAccessAuditEvent = member(
  z.literal('retailer.access'),
  'user',
  z.strictObject({ before: ZEffectiveAccess, after: ZEffectiveAccess }),
);

/** updateUsers: a mini-retailer was deactivated, and how many of its sessions ended with it. */
export const ZRetailerDeactivateAuditEvent = member(
  z.literal('retailer.deactivate'),
  'user',
  z.strictObject({ sessionsEnded: z.number().int() }),
);

/** updateUsers: a mini-retailer was reactivated; when it had been deactivated. */
export const ZRetailerReactivateAuditEvent = member(
  z.literal('retailer.reactivate'),
  'user',
  z.strictObject({ deactivatedAt: z.string().nullable() }),
);

/** A retailer or mini-retailer edited its own profile (issue 16): its date of birth. */
export const ZRetailerUpdateOwnAuditEvent = member(
  z.literal('retailer.update_own'),
  'user',
  z.strictObject({ dateOfBirth: zChange(z.string().nullable()) }),
);

/**
 * SIGNUP_DECISION: the parent (the admin, a distributor; issue 30) approved (creating the retailer
 * or distributor `role`, userId, under `parentId`, null: the organisation) or declined a join request.
 */
export const ZSignupDecisionAuditEvent = member(
  z.enum(prefixed('signup.', ['approve', 'decline'] as const)),
  'signup_request',
  z.strictObject({
    mobile: z.string(),
    shopName: z.string(),
    userId: z.number().int().nullable(),
    // Absent on entries written before issue 30 (a retailer under the organisation).
    role: z.enum(['retailer', 'distributor']).optional(),
    parentId: z.number().int().nullable().optional(),
  }),
);

/** The admin set how many distributor levels the organisation's network has (issue 30). */
export const ZOrgNetworkSettingsAuditEvent = member(
  z.literal('org.network_settings'),
  'organization',
  z.strictObject({ before: z.number().int(), after: z.number().int() }),
);

/** device_settings: the organisation's device-control settings replaced, before and after. */
export const ZOrgDeviceSettingsAuditEvent = member(
  z.literal('org.device_settings'),
  'organization',
  z.strictObject({ before: ZDeviceControlSettings, after: ZDeviceControlSettings }),
);

/** Payment reminders (issue 29): the organisation's schedule replaced, before and after (null: none). */
export const ZOrgRemindersAuditEvent = member(
  z.literal('org.reminders'),
  'organization',
  z.strictObject({ before: ZReminderSettings.nullable(), after: ZReminderSettings.nullable() }),
);

/** The customer refused (or accepted again) WhatsApp reminders (issue 29). */
export const ZCustomerWhatsAppOptOutAuditEvent = member(
  z.literal('customer.whatsapp_opt_out'),
  'customer',
  z.strictObject({ optOut: z.boolean() }),
);

/** The admin set how customers reach the organisation (issue 16), before (null: none) and after. */
export const ZOrgSupportContactAuditEvent = member(
  z.literal('org.support_contact'),
  'organization',
  z.strictObject({ before: ZSupportContact.nullable(), after: ZSupportContact }),
);

/** The admin wrote one of the organisation's pages in one language (entityId `page:language`). */
export const ZOrgPageUpdateAuditEvent = member(
  z.literal('org_page.update'),
  'org_page',
  z.strictObject({ page: z.enum(ORG_PAGES), language: z.enum(ORG_PAGE_LANGUAGES), length: z.number().int() }),
);

/** send_advertisement: a retailer created an advertisement (issue 16), with its image's size if any. */
export const ZAdvertisementCreateAuditEvent = member(
  z.literal('advertisement.create'),
  'advertisement',
  z.strictObject({
    title: z.string(),
    imageMediaId: z.number().int().nullable(),
    sizeBytes: z.number().int().nullable(),
  }),
);

// Device control (design §5, issue 25: every intent passes the command gate).

/** A command a person sent now (spec §6 controls and one-shot actions), the pending ones it superseded and why. */
export const ZDeviceCommandAuditEvent = member(
  z.enum(prefixed('device.', CONTROL_COMMAND_NAMES)),
  'customer',
  z.strictObject({
    deviceId: z.string(),
    commandId: z.string(),
    args: ZArgs,
    superseded: z.array(z.string()),
    ...REASON_FIELDS,
  }),
);

/** A command a person scheduled (`run_at`): it waits, queued, until then. */
export const ZDeviceScheduleAuditEvent = member(
  z.enum(prefixed('device.schedule_', CONTROL_COMMAND_NAMES)),
  'customer',
  z.strictObject({
    deviceId: z.string(),
    commandId: z.string(),
    args: ZArgs,
    runAt: z.string(),
    ...REASON_FIELDS,
  }),
);

/** A command of the auto-lock ladder (no user): a reminder wallpaper, a lock for an overdue EMI, an unlock. */
export const ZDeviceAutoAuditEvent = member(
  z.enum(prefixed('device.auto_', CONTROL_COMMAND_NAMES)),
  'customer',
  z.strictObject({
    deviceId: z.string(),
    commandId: z.string(),
    args: ZArgs,
    reasonCategory: z.enum(LOCK_REASON_CATEGORIES).optional(),
  }),
);

/** A message or advertisement sent to one phone (issue 16). */
export const ZDeviceMessageAuditEvent = member(
  z.enum(prefixed('device.', MESSAGE_COMMAND_NAMES)),
  'customer',
  z.strictObject({ deviceId: z.string(), commandId: z.string(), args: ZArgs }),
);

/** change_device_pinV1: a new screen-lock PIN went out (sealed; the PIN is never audited). */
export const ZDeviceChangePinAuditEvent = member(
  z.literal('device.change_pin'),
  'customer',
  z.strictObject({
    deviceId: z.string(),
    commandId: z.string(),
    superseded: z.array(z.string()),
    ...REASON_FIELDS,
  }),
);

/** The customers a bulk request left out, and why; the bulk progress screen reads them back. */
export const ZBulkSkipped = z.array(z.object({ customerId: z.number().int(), reason: z.string() }));

/** multiple_device_lock_unlock: one bulk lock or unlock (entity the batch): how many phones, who was skipped. */
export const ZDeviceBulkAuditEvent = member(
  z.enum(prefixed('device.bulk_', ['lock', 'unlock'] as const)),
  'batch',
  z.strictObject({
    total: z.number().int(),
    skipped: ZBulkSkipped,
    filter: z.enum(['all_enrolled', 'overdue']).nullable(),
  }),
);

/** A message or advertisement sent to many phones at once (issue 16; entity the batch). */
export const ZDeviceBulkMessageAuditEvent = member(
  z.enum(prefixed('device.bulk_', MESSAGE_COMMAND_NAMES)),
  'batch',
  z.strictObject({ total: z.number().int(), skipped: ZBulkSkipped, args: ZArgs }),
);

const CANCEL_BASE = { deviceId: z.string(), commandId: z.string(), name: z.string() };
/**
 * A pending command cancelled: by a person (`was`: the state it was in), or when due, by the
 * scheduler (`why`: its creator lost the access flag, or the rules refuse it now).
 */
export const ZDeviceCancelAuditEvent = member(
  z.literal('device.cancel'),
  'customer',
  z.union([
    z.strictObject({ ...CANCEL_BASE, was: z.string() }),
    z.strictObject({ ...CANCEL_BASE, why: z.string() }),
  ]),
);

/** A command the phone never took expired (the organisation's command expiry or its notAfter). */
export const ZDeviceExpireAuditEvent = member(
  z.literal('device.expire'),
  'command',
  z.strictObject({ name: z.string(), deviceId: z.string() }),
);

/** get_device_bypass_code: an offline code issued for the phone's challenge and action (never the code). */
export const ZDeviceOfflineCodeAuditEvent = member(
  z.literal('device.offline_code'),
  'customer',
  z.strictObject({
    deviceId: z.string(),
    challenge: z.string(),
    action: z.enum(OFFLINE_CODE_ACTIONS),
    ...REASON_FIELDS,
  }),
);

/**
 * A phone locked or unlocked itself offline (device protocol §12.3) and the policy followed; or,
 * for a paid-up customer (or, for a paid-through lock, one with nothing overdue any more), its
 * lock was undone (lock_undone). Details: the report's data.
 */
export const ZDeviceOfflineLockAuditEvent = member(
  z.enum(prefixed('device.offline_', ['lock', 'unlock', 'lock_undone'] as const)),
  'customer',
  z.union([
    z.strictObject({ deviceId: z.string(), ...ZOfflineCodeLockData.shape }),
    z.strictObject({ deviceId: z.string(), ...ZOfflineLimitLockData.shape }),
    z.strictObject({ deviceId: z.string(), ...ZPaidThroughLockData.shape }),
  ]),
);

/** The loan was paid off (issue 25): pending restrictions cancelled, and the freeing commands sent. */
export const ZDevicePayoffAuditEvent = member(
  z.literal('device.payoff'),
  'customer',
  z.strictObject({
    deviceId: z.string(),
    cancelled: z.array(z.string()),
    commandIds: z.array(z.string()),
    why: z.string(),
  }),
);

const APPLE_ENROL = { channel: z.literal('apple_mdm'), udid: z.string() };
const AMAPI_ENROL = { channel: z.literal('android_management'), mdmId: z.string() };
/** How an MDM phone enrolled: the channel and the MDM's id for it (none for Kisht's own agent). */
export const ZEnrolChannel = z.union([z.strictObject(APPLE_ENROL), z.strictObject(AMAPI_ENROL)]);
export type TEnrolChannel = z.infer<typeof ZEnrolChannel>;
/** A phone enrolled (docs/enrolment.md), by any family; the customer became installed. */
export const ZDeviceEnrolAuditEvent = member(
  z.literal('device.enrol'),
  'customer',
  z.union([
    z.strictObject({ deviceId: z.string() }),
    z.strictObject({ deviceId: z.string(), ...APPLE_ENROL }),
    z.strictObject({ deviceId: z.string(), ...AMAPI_ENROL }),
  ]),
);

/** A retried enrolment: a new device secret replaced the one whose response was lost. */
export const ZDeviceEnrolRetryAuditEvent = member(
  z.literal('device.enrol_retry'),
  'customer',
  z.strictObject({ deviceId: z.string() }),
);

/** A link-based customer's enrolment code was issued (get_customers_keygen), valid until expiresAt. */
export const ZDeviceEnrolmentCodeAuditEvent = member(
  z.literal('device.enrolment_code'),
  'customer',
  z.strictObject({ deviceId: z.string(), expiresAt: z.string() }),
);

/** A link-based enrolment code was exchanged for its enrolment token. */
export const ZDeviceEnrolmentCodeUsedAuditEvent = member(
  z.literal('device.enrolment_code_used'),
  'customer',
  z.strictObject({ deviceId: z.string() }),
);

/** The phone reported different SIMs (spec §6 SIM tracking), before and after. */
export const ZDeviceSimChangeAuditEvent = member(
  z.literal('device.sim_change'),
  'customer',
  z.strictObject({ deviceId: z.string(), before: z.array(ZSimSlot), after: z.array(ZSimSlot) }),
);

/** The link-based app was removed from the phone (device protocol §15.3): where, and the commands ended. */
export const ZDeviceAppRemovedAuditEvent = member(
  z.literal('device.app_removed'),
  'customer',
  z.strictObject({
    deviceId: z.string(),
    location: z.object({ latitude: z.string(), longitude: z.string(), at: z.string() }),
    cancelledCommands: z.number().int(),
  }),
);

/**
 * Firebase Cloud Messaging refused the phone's push token for good (issue 27, docs/fcm.md), so
 * wake-ups to it stopped: `unregistered` (dead) or `rejected` (malformed, another sender's), with
 * FCM's error code (`SENDER_ID_MISMATCH`, `INVALID_ARGUMENT`, `UNREGISTERED`, or the HTTP status
 * when FCM named none). Never the token: `tokenFingerprint`, the first 16 hex digits of its
 * SHA-256, tells one token from another, so a token is recorded once and customer_details can tell
 * whether the phone has registered a new one since (its `device.pushRefusal`).
 */
export const ZDevicePushTokenRefusedAuditEvent = member(
  z.literal('device.push_token_refused'),
  'customer',
  z.strictObject({
    deviceId: z.string(),
    reason: z.enum(PUSH_REFUSAL_REASONS),
    fcmError: z.string(),
    tokenFingerprint: z.string().regex(/^[0-9a-f]{16}$/),
  }),
);

// Apple (issue 15, docs/apple.md).

/** An iPhone enrolled with another serial number than the one recorded: the enrolment was ignored. */
export const ZAppleSerialMismatchAuditEvent = member(
  z.literal('apple.serial_mismatch'),
  'customer',
  z.strictObject({ deviceId: z.string(), udid: z.string(), reported: z.string(), expected: z.string() }),
);

/** The iPhone's MDM profile was removed (CheckOut); apple-mdm reads when it last happened. */
export const ZAppleCheckoutAuditEvent = member(
  z.literal('apple.checkout'),
  'customer',
  z.strictObject({ deviceId: z.string(), udid: z.string() }),
);

/**
 * Every audit entry the server writes (design §6), one member per action or action family, told
 * apart by `action`. The server's insertAudit takes only these (TypeScript refuses an unknown
 * action or a wrong details shape) and, under test, parses every entry with this schema.
 */
export const ZAuditEvent = z.discriminatedUnion('action', [
  ZAutopayMandateAuditEvent,
  ZAutopayChargeAuditEvent,
  ZWebhookEndpointAuditEvent,
  ZPartnerKeyAuditEvent,
  ZKeyRequestAuditEvent,
  ZKeyReturnAuditEvent,
  ZShopKeyPricesAuditEvent,
  ZCustomerCreateAuditEvent,
  ZCustomerStatusAuditEvent,
  ZCustomerImeiEditAuditEvent,
  ZCustomerConsentAuditEvent,
  ZCustomerSerialNumberAuditEvent,
  ZCustomerFinancerHandoffAuditEvent,
  ZCustomerFinancerHandoffAttemptAuditEvent,
  ZMediaUploadAuditEvent,
  ZMediaDeleteAuditEvent,
  ZEmiPaymentAuditEvent,
  ZEmiEditTermsAuditEvent,
  ZEmiPenaltyAuditEvent,
  ZEmiWaiveAuditEvent,
  ZEmiPinRotatedAuditEvent,
  ZLedgerKeyReserveAuditEvent,
  ZLedgerKeyUseAuditEvent,
  ZLedgerKeyReleaseAuditEvent,
  ZLedgerTransferAuditEvent,
  ZLedgerCreditAuditEvent,
  ZLedgerRefundAuditEvent,
  ZPlanSaveAuditEvent,
  ZPlanSellAuditEvent,
  ZPlanRedeemAuditEvent,
  ZPaymentsKeyPricesAuditEvent,
  ZPaymentsOrderAuditEvent,
  ZPaymentsPaidAuditEvent,
  ZUserGoogleLinkedAuditEvent,
  ZUserCreateAdminAuditEvent,
  ZUserImageAuditEvent,
  ZUserPaymentQrAuditEvent,
  ZUserPaymentQrImageAuditEvent,
  ZUserPaymentQrImageDeleteAuditEvent,
  ZRetailerCreateAuditEvent,
  ZRetailerUpdateAuditEvent,
  ZRetailerAccessAuditEvent,
  ZRetailerDeactivateAuditEvent,
  ZRetailerReactivateAuditEvent,
  ZRetailerUpdateOwnAuditEvent,
  ZSignupDecisionAuditEvent,
  ZOrgDeviceSettingsAuditEvent,
  ZOrgNetworkSettingsAuditEvent,
  ZOrgRemindersAuditEvent,
  ZCustomerWhatsAppOptOutAuditEvent,
  ZOrgSupportContactAuditEvent,
  ZOrgPageUpdateAuditEvent,
  ZAdvertisementCreateAuditEvent,
  ZDeviceCommandAuditEvent,
  ZDeviceScheduleAuditEvent,
  ZDeviceAutoAuditEvent,
  ZDeviceMessageAuditEvent,
  ZDeviceChangePinAuditEvent,
  ZDeviceBulkAuditEvent,
  ZDeviceBulkMessageAuditEvent,
  ZDeviceCancelAuditEvent,
  ZDeviceExpireAuditEvent,
  ZDeviceOfflineCodeAuditEvent,
  ZDeviceOfflineLockAuditEvent,
  ZDevicePayoffAuditEvent,
  ZDeviceEnrolAuditEvent,
  ZDeviceEnrolRetryAuditEvent,
  ZDeviceEnrolmentCodeAuditEvent,
  ZDeviceEnrolmentCodeUsedAuditEvent,
  ZDeviceSimChangeAuditEvent,
  ZDeviceAppRemovedAuditEvent,
  ZDevicePushTokenRefusedAuditEvent,
  ZAppleSerialMismatchAuditEvent,
  ZAppleCheckoutAuditEvent,
]);
export type TAuditEvent = z.infer<typeof ZAuditEvent>;
/** Every action the server audits (a member's literal, or one name of a family). */
export type TAuditAction = TAuditEvent['action'];
/** The member of `action`: its entity and details (e.g. TAuditEventOf<'customer.status'>['details']). */
export type TAuditEventOf<A extends TAuditAction> = TAuditEvent extends infer E
  ? E extends { action: infer X }
    ? A extends X
      ? E
      : never
    : never
  : never;
