import type { TPenaltyRule } from '@kisht/domain/emi/emi.schema';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** White-label organisations (spec §1). theme/features/settings are JSON documents. */
export const organizations = pgTable('organizations', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  companyName: text('company_name').notNull(),
  theme: jsonb('theme')
    .$type<{ primaryColor: string; secondaryColor: string; logoUrl: string | null }>()
    .notNull(),
  mainLayout: text('main_layout').$type<'default' | 'compact'>().notNull().default('default'),
  /** Per-organisation page choices (spec §1), e.g. what opening an inactive customer does (spec §2). */
  pages: jsonb('pages')
    .$type<{ dashboard: 'cards' | 'list'; inactiveCustomer: 'navigate' | 'warn' }>()
    .notNull()
    .default({ dashboard: 'cards', inactiveCustomer: 'navigate' }),
  features: jsonb('features').$type<{ witnessLayout: boolean; paymentGateway: boolean }>().notNull(),
  aiName: text('ai_name').notNull().default(''),
  aiAgentId: text('ai_agent_id').notNull().default(''),
  /** Organisation settings: default interest rate (basis points), API base URL ('' = same origin). */
  settings: jsonb('settings')
    .$type<{
      defaultAnnualRateBps?: number;
      apiBaseUrl?: string;
      penalty?: TPenaltyRule;
      /** Spec §6 allowed list of control features; absent means the device family's defaults. */
      allowedControls?: string[];
      /** Phones lock themselves after this many hours without a check-in (design §5); absent: never. */
      offlineLockAfterHours?: number;
      /**
       * Grace days after an unpaid instalment's due date before the phone locks itself for its
       * paid-through date (device protocol §12.5); null: the paid-through lock is off; absent:
       * DEFAULT_PAID_THROUGH_GRACE_DAYS.
       */
      paidThroughGraceDays?: number | null;
      /** Hours after which an undelivered command expires; absent means commands never expire. */
      commandExpiryHours?: number;
      /**
       * payment_gateway: the price of one key by app_type (key: the app_type as text), paise; an
       * app_type absent here cannot be bought online ('Please contact admin for prices').
       */
      keyPricesPaise?: Record<string, number>;
      /**
       * The auto-lock ladder: an EMI reminder wallpaper `reminderDaysBefore` days before a due date,
       * a lock once an instalment is `lockAfterDaysOverdue` days overdue, and an unlock when the
       * overdue instalments are paid (`autoUnlock`). Absent: no automatic commands.
       */
      autoLock?: {
        reminderDaysBefore: number | null;
        lockAfterDaysOverdue: number | null;
        autoUnlock: boolean;
      };
      /**
       * The "how to pay" text a locked phone shows (device protocol §9.2; ZLockScreenText); absent:
       * none.
       */
      lockScreenText?: string;
      /** The support page's contact links (issue 16): phone and WhatsApp in E.164, an e-mail address. */
      supportContact?: { phone?: string; whatsapp?: string; email?: string };
      /** A "keys running low" notification when a user's balance of an app_type falls to this; default 5. */
      lowKeysThreshold?: number;
      /** An "offline for N days" notification after this many days without a check-in; default 3. */
      offlineNotifyDays?: number;
      /**
       * Payment reminders (issue 29): the days from a due date an unpaid instalment is reminded on
       * (negative: before) and the channels; absent: none.
       */
      reminders?: { offsetsDays: number[]; channels: Array<'phone' | 'sms' | 'whatsapp'> };
      /** Distributor levels of the network (issue 30, network.rules); default 2. */
      distributorLevels?: number;
    }>()
    .notNull()
    .default({}),
  createdAt: createdAt(),
});

/**
 * Retailers, mini-retailers (parent_id → retailer), distributors and customers who log in. The
 * distribution network (issue 30, packages/domain network.rules): a distributor's parent_id is a
 * distributor one level up or null (the organisation); a retailer's a distributor or null.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id),
    parentId: integer('parent_id'),
    userType: text('user_type')
      .$type<'retailer' | 'miniretailer' | 'customer' | 'admin' | 'distributor'>()
      .notNull(),
    name: text('name').notNull(),
    mobile: text('mobile').notNull(),
    /** Retailers and mini-retailers: the shop's name (add_retailer). */
    shopName: text('shop_name'),
    /**
     * A retailer's price per key to its mini-retailers (issue 30 key requests), paise by app_type
     * code; null or an app_type left out: the organisation's price.
     */
    keyPricesPaise: jsonb('key_prices_paise').$type<Record<string, number>>(),
    email: text('email'),
    /** GSTIN, 15 characters (validated by ZGstNumber); optional. */
    gstNumber: text('gst_number'),
    address: jsonb('address').$type<{
      line1: string;
      countryCode: string;
      stateCode: string;
      city: string;
      pincode?: string | undefined;
    }>(),
    /** Profile image and the retailer's own signature (media rows owned by this user). */
    profileImageMediaId: integer('profile_image_media_id'),
    signatureMediaId: integer('signature_media_id'),
    /** An uploaded payment QR image (retailer_payment_qr), shown instead of the generated one. */
    paymentQrMediaId: integer('payment_qr_media_id'),
    /** The payee name in the UPI intent (`pn`); null: the user's name. */
    upiPayeeName: text('upi_payee_name'),
    /** False once deactivated by the parent retailer: no login, sessions ended. */
    isActive: boolean('is_active').notNull().default(true),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /** The OpenID Connect subject (`sub`) of a linked Google account; null: not linked. */
    googleSubject: text('google_subject'),
    /** scrypt hash of the 4-digit MPIN (`salthex:hashhex`); null until set. */
    mpinHash: text('mpin_hash'),
    /** Wrong MPIN tries since the last success; at the limit the MPIN locks until mpin_locked_until. */
    mpinFailedAttempts: integer('mpin_failed_attempts').notNull().default(0),
    mpinLockedUntil: timestamp('mpin_locked_until', { withTimezone: true }),
    /** The retailer's UPI VPA (e.g. ravimobiles@okaxis) customers pay EMIs to. */
    upiId: text('upi_id'),
    /** Retailers and mini-retailers: date of birth (YYYY-MM-DD), for the dashboard's birthday celebration. */
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    /** Server overrides of the spec §6 access flags ('1' allowed, '0' denied); absent keys use the defaults. */
    access: jsonb('access')
      .$type<{ userAccess?: Record<string, '0' | '1'>; lockAccess?: Record<string, '0' | '1'> }>()
      .notNull()
      .default({}),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_org_mobile_type_uq').on(t.orgId, t.mobile, t.userType),
    index('users_parent_idx').on(t.parentId),
    uniqueIndex('users_org_google_subject_uq').on(t.orgId, t.googleSubject),
  ],
);

