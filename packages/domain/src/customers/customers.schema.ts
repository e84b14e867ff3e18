import { z } from 'zod';
import {
  APP_TYPE_CODES,
  CUSTOMER_STATUS_CODES,
  CUSTOMER_STATUS_WORDS,
  DEVICE_TYPE_CODES,
  STATUS_FILTER_ALL,
} from '../common/enums';
import { ZIsoDate, zPage } from '../common/envelope';
import { ZId, ZImei, ZMobile, ZQueryId } from '../common/identifiers';
import { istDate } from '../common/time';
import { ENROLMENT_KINDS, isAppTypeOfDeviceType } from '../devices/device-families';
import { ZDeviceSummary } from '../devices/devices.schema';
import { ZInstalmentRow } from '../emi/emi.schema';

const ZPaise = z.number().int('Amount must be whole paise').nonnegative('Amount cannot be negative');

/** Interest methods of a loan. */
export const INTEREST_METHODS = ['reducing', 'flat'] as const;

/** A postal address; country and state are ISO codes from the country-state-city data (csc routes). */
export const ZAddress = z.object({
  line1: z.string().trim().min(1, 'This is a required field').max(200),
  countryCode: z.string().regex(/^[A-Z]{2}$/, 'Choose a country'),
  stateCode: z.string().trim().min(1, 'Choose a state').max(10),
  city: z.string().trim().min(1, 'Choose a city').max(100),
  pincode: z
    .string()
    .regex(/^\d{6}$/, 'PIN code is 6 digits')
    .optional(),
});
export type TAddress = z.infer<typeof ZAddress>;

/**
 * A stored address as the server shows it: the codes and the full names of the country and state
 * (from the same country-state-city data the csc routes serve), so every screen writes it out the
 * same way (formatAddress) without looking the names up.
 */
export const ZCustomerAddress = ZAddress.extend({
  /** Full country name, e.g. India (the code when the data does not know it). */
  countryName: z.string(),
  /** Full state name, e.g. Maharashtra (the code when the data does not know it). */
  stateName: z.string(),
});
export type TCustomerAddress = z.infer<typeof ZCustomerAddress>;

/**
 * Add-customer request (spec §2 add_customer, §3 form field names). Money in paise; the amount
 * financed is loanAmountPaise, scheduled over tenureMonths at annualRateBps.
 */
export const ZCreateCustomerRequest = z
  .object({
    firstName: z.string().trim().min(1, 'This is a required field').max(60),
    lastName: z.string().trim().min(1, 'This is a required field').max(60),
    email: z
      .string()
      .trim()
      .email('Enter a valid email')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    mobile: ZMobile,
    deviceType: z.union(DEVICE_TYPE_CODES.map((c) => z.literal(c))).default(0),
    appType: z.union(APP_TYPE_CODES.map((c) => z.literal(c))).default(0),
    imei1: ZImei,
    imei2: ZImei,
    productId: ZId,
    pricePaise: ZPaise,
    downPaymentPaise: ZPaise,
    loanAmountPaise: ZPaise.positive('Loan amount must be more than zero'),
    /** Annual interest in basis points (1050 = 10.5 %). */
    annualRateBps: z.number().int().min(0).max(10_000),
    tenureMonths: z
      .number()
      .int()
      .min(1, 'Tenure must be 1 to 120 months')
      .max(120, 'Tenure must be 1 to 120 months'),
    /** First due date; defaults to one month after today (+05:30) when absent. */
    firstDueDate: ZIsoDate.optional(),
    /** Reducing-balance (default) or flat-rate interest (see buildEmiSchedule). */
    interestMethod: z.enum(INTEREST_METHODS).default('reducing'),
    /** Processing fee collected with the down payment, paise (not part of the schedule). */
    processingFeePaise: ZPaise.default(0),
    /** Financer of the loan, from financer_list. */
    financerId: ZId.optional(),
    dateOfBirth: ZIsoDate.optional(),
    address: ZAddress.optional(),
    /** Device serial number; required for Apple devices (device_type 3), which have no IMEI-based enrolment. */
    serialNumber: z.string().trim().max(40).optional(),
  })
  .superRefine((value, ctx) => {
    if (!isAppTypeOfDeviceType(value.deviceType, value.appType)) {
      ctx.addIssue({
        code: 'custom',
        path: ['appType'],
        message: 'This app type is not sold for this device type',
      });
    }
    if (value.deviceType === 3 && !value.serialNumber) {
      ctx.addIssue({ code: 'custom', path: ['serialNumber'], message: 'This is a required field' });
    }
    if (value.dateOfBirth && value.dateOfBirth >= istDate()) {
      ctx.addIssue({ code: 'custom', path: ['dateOfBirth'], message: 'Date of birth must be in the past' });
    }
    if (value.imei1 === value.imei2) {
      ctx.addIssue({ code: 'custom', path: ['imei2'], message: 'IMEI 2 must differ from IMEI 1' });
    }
    if (value.downPaymentPaise > value.pricePaise) {
      ctx.addIssue({
        code: 'custom',
        path: ['downPaymentPaise'],
        message: 'Down payment cannot exceed the price',
      });
    }
  });