/** Login sessions; a JWT names its session, and a revoked or expired one answers 511 (design §6). */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    userAgent: text('user_agent'),
    /** Client headers of spec §7, as sent at login. */
    platform: text('platform'),
    browserName: text('browser_name'),
    browserVersion: text('browser_version'),
    deviceType: text('device_type'),
    devicePlatform: text('device_platform'),
    deviceDetails: jsonb('device_details'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** One-time passwords: only an HMAC of the code is stored; attempts and expiry are enforced. */
export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    mobile: text('mobile').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /** When the SMS carrying the code left for the gateway; null while queued (or never, unknown mobile). */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When the last wrong code was tried against this challenge (the growing cool-down). */
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('otp_lookup_idx').on(t.orgId, t.mobile, t.purpose, t.createdAt),
    // Per-number caps across organisations and purposes (SMS a day, wrong codes a day).
    index('otp_mobile_created_idx').on(t.mobile, t.createdAt),
  ],
);

/**
 * Text messages waiting for, or handed to, the SMS gateway (a transactional outbox). state moves
 * queued → sent, or failed after the last retry, or expired past not_after (an OTP nobody can use).
 * The body is cleared once the row ends, so no OTP stays in clear.
 */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    /** E.164 mobile. */
    mobile: text('mobile').notNull(),
    /** OTP purpose (spec §4) or another reason (SIM_CHANGE, …). */
    purpose: text('purpose').notNull(),
    /** The rendered text (what the webhook gets); cleared when the row ends. */
    body: text('body'),
    /** The DLT template it was rendered from (modules/sms/sms-templates.ts); null on older rows. */
    templateKind: text('template_kind'),
    /** The template's variables by name (what MSG91 gets, an OTP among them); cleared with the body. */
    templateVars: jsonb('template_vars').$type<Record<string, string>>(),
    state: text('state').$type<'queued' | 'sent' | 'failed' | 'expired'>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** The OTP challenge this message carries, if any (its sent_at follows the row). */
    otpChallengeId: integer('otp_challenge_id'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    notAfter: timestamp('not_after', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('sms_outbox_due_idx').on(t.nextAttemptAt).where(sql`state = 'queued'`),
    index('sms_outbox_mobile_created_idx').on(t.mobile, t.createdAt),
  ],
);

/** Per-organisation counters (receipt numbers, …): `value` is the last number handed out. */
export const orgCounters = pgTable(
  'org_counters',
  {
    orgId: integer('org_id').notNull(),
    name: text('name').notNull(),
    value: bigint('value', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('org_counters_pk').on(t.orgId, t.name)],
);

/** Phone models an organisation sells. Price in paise. */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    brand: text('brand').notNull(),
    name: text('name').notNull(),
    pricePaise: bigint('price_paise', { mode: 'number' }).notNull(),
    /** The phone's platform (domain PRODUCT_PLATFORMS): an iPhone is financed as an Apple customer only. */
    platform: text('platform').$type<'android' | 'ios'>().notNull().default('android'),
    createdAt: createdAt(),
  },
  (t) => [check('products_platform_known', sql`${t.platform} in ('android', 'ios')`)],
);