export type TCreateCustomerRequest = z.input<typeof ZCreateCustomerRequest>;

export const ZCustomerListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(60).optional(),
  status: z.enum([STATUS_FILTER_ALL, ...CUSTOMER_STATUS_WORDS]).default(STATUS_FILTER_ALL),
  /** Only this retailer's customers: the actor or (for a retailer) one of its mini-retailers. */
  retailer_id: ZQueryId.optional(),
});
export type TCustomerListQuery = z.input<typeof ZCustomerListQuery>;

export const ZCustomerIdQuery = z.object({ customer_id: ZQueryId });

export const ZCustomerStatusCode = z.union(CUSTOMER_STATUS_CODES.map((c) => z.literal(c)));

export const ZCustomerListItem = z.object({
  id: ZId,
  firstName: z.string(),
  lastName: z.string(),
  mobile: z.string(),
  imei1: z.string(),
  productName: z.string(),
  status: ZCustomerStatusCode,
  /** Spec §4 lock status: 1 locked, 0 unlocked. */
  lockStatus: z.number().int(),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
});
export type TCustomerListItem = z.infer<typeof ZCustomerListItem>;

export const ZCustomerPage = zPage(ZCustomerListItem);
export type TCustomerPage = z.infer<typeof ZCustomerPage>;

/** An instalment as customer_details lists it: the EMI details row without outstanding and status. */
export const ZEmiRow = ZInstalmentRow.pick({
  id: true,
  instalmentNo: true,
  dueDate: true,
  amountPaise: true,
  principalPaise: true,
  interestPaise: true,
  paidPaise: true,
});
export type TEmiRow = z.infer<typeof ZEmiRow>;

/**
 * Why wake-ups to a phone stopped (issue 27, docs/fcm.md): Firebase Cloud Messaging refused its push
 * token for good, `unregistered` (a dead token: the app was removed or the token expired) or
 * `rejected` (malformed, or issued for another Firebase project).
 */
export const PUSH_REFUSAL_REASONS = ['rejected', 'unregistered'] as const;
export type TPushRefusalReason = (typeof PUSH_REFUSAL_REASONS)[number];

/**
 * customer_details' `device.pushRefusal`: FCM's newest refusal of the phone's push token, when the
 * phone has not registered another token since. `at` is ISO 8601 UTC.
 */
export const ZPushRefusal = z.object({ reason: z.enum(PUSH_REFUSAL_REASONS), at: z.string() });
export type TPushRefusal = z.infer<typeof ZPushRefusal>;

/**
 * customer_details. With the actor's lock access `read` flag '0' (spec §6) it still answers, but
 * the lock section is blank: `lockStatus` and `device.lockStatus` null and no command information
 * (`device.pendingCommand` and `device.lastCommand` null, `device.pendingControls` empty), as the
 * command history refuses that actor outright (403 naming lock.read).
 */