/** Financers (NBFCs, banks) an organisation's loans can be booked with (financer_list). */
export const financers = pgTable('financers', {
  id: serial('id').primaryKey(),
  orgId: integer('org_id').notNull(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

/** Customers and their loan terms (money in paise). status: spec §4 codes 0–6. */
export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    retailerId: integer('retailer_id')
      .notNull()
      .references(() => users.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    mobile: text('mobile').notNull(),
    status: smallint('status').notNull().default(0),
    appType: smallint('app_type').notNull(),
    deviceType: smallint('device_type').notNull(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    pricePaise: bigint('price_paise', { mode: 'number' }).notNull(),
    downPaymentPaise: bigint('down_payment_paise', { mode: 'number' }).notNull(),
    loanAmountPaise: bigint('loan_amount_paise', { mode: 'number' }).notNull(),
    annualRateBps: integer('annual_rate_bps').notNull(),
    tenureMonths: integer('tenure_months').notNull(),
    emiPaise: bigint('emi_paise', { mode: 'number' }).notNull(),
    interestMethod: text('interest_method').$type<'reducing' | 'flat'>().notNull().default('reducing'),
    /** Collected with the down payment; not part of the schedule. */
    processingFeePaise: bigint('processing_fee_paise', { mode: 'number' }).notNull().default(0),
    financerId: integer('financer_id').references(() => financers.id),
    /** The financer's own reference for this customer (HDB hand-off); null until the financer answers. */
    financerReference: text('financer_reference'),
    /** Hand-off to the financer: null (none needed), pending, done or failed (then retried). */
    financerHandoffStatus: text('financer_handoff_status').$type<'pending' | 'done' | 'failed'>(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    /** The customer refused WhatsApp reminders (issue 29); SMS and the phone still remind them. */
    whatsappOptOut: boolean('whatsapp_opt_out').notNull().default(false),
    /** customer_emi_pin: 6-digit payment reference, unique in the organisation; null until issued. */
    emiPin: text('emi_pin'),
    emiPinUpdatedAt: timestamp('emi_pin_updated_at', { withTimezone: true }),
    address: jsonb('address').$type<{
      line1: string;
      countryCode: string;
      stateCode: string;
      city: string;
      pincode?: string | undefined;
    }>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('customers_org_retailer_created_idx').on(t.orgId, t.retailerId, t.createdAt),
    index('customers_org_status_idx').on(t.orgId, t.status),
    uniqueIndex('customers_org_emi_pin_uq').on(t.orgId, t.emiPin),
  ],
);

/**
 * Customer counts kept by triggers on customers (migration 0018, issue 17), so the customer list's
 * `total` costs the same with 100 or 100,000 customers: per organisation, retailer and status, how
 * many customers there are (kind 0, name ''), and how many have each first name (kind 1) and each
 * last name (kind 2). A name search sums the names matching it (trigram index on name). Rows whose
 * total fell to 0 stay.
 */
export const customerCounts = pgTable(
  'customer_counts',
  {
    orgId: integer('org_id').notNull(),
    /** 0: every customer of the retailer and status; 1: by first name; 2: by last name. */
    kind: smallint('kind').notNull(),
    name: text('name').notNull(),
    retailerId: integer('retailer_id').notNull(),
    status: smallint('status').notNull(),
    total: integer('total').notNull(),
  },
  (t) => [uniqueIndex('customer_counts_key_uq').on(t.orgId, t.kind, t.name, t.retailerId, t.status)],
);

/**
 * Financed devices: identity, enrolment, credentials and state. desired_locked is what we asked
 * for; reported_locked is what the device last confirmed (design §5).
 */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    imei1: text('imei1').notNull(),
    imei2: text('imei2').notNull(),
    /** Serial number (required for Apple devices). */
    serialNumber: text('serial_number'),
    enrolmentTokenHash: text('enrolment_token_hash'),
    enrolmentExpiresAt: timestamp('enrolment_expires_at', { withTimezone: true }),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
    secretHash: text('secret_hash'),
    desiredLocked: boolean('desired_locked').notNull().default(false),
    /**
     * The desired state of every toggle feature but lock (device protocol §6: feature → on and the
     * `on` command's args); with desired_locked, the device policy.
     */
    desiredControls: jsonb('desired_controls')
      .$type<Record<string, { on: boolean; args?: Record<string, unknown> }>>()
      .notNull()
      .default({}),
    /**
     * The offline limit the policy carries (device protocol §6, §12.2), ms; null: none. The
     * organisation's setting, copied at enrolment and with every change of it.
     */
    desiredOfflineLockAfterMs: bigint('desired_offline_lock_after_ms', { mode: 'number' }),
    /**
     * The paid-through date the policy carries (device protocol §12.5, issue 29), UTC: the phone
     * locks itself once this passes, even offline. The end of the oldest unpaid instalment's due
     * day (+05:30) plus the organisation's grace days; null: none (a paid-up loan, or the
     * organisation turned the paid-through lock off).
     */
    desiredPaidThrough: timestamp('desired_paid_through', { withTimezone: true }),
    /** The device policy's version: one more with every change of desired_locked or desired_controls. */
    policyVersion: bigint('policy_version', { mode: 'number' }).notNull().default(0),
    /** When the current policy version was made (its issuedAt). */
    policyUpdatedAt: timestamp('policy_updated_at', { withTimezone: true }),
    /**
     * What a locked phone shows (device protocol §6 lockScreen): retailer, phone, amount overdue,
     * how to pay; set with each lock edit of the policy, null when none was set.
     */
    desiredLockScreen: jsonb('desired_lock_screen').$type<Record<string, unknown>>(),
    /** The policy version the device reported it applied last, or null before it reported one. */
    reportedPolicyVersion: bigint('reported_policy_version', { mode: 'number' }),
    /** The phone's FCM registration token for wake-up pushes (device protocol §14), or null. */
    pushToken: text('push_token'),
    /** When the last wake-up push went to the phone (at most one a minute). */
    lastWokenAt: timestamp('last_woken_at', { withTimezone: true }),
    reportedLocked: boolean('reported_locked').notNull().default(false),
    isOnline: boolean('is_online').notNull().default(false),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /**
     * The seq (docs/device-protocol.md §4) of the event the reported state came from: an event with
     * a lower seq no longer changes it. Null until a device sends seqs.
     */
    reportedSeq: bigint('reported_seq', { mode: 'number' }),
    /** The connection the device last said hello on; only its `gone` will marks the device offline. */
    connectionId: text('connection_id'),
    /** Reported on/off state of toggle features (control feature → on), from the device's events. */
    reportedControls: jsonb('reported_controls').$type<Record<string, boolean>>().notNull().default({}),
    /** SIM slots the device last reported. */
    sims: jsonb('sims').$type<{ slot: number; iccid: string | null; operator: string | null }[]>(),
    /** The newest location fix (spec §3: latitude and longitude as strings). */
    lastLocation: jsonb('last_location').$type<{
      latitude: string;
      longitude: string;
      accuracyM?: number | undefined;
      at: string;
    }>(),
    /**
     * How Kisht reaches the phone (issue 15): 'mqtt' (device policy controller and link-based app:
     * Kisht's device channel), 'apple_mdm' (an iPhone through NanoMDM) or 'android_management'
     * (Google's Android Management API). Set from the customer's device_type when the device is made.
     */
    channel: text('channel').notNull().default('mqtt'),
    /**
     * The phone's id at its MDM service: NanoMDM's enrolment id (the UDID) or the Android
     * Management API device name (enterprises/{e}/devices/{d}); null before it enrols there.
     */
    mdmId: text('mdm_id'),
    /** What the MDM service last reported about the phone (DeviceInformation, hardwareInfo), or null. */
    mdmInfo: jsonb('mdm_info').$type<Record<string, unknown>>(),
    /** When mdm_info was reported (UTC). */
    mdmInfoAt: timestamp('mdm_info_at', { withTimezone: true }),
    /**
     * SHA-256 of the short enrolment code typed into the link-based app instead of scanning
     * (generate_emm_code); it stands for the current enrolment token and expires with it.
     */
    enrolmentCodeHash: text('enrolment_code_hash'),
    /** Where the phone was when the app was removed (spec §3 uninstall latitude/longitude), or null. */
    uninstallLocation: jsonb('uninstall_location').$type<{
      latitude: string;
      longitude: string;
      at: string;
    }>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('devices_customer_uq').on(t.customerId),
    uniqueIndex('devices_channel_mdm_id_uq').on(t.channel, t.mdmId),
    uniqueIndex('devices_enrolment_code_uq').on(t.orgId, t.enrolmentCodeHash),
    uniqueIndex('devices_org_imei1_uq').on(t.orgId, t.imei1),
    uniqueIndex('devices_org_imei2_uq').on(t.orgId, t.imei2),
    uniqueIndex('devices_enrolment_token_uq').on(t.enrolmentTokenHash),
  ],
);

/**
 * Commands Kisht handed to an MDM service for a phone (issue 15): one row per Apple MDM command
 * enqueued at NanoMDM or Android Management API command issued, so the service's answer (NanoMDM's
 * webhook, the API's operation) finds the device command or policy version it carries out.
 */
export const mdmCommands = pgTable(
  'mdm_commands',
  {
    /** NanoMDM's CommandUUID, or the Android Management API operation name. */
    id: text('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id),
    /** Apple's RequestType (DeviceLock, EnableLostMode…) or the API's command type (LOCK, REBOOT…). */
    requestType: text('request_type').notNull(),
    /** The one-shot device command it carries out, or null (a policy step). */
    commandId: uuid('command_id'),
    /** The policy version it applies, or null (a one-shot command). */
    policyVersion: bigint('policy_version', { mode: 'number' }),
    /** sent → acknowledged | error | not_now. */
    status: text('status').notNull().default('sent'),
    /** What the service answered (the decoded report), or null. */
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('mdm_commands_device_idx').on(t.deviceId, t.createdAt)],
);

/** The instalment schedule, one row per EMI (paise; due_date is a calendar date). */
export const emis = pgTable(
  'emis',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    instalmentNo: integer('instalment_no').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    principalPaise: bigint('principal_paise', { mode: 'number' }).notNull(),
    interestPaise: bigint('interest_paise', { mode: 'number' }).notNull(),
    paidPaise: bigint('paid_paise', { mode: 'number' }).notNull().default(0),
    /** Late-payment penalty levied (send_penalty); included in amount_paise. */
    penaltyPaise: bigint('penalty_paise', { mode: 'number' }).notNull().default(0),
    /** Amount waived (update_emi_status); included in paid_paise, never collected money. */
    waivedPaise: bigint('waived_paise', { mode: 'number' }).notNull().default(0),
    /**
     * When the lender's `instalment.overdue` webhook was written for it (issue 30, once per
     * instalment); null while not overdue or not yet told.
     */
    overdueToldAt: timestamp('overdue_told_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('emis_customer_no_uq').on(t.customerId, t.instalmentNo),
    // Unpaid instalments by due date: up_coming_emi, counts, outstanding.
    index('emis_unpaid_due_idx').on(t.orgId, t.dueDate).where(sql`paid_paise < amount_paise`),
  ],
);

/** Money received from a customer (design §6: every money movement is audited). */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    receiptNo: text('receipt_no').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    mode: text('mode').notNull(),
    reference: text('reference'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    recordedBy: integer('recorded_by').references(() => users.id),
    /** The client's Idempotency-Key for this payment: a retry with it answers this receipt. */
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the request the key came with; the same key with another request is refused. */
    idempotencyFingerprint: text('idempotency_fingerprint'),
  },
  (t) => [
    uniqueIndex('payments_org_receipt_uq').on(t.orgId, t.receiptNo),
    uniqueIndex('payments_org_idempotency_uq')
      .on(t.orgId, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
    index('payments_customer_idx').on(t.customerId),
    index('payments_org_received_idx').on(t.orgId, t.receivedAt),
  ],
);

/**
 * The customer's consent to remote locking, recorded before an enrolment QR can be made: the
 * text shown, in the customer's language, who recorded it, when, and the customer's signature.
 */
export const customerConsents = pgTable(
  'customer_consents',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** Language code of the text (spec language list, e.g. en, hn, ta). */
    language: text('language').notNull(),
    /** Version of the consent text, so a changed text is told apart. */
    textVersion: text('text_version').notNull(),
    /** The exact text the customer agreed to. */
    text: text('text').notNull(),
    /** The customer's signature image (media kind signature). */
    signatureMediaId: integer('signature_media_id').references(() => media.id),
    /**
     * The lender's reference to the signed record when the consent came through the partner API
     * (its own e-sign or form, issue 30) instead of a signature taken in the app; else null.
     */
    evidenceReference: text('evidence_reference'),
    recordedBy: integer('recorded_by')
      .notNull()
      .references(() => users.id),
    consentedAt: timestamp('consented_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('customer_consents_customer_uq').on(t.customerId)],
);

/** How a payment was applied to instalments. */
export const paymentAllocations = pgTable(
  'payment_allocations',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    emiId: integer('emi_id')
      .notNull()
      .references(() => emis.id),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('payment_allocations_payment_idx').on(t.paymentId),
    // What was paid towards an instalment (collections: efficiency and roll rates, issue 29).
    index('payment_allocations_emi_idx').on(t.emiId),
  ],
);

/**
 * The payment-reminder outbox (issue 29): one row per instalment, schedule offset and channel,
 * written when it falls due (unique, so each is sent once), sent when `send_after` has come and the
 * quiet hours are over, and then followed to delivered and read by the channel's reports.
 */
export const reminders = pgTable(
  'reminders',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** Its instalment; a schedule rebuilt before any payment (EMI_EDIT) takes its reminders with it. */
    emiId: integer('emi_id')
      .notNull()
      .references(() => emis.id, { onDelete: 'cascade' }),
    /** Days from the instalment's due date (negative: before). */
    offsetDays: integer('offset_days').notNull(),
    channel: text('channel').$type<'phone' | 'sms' | 'whatsapp'>().notNull(),
    state: text('state')
      .$type<'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'cancelled'>()
      .notNull()
      .default('queued'),
    /** Not before this instant (the end of the quiet hours when it fell due in them). */
    sendAfter: timestamp('send_after', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Why it failed or was cancelled. */
    lastError: text('last_error'),
    /** The channel's id of what was sent: WhatsApp's wamid, the SMS outbox row, the command id. */
    providerRef: text('provider_ref'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reminders_emi_offset_channel_uq').on(t.emiId, t.offsetDays, t.channel),
    index('reminders_due_idx').on(t.sendAfter).where(sql`state = 'queued'`),
    index('reminders_customer_idx').on(t.customerId, t.createdAt),
    index('reminders_provider_ref_idx').on(t.providerRef),
  ],
);

/**
 * The command outbox (design §5): a row first, a message second. state moves
 * queued → sent → received → done | failed, or cancelled | expired. id is a UUIDv7.
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: uuid('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id),
    name: text('name').notNull(),
    args: jsonb('args').$type<Record<string, unknown>>().notNull().default({}),
    state: text('state').notNull().default('queued'),
    error: text('error'),
    createdBy: integer('created_by').references(() => users.id),
    /** How many times the message was published (first send and re-sends). */
    deliveryAttempts: integer('delivery_attempts').notNull().default(0),
    /** When the message was last published, or claimed for a re-send (see claimUnacknowledgedCommands). */
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    /** What the device returned with its done ack (location fix, SIM slots), or null. */
    result: jsonb('result').$type<Record<string, unknown>>(),
    /** Bulk request (multiple_device_lock_unlock) this command belongs to, or null. */
    batchId: uuid('batch_id'),
    /** When the command expires undelivered (only where the organisation sets an expiry). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * A one-shot command's staleness (device protocol §7, `notAfter`): the phone drops it after
     * this, and the expiry job ends it `expired`. Set when it goes out (written, or released by the
     * scheduler); null for lock/toggle commands, which travel as policies.
     */
    notAfter: timestamp('not_after', { withTimezone: true }),
    /** A scheduled command goes out at this time; null once due (or for commands sent at once). */
    runAt: timestamp('run_at', { withTimezone: true }),
    /**
     * Why a restricting command was sent (issue 25): its reason category (domain
     * LOCK_REASON_CATEGORIES), null for a command that does not restrict.
     */
    reasonCategory: text('reason_category'),
    /** The note a person wrote with the reason (required with the category `other`), or null. */
    reason: text('reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('device_commands_pending_idx')
      .on(t.deviceId, t.createdAt)
      .where(sql`state in ('queued', 'sent', 'received')`),
    index('device_commands_batch_idx').on(t.batchId),
    index('device_commands_run_at_idx').on(t.runAt).where(sql`run_at is not null`),
    index('device_commands_device_created_idx').on(t.deviceId, t.createdAt),
  ],
);

/**
 * A bulk lock or unlock (multiple_device_lock_unlock, issue 26) as a job: the request judges its
 * customers, writes this row with the accepted ones and answers; their commands are then written
 * and published in chunks (devices bulk-jobs.service), `written` counting how many of
 * `customer_ids` have theirs. A process working on it refreshes claimed_at with every chunk; a
 * batch whose claim went stale is taken up by another (the bulk job). Done once all are written.
 */
export const bulkBatches = pgTable(
  'bulk_batches',
  {
    id: uuid('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    action: text('action').notNull(),
    filter: text('filter'),
    /** The customers the request accepted, in customer-id order. */
    customerIds: integer('customer_ids').array().notNull(),
    /** How many of customer_ids have their command written (a prefix). */
    written: integer('written').notNull().default(0),
    /** Customers left out, with why: by the request, then by the gate when their chunk was written. */
    skipped: jsonb('skipped').$type<{ customerId: number; reason: string }[]>().notNull().default([]),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('bulk_batches_open_idx').on(t.createdAt).where(sql`done_at is null`)],
);

/**
 * Each organisation's Ed25519 key that signs what the server sends its devices (device protocol
 * §5): DER SPKI public and PKCS#8 private key, base64. Devices get the public half at enrolment.
 */
export const orgSigningKeys = pgTable('org_signing_keys', {
  orgId: integer('org_id').primaryKey(),
  kid: text('kid').notNull(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: createdAt(),
});

/** Who did what, when: every command and money movement (design §6). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    actorUserId: integer('actor_user_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_org_entity_idx').on(t.orgId, t.entity, t.entityId)],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Uploaded files of customers (design §6): photo, invoice attachment, documents and signatures.
 * The bytes live in the database so every API process sees them; `path` is the per-organisation
 * storage path of spec §3 (`{orgId}/{kind}/{uuid}.{ext}`), unique, and the name clients fetch by.
 */
export const media = pgTable(
  'media',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    /** The customer a file belongs to; null for a retailer's own files (then owner_user_id). */
    customerId: integer('customer_id').references(() => customers.id),
    /** The retailer or mini-retailer a file belongs to (profile image, signature, payment QR). */
    ownerUserId: integer('owner_user_id').references(() => users.id),
    kind: text('kind').notNull(),
    documentType: text('document_type'),
    path: text('path').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    content: bytea('content').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('media_path_uq').on(t.path),
    index('media_customer_idx').on(t.customerId, t.kind, t.createdAt),
  ],
);

/** Location fixes of devices: fetch_location results, tracking reports, uninstall location (spec §3). */
export const locations = pgTable(
  'locations',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id),
    /** Strings as the spec's location result has them ('Bypassed' when the fix was refused). */
    latitude: text('latitude').notNull(),
    longitude: text('longitude').notNull(),
    accuracyM: integer('accuracy_m'),
    source: text('source').$type<'command' | 'tracking' | 'uninstall'>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('locations_device_at_idx').on(t.deviceId, t.at)],
);

/** SIM changes a device reported: the slots before and after (sim_changes screen). */
export const simChanges = pgTable(
  'sim_changes',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    before: jsonb('before')
      .$type<{ slot: number; iccid: string | null; operator: string | null }[]>()
      .notNull(),
    after: jsonb('after')
      .$type<{ slot: number; iccid: string | null; operator: string | null }[]>()
      .notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sim_changes_org_detected_idx').on(t.orgId, t.detectedAt)],
);

/**
 * A shop's request to become a retailer (`/api/user/signup_request`), decided by an organisation
 * admin. One pending request per organisation and mobile.
 */
export const signupRequests = pgTable(
  'signup_requests',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    name: text('name').notNull(),
    shopName: text('shop_name').notNull(),
    mobile: text('mobile').notNull(),
    city: text('city').notNull(),
    status: text('status').$type<'pending' | 'approved' | 'declined'>().notNull().default('pending'),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The retailer or distributor created on approval. */
    userId: integer('user_id').references(() => users.id),
    /** What it joins as (issue 30): a retailer or a distributor. */
    role: text('role').$type<'retailer' | 'distributor'>().notNull().default('retailer'),
    /** The distributor it joins under, who decides; null: the organisation (its admins decide). */
    parentId: integer('parent_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('signup_requests_parent_idx').on(t.orgId, t.parentId, t.status),
    uniqueIndex('signup_requests_pending_uq').on(t.orgId, t.mobile).where(sql`status = 'pending'`),
    index('signup_requests_org_created_idx').on(t.orgId, t.createdAt),
  ],
);

/**
 * Accounts of the key ledger (double entry). A retailer or mini-retailer has one account
 * (`kind` user); each organisation has system accounts: `issuance` (admin credits come from it),
 * `sales` (keys bought through the payment gateway), `reserved` (keys held by enrolment QRs whose
 * phone has not enrolled yet, issue 27) and `consumption` (keys spent on enrolments).
 * Only user accounts must stay at or above zero.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    kind: text('kind').$type<'user' | 'issuance' | 'sales' | 'reserved' | 'consumption'>().notNull(),
    userId: integer('user_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_uq').on(t.userId),
    uniqueIndex('ledger_accounts_org_system_uq').on(t.orgId, t.kind).where(sql`user_id IS NULL`),
  ],
);

/**
 * One movement of keys (a top-up, a transfer, a key reserved by an enrolment QR, a reservation
 * returned when its QR expired, a key spent on an enrolment, a refund, a purchase):
 * `quantity` keys of `app_type` leave `from_account_id` and reach `to_account_id`. Its two sides are
 * the ledger_entries rows.
 */
export const ledgerMovements = pgTable(
  'ledger_movements',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    kind: text('kind')
      .$type<'top_up' | 'transfer' | 'reserve' | 'release' | 'key_use' | 'refund' | 'purchase' | 'return'>()
      .notNull(),
    appType: smallint('app_type').notNull(),
    quantity: integer('quantity').notNull(),
    fromAccountId: integer('from_account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    toAccountId: integer('to_account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    /** reserve, release, key_use and refund: the customer and the phone (IMEI 1) the key is for. */
    customerId: integer('customer_id').references(() => customers.id),
    imei: text('imei'),
    /** purchase: the payment order that paid for it (credited once). */
    paymentOrderId: uuid('payment_order_id'),
    /** key_use of a protection plan sold (issue 14): the activation the key was spent on. */
    planActivationId: integer('plan_activation_id'),
    actorUserId: integer('actor_user_id').references(() => users.id),
    note: text('note'),
    /** key_use: when the key was given back (a refund movement); a refunded phone is charged again. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** reserve: when the reservation ended, spent by the phone's enrolment or returned (issue 27). */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_movements_org_created_idx').on(t.orgId, t.createdAt, t.id),
    check('ledger_movements_quantity_positive', sql`${t.quantity} > 0`),
    uniqueIndex('ledger_movements_payment_order_uq').on(t.paymentOrderId),
    uniqueIndex('ledger_movements_key_use_uq')
      .on(t.orgId, t.imei, t.appType)
      .where(sql`kind = 'key_use' AND refunded_at IS NULL`),
    uniqueIndex('ledger_movements_open_reserve_uq')
      .on(t.orgId, t.imei, t.appType)
      .where(sql`kind = 'reserve' AND settled_at IS NULL`),
  ],
);

/** The two sides of a movement: −quantity on the source account, +quantity on the destination. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: serial('id').primaryKey(),
    movementId: integer('movement_id')
      .notNull()
      .references(() => ledgerMovements.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    appType: smallint('app_type').notNull(),
    delta: integer('delta').notNull(),
  },
  (t) => [index('ledger_entries_account_idx').on(t.accountId, t.appType)],
);

/**
 * The running balance of each user account per app_type: always the sum of its entries (a test
 * checks it), kept so that a spend is one guarded `UPDATE … WHERE balance >= n` and two enrolments
 * at once never spend the same key.
 */
export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    appType: smallint('app_type').notNull(),
    balance: integer('balance').notNull().default(0),
  },
  (t) => [
    uniqueIndex('ledger_balances_pk').on(t.accountId, t.appType),
    check('ledger_balances_non_negative', sql`${t.balance} >= 0`),
  ],
);

/**
 * An order at the payment gateway (Razorpay model: order → checkout → signed payment): keys bought
 * by a retailer, or an instalment paid by a customer. Credited or recorded exactly once.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose').$type<'keys' | 'instalment'>().notNull(),
    /** keys: the app_type and number of keys bought. */
    appType: smallint('app_type'),
    quantity: integer('quantity'),
    /** instalment: the customer whose instalments are paid. */
    customerId: integer('customer_id').references(() => customers.id),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('INR'),
    gatewayOrderId: text('gateway_order_id').notNull(),
    gatewayPaymentId: text('gateway_payment_id'),
    status: text('status').$type<'created' | 'paid' | 'failed'>().notNull().default('created'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** instalment: the payment recorded for it. */
    paymentId: integer('payment_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_orders_gateway_order_uq').on(t.gatewayOrderId),
    index('payment_orders_org_user_idx').on(t.orgId, t.userId, t.createdAt),
  ],
);

/**
 * A protection plan an organisation sells (issue 14): anti-theft (app_type 4, 9), extended warranty
 * (5), family care (7) or anti-hacking (8, 12, 13). Price in paise, duration in whole months. A plan
 * with no rows in plan_products applies to every product.
 */
export const plans = pgTable(
  'plans',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    name: text('name').notNull(),
    appType: smallint('app_type').notNull(),
    pricePaise: bigint('price_paise', { mode: 'number' }).notNull(),
    durationMonths: integer('duration_months').notNull(),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('plans_org_app_type_idx').on(t.orgId, t.appType),
    check('plans_price_non_negative', sql`${t.pricePaise} >= 0`),
    check('plans_duration_range', sql`${t.durationMonths} BETWEEN 1 AND 120`),
  ],
);