export const ZCustomerDetails = ZCustomerListItem.extend({
  /** Spec §4 lock status, 1 locked, 0 unlocked; null when the actor's lock access `read` is '0'. */
  lockStatus: z.number().int().nullable(),
  email: z.string().nullable(),
  appType: z.number().int(),
  deviceType: z.number().int(),
  productId: ZId,
  imei2: z.string(),
  dateOfBirth: z.string().nullable(),
  address: ZCustomerAddress.nullable(),
  serialNumber: z.string().nullable(),
  financerName: z.string().nullable(),
  /** The financer's own reference for the customer (HDB hand-off), or null until it answers. */
  financerReference: z.string().nullable().optional(),
  /** The hand-off to the financer (HDB): pending, done or failed (retried); null when none is needed. */
  financerHandoffStatus: z.enum(['pending', 'done', 'failed']).nullable().optional(),
  /** image_name of the newest customer photo (customer_profile), or null. */
  photoImageName: z.string().nullable(),
  loan: z.object({
    interestMethod: z.enum(INTEREST_METHODS),
    processingFeePaise: z.number().int(),
    pricePaise: z.number().int(),
    downPaymentPaise: z.number().int(),
    loanAmountPaise: z.number().int(),
    annualRateBps: z.number().int(),
    tenureMonths: z.number().int(),
    emiPaise: z.number().int(),
  }),
  device: ZDeviceSummary.extend({
    /**
     * Wake-ups to the phone stopped because FCM refused its push token (issue 27), until the phone
     * registers a new token; null otherwise (absent from a server before issue 27: read as null).
     */
    pushRefusal: ZPushRefusal.nullable().optional(),
  }),
  emis: z.array(ZEmiRow),
  /**
   * Where the phone was when the link-based app was removed (spec §3 customer details: uninstall
   * latitude and longitude, as strings; 'Bypassed' when the phone had no fix), or null.
   */
  uninstallLatitude: z.string().nullable().optional(),
  uninstallLongitude: z.string().nullable().optional(),
});
export type TCustomerDetails = z.infer<typeof ZCustomerDetails>;

/**
 * What the add-customer form starts the loan with: the organisation's annual interest rate in
 * basis points (organisation settings defaultAnnualRateBps; 0 when it has none).
 */
export const ZLoanDefaults = z.object({ annualRateBps: z.number().int().min(0).max(10_000) });
export type TLoanDefaults = z.infer<typeof ZLoanDefaults>;

/** The enrolment QR of customer_navigate: Android device-owner provisioning JSON (design §5). */
export const ZEnrolmentQr = z.object({
  /** What the phone is handed, by device family (see enrolmentKindOf; issue 15). */
  kind: z.enum(ENROLMENT_KINDS),
  /**
   * The exact text to encode in the QR code: the provisioning JSON (android_provisioning,
   * managed_android, serialised), the deep link (link) or the enrolment profile URL (apple_profile).
   */
  payload: z.string(),
  /** When the one-time enrolment token in the payload expires, ISO 8601 UTC. */
  expiresAt: z.string(),
  /** Where the app's APK is downloaded from (android_provisioning, link), when there is one. */
  apkUrl: z.string().optional(),
  /** A short code the link-based app accepts instead of the link (generate_emm_code), when issued. */
  enrolmentCode: z.string().optional(),
});
export type TEnrolmentQr = z.infer<typeof ZEnrolmentQr>;

/** Change a customer's status by hand (see canChangeStatus), with a reason for the audit trail. */
export const ZUpdateStatusRequest = z.object({
  customer_id: ZId,
  status: ZCustomerStatusCode,
  reason: z.string().trim().min(3, 'Say why, in a few words').max(200),
});
export type TUpdateStatusRequest = z.input<typeof ZUpdateStatusRequest>;

/** One status change of a customer: who, when, from, to, why. `at` is ISO 8601 UTC. */
export const ZStatusChange = z.object({
  at: z.string(),
  fromStatus: z.number().int().nullable(),
  toStatus: z.number().int(),
  reason: z.string().nullable(),
  actorName: z.string().nullable(),
});
export type TStatusChange = z.infer<typeof ZStatusChange>;

/**
 * IMEI_EDIT: correct the phone's IMEIs (and serial number for Apple). Both IMEIs are Luhn-checked
 * and must differ; they must not belong to another device of the organisation.
 */
export const ZUpdateImeiRequest = z
  .object({
    customer_id: ZId,
    imei1: ZImei,
    imei2: ZImei,
    serialNumber: z.string().trim().max(40).optional(),
  })
  .refine((v) => v.imei1 !== v.imei2, { path: ['imei2'], message: 'IMEI 2 must differ from IMEI 1' });
export type TUpdateImeiRequest = z.input<typeof ZUpdateImeiRequest>;