/** The products a plan applies to (none: every product). */
export const planProducts = pgTable(
  'plan_products',
  {
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
  },
  (t) => [uniqueIndex('plan_products_pk').on(t.planId, t.productId)],
);

/**
 * A plan sold (issue 14): the buyer, the activation code (unguessable, unique per organisation),
 * the key it cost, and, once the app on the customer's phone redeems the code, when and on what.
 * Extended warranty keeps its IMEI and term (starts_on, ends_on: +05:30 calendar days).
 */
export const planActivations = pgTable(
  'plan_activations',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    appType: smallint('app_type').notNull(),
    /** The retailer or mini-retailer who sold it (whose key it spent). */
    retailerId: integer('retailer_id')
      .notNull()
      .references(() => users.id),
    /** Sold to an existing financed customer; null for a stand-alone sale. */
    customerId: integer('customer_id').references(() => customers.id),
    productId: integer('product_id').references(() => products.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    email: text('email'),
    mobile: text('mobile').notNull(),
    imei: text('imei'),
    code: text('code').notNull(),
    pricePaise: bigint('price_paise', { mode: 'number' }).notNull(),
    startsOn: date('starts_on', { mode: 'string' }),
    endsOn: date('ends_on', { mode: 'string' }),
    status: text('status').$type<'issued' | 'redeemed'>().notNull().default('issued'),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    /** What the redeeming app said of the phone (model, serial number, IMEI). */
    redeemedDevice: jsonb('redeemed_device').$type<Record<string, string>>(),
    /** The last expiry reminder sent (extended warranty), so each is sent once. */
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('plan_activations_org_code_uq').on(t.orgId, t.code),
    index('plan_activations_org_retailer_idx').on(t.orgId, t.retailerId, t.createdAt),
    index('plan_activations_customer_idx').on(t.customerId),
  ],
);

/**
 * A retailer's advertisement (send_advertisement, `/upload/update_retailer_ad`): a title, a text and
 * an optional image (a `media` row of kind `advertisement`, compressed per spec §5). The newest
 * of a retailer is the one its app shows where `showAd` allows (spec §3 local storage).
 */
export const advertisements = pgTable(
  'advertisements',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    /** The retailer or mini-retailer whose ad it is. */
    retailerId: integer('retailer_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    body: text('body').notNull(),
    imageMediaId: integer('image_media_id').references(() => media.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('advertisements_retailer_idx').on(t.retailerId, t.createdAt)],
);

/**
 * One sending of an advertisement to phones: the `show_ad` commands written for it share
 * `device_commands.batch_id` = this id, so delivery progress is read as a bulk lock's is.
 */
export const advertisementSends = pgTable(
  'advertisement_sends',
  {
    /** The batch id of its device commands (UUIDv7). */
    id: uuid('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    advertisementId: integer('advertisement_id')
      .notNull()
      .references(() => advertisements.id),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    /** Phones a command was written for, and customers left out (not enrolled, uninstalled…). */
    targetCount: integer('target_count').notNull(),
    skippedCount: integer('skipped_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('advertisement_sends_ad_idx').on(t.advertisementId, t.createdAt)],
);

/**
 * In-app notifications (`/api/notifications`) for a retailer, mini-retailer or customer user: what
 * happened (`kind`) with the facts to word it (`params`, rendered in the reader's language), the
 * customer it is about, and when it was read. `dedupe_key` makes a generator idempotent (one
 * "offline for N days" per phone and day, one "plan expiring" per activation).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, string | number | null>>().notNull().default({}),
    customerId: integer('customer_id').references(() => customers.id),
    dedupeKey: text('dedupe_key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('notifications_user_unread_idx').on(t.userId).where(sql`read_at is null`),
    uniqueIndex('notifications_user_dedupe_uq').on(t.userId, t.dedupeKey),
  ],
);

/**
 * An organisation's help, support and privacy_policy pages (markdown, rendered safely), one row
 * per page and interface language (spec §1 codes); a language without a row falls back to `en`.
 */
export const orgPages = pgTable(
  'org_pages',
  {
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id),
    page: text('page').$type<'help' | 'support' | 'privacy_policy'>().notNull(),
    language: text('language').notNull(),
    bodyMarkdown: text('body_markdown').notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('org_pages_pk').on(t.orgId, t.page, t.language)],
);

/**
 * A customer's UPI AutoPay mandate at the payment gateway (issue 29, docs/autopay.md; Razorpay
 * model: a gateway customer, an authorisation order with a recurring token, the token's id once
 * the customer approves it). `status` follows the domain's mandate transition table
 * (autopay.rules). At most one live (created, active, paused) mandate per customer.
 */
export const autopayMandates = pgTable(
  'autopay_mandates',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    status: text('status')
      .$type<'created' | 'active' | 'paused' | 'cancelled' | 'rejected' | 'expired'>()
      .notNull()
      .default('created'),
    maxAmountPaise: bigint('max_amount_paise', { mode: 'number' }).notNull(),
    frequency: text('frequency').notNull(),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    gatewayCustomerId: text('gateway_customer_id').notNull(),
    authOrderId: text('auth_order_id').notNull(),
    /** The UPI intent (`upi://mandate…`) the customer's app opens to approve it. */
    authLink: text('auth_link'),
    tokenId: text('token_id'),
    /** Who ended it (customer, shop, gateway) and why, once final. */
    endedBy: text('ended_by').$type<'customer' | 'shop' | 'gateway'>(),
    endReason: text('end_reason'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('autopay_mandates_live_uq')
      .on(t.customerId)
      .where(sql`status in ('created', 'active', 'paused')`),
    uniqueIndex('autopay_mandates_auth_order_uq').on(t.authOrderId),
    uniqueIndex('autopay_mandates_token_uq').on(t.tokenId),
    index('autopay_mandates_active_idx').on(t.status).where(sql`status = 'active'`),
  ],
);

/**
 * One charge attempt of one instalment on a mandate: a gateway order and a recurring payment.
 * The unique (emi, attempt) makes the charge job idempotent across runs and processes; `payment_id`
 * is the payment recorded (emi recordPayment) once the gateway captured it.
 */
export const autopayCharges = pgTable(
  'autopay_charges',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').notNull(),
    mandateId: integer('mandate_id')
      .notNull()
      .references(() => autopayMandates.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    emiId: integer('emi_id')
      .notNull()
      .references(() => emis.id),
    attempt: smallint('attempt').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    status: text('status').$type<'created' | 'captured' | 'failed'>().notNull().default('created'),
    /** The +05:30 day the attempt was made. */
    chargeDate: date('charge_date', { mode: 'string' }).notNull(),
    gatewayOrderId: text('gateway_order_id'),
    gatewayPaymentId: text('gateway_payment_id'),
    failureReason: text('failure_reason'),
    paymentId: integer('payment_id'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('autopay_charges_emi_attempt_uq').on(t.emiId, t.attempt),
    uniqueIndex('autopay_charges_gateway_order_uq').on(t.gatewayOrderId),
    index('autopay_charges_mandate_idx').on(t.mandateId, t.createdAt),
  ],
);

/**
 * A lender's webhook receiver (issue 30, docs/webhooks.md): the events it takes and its signing
 * secret (`whsec_` + base64, Standard Webhooks). After a rotation the previous secret also signs
 * until `previous_secret_expires_at`. Disabled when a message to it failed its whole retry schedule.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    status: text('status').$type<'enabled' | 'disabled'>().notNull().default('enabled'),
    disabledReason: text('disabled_reason'),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('webhook_endpoints_org_idx').on(t.orgId)],
);

/**
 * The webhook outbox: one message per event and endpoint, written in the transaction of what it
 * tells, delivered by the "webhooks" job with retries (webhooks.rules WEBHOOK_RETRY_DELAYS_MS).
 * `ordering_key` (the device, or the customer) keeps one device's messages in order: a message
 * waits while an earlier one of its key to the same endpoint is pending.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    /** `msg_` + 26 characters: the `webhook-id` of every attempt. */
    id: text('id').primaryKey(),
    seq: serial('seq').notNull(),
    orgId: integer('org_id').notNull(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    eventType: text('event_type').notNull(),
    orderingKey: text('ordering_key').notNull(),
    /** The body sent, exactly: `{ type, timestamp, data }` (Standard Webhooks' payload shape). */
    body: text('body').notNull(),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
    attempts: smallint('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: smallint('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_messages_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_messages_endpoint_idx').on(t.endpointId, t.seq),
    index('webhook_messages_order_idx').on(t.endpointId, t.orderingKey, t.seq),
  ],
);

/**
 * A lender's partner API keys (issue 30, docs/partner-api.md), made and revoked by the
 * organisation admin. The key's text is `kisht_pk_<public_id>_<secret>`; only the secret's SHA-256
 * (hex) is kept, so a database leak reveals no key. Its loans are booked under `retailer_id` (an
 * active shop of the organisation, whose enrolment keys they spend); it sees the whole
 * organisation's customers.
 */
export const partnerApiKeys = pgTable(
  'partner_api_keys',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id),
    retailerId: integer('retailer_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** 12 lowercase letters and digits: finds the key. */
    publicId: text('public_id').notNull(),
    /** SHA-256 of the key's secret part, hex. */
    secretHash: text('secret_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: integer('revoked_by'),
  },
  (t) => [
    uniqueIndex('partner_api_keys_public_id_uq').on(t.publicId),
    index('partner_api_keys_org_idx').on(t.orgId),
  ],
);

/**
 * Key requests up the chain (issue 30, docs/key-requests.md): a shop asks its parent for keys (a
 * mini-retailer its retailer, `parent_id`; a retailer its organisation, `parent_id` null) at the
 * parent's price; the parent approves (the ledger movement `movement_id` moves the keys) or
 * rejects, once (the status changes only from pending).
 */
export const keyRequests = pgTable(
  'key_requests',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id),
    requesterId: integer('requester_id')
      .notNull()
      .references(() => users.id),
    /** The retailer asked, or null for the organisation (its admins decide). */
    parentId: integer('parent_id').references(() => users.id),
    appType: smallint('app_type').notNull(),
    quantity: integer('quantity').notNull(),
    /** The parent's price per key when asked, paise; null when it had none. */
    unitPricePaise: bigint('unit_price_paise', { mode: 'number' }),
    paymentReference: text('payment_reference'),
    status: text('status')
      .$type<'pending' | 'approved' | 'rejected' | 'cancelled'>()
      .notNull()
      .default('pending'),
    decidedBy: integer('decided_by').references(() => users.id),
    decisionNote: text('decision_note'),
    movementId: integer('movement_id').references(() => ledgerMovements.id),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('key_requests_parent_idx').on(t.orgId, t.parentId, t.status),
    index('key_requests_requester_idx').on(t.requesterId),
    check('key_requests_quantity_positive', sql`${t.quantity} > 0`),
  ],
);
