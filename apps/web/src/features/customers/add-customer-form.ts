import { zodResolver } from '@hookform/resolvers/zod';
import type { TAppType, TDeviceType } from '@kisht/domain/common/enums';
import { AppType, DeviceType } from '@kisht/domain/common/enums';
import type { TFieldError } from '@kisht/domain/common/envelope';
import { addDays, istDate } from '@kisht/domain/common/time';
import type { TCreateCustomerRequest } from '@kisht/domain/customers/customers.schema';
import { ZCreateCustomerRequest } from '@kisht/domain/customers/customers.schema';
import type { TInstalment, TInterestMethod } from '@kisht/domain/emi/emi.rules';
import { addMonthsToDate, buildEmiSchedule } from '@kisht/domain/emi/emi.rules';
import type { FieldError, FieldPath } from 'react-hook-form';
import { fieldMessageKey, type TValidationKey } from '../../lib/form-errors';

/** Tenure choices of the add-customer form, months. */
export const TENURE_OPTIONS = [3, 6, 9, 12, 18, 24] as const;
const DEFAULT_TENURE_MONTHS = 12;
/** The address country the form starts with: India (ISO 3166-1 alpha-2). */
export const DEFAULT_COUNTRY_CODE = 'IN';

/** Digits of an IMEI as typed, at most 15 (the add-customer form and the IMEI dialogs clean with it). */
export const imeiDigits = (value: string): string => value.replace(/\D/g, '').slice(0, 15);

/** The fields the form holds as numbers: money in paise, interest in basis points, ids, months. */
type TNumberField =
  | 'productId'
  | 'pricePaise'
  | 'downPaymentPaise'
  | 'processingFeePaise'
  | 'loanAmountPaise'
  | 'annualRateBps'
  | 'tenureMonths';

/**
 * What the add-customer form holds: the request itself (TCreateCustomerRequest, money in paise,
 * interest in basis points), except that a number field a person has cleared is undefined and one
 * they mistyped is NaN, so the domain schema reports them. Optional fields left empty are
 * undefined, never '' (the schema would read '' as a malformed date or PIN code).
 */
export type TAddCustomerValues = Omit<TCreateCustomerRequest, TNumberField> &
  TMaybeEmpty<Pick<TCreateCustomerRequest, TNumberField>>;
/** Each field of T may also be undefined (optional fields stay optional). */
type TMaybeEmpty<T> = { [K in keyof T]: T[K] | undefined };
/** A field of the form, as react-hook-form names it (`address.city`). */
export type TAddCustomerPath = FieldPath<TAddCustomerValues>;
/** What the form sends once the domain schema has accepted it (mobile in E.164, defaults filled in). */
export type TAddCustomerPayload = ReturnType<typeof ZCreateCustomerRequest.parse>;

/**
 * The form's starting values. The fields of later steps start with values of the right type (0
 * for the product, the price and the loan, not empty): zod runs the schema's cross-field rules
 * (Apple serial number, IMEI 2 ≠ IMEI 1, date of birth in the past) only once every field has
 * the right type, and a step not filled in yet must not hide an earlier step's rule. 0 is still
 * rejected where it is not allowed (no product chosen, a loan of zero).
 */
export const createInitialValues = (): TAddCustomerValues => ({
  firstName: '',
  lastName: '',
  email: '',
  mobile: '',
  dateOfBirth: undefined,
  address: { line1: '', countryCode: DEFAULT_COUNTRY_CODE, stateCode: '', city: '', pincode: undefined },
  deviceType: DeviceType.DEVICE_POLICY_CONTROLLER,
  appType: AppType.DEVICE_POLICY_CONTROLLER,
  imei1: '',
  imei2: '',
  serialNumber: undefined,
  productId: 0,
  financerId: undefined,
  pricePaise: 0,
  downPaymentPaise: 0,
  processingFeePaise: 0,
  loanAmountPaise: 0,
  annualRateBps: 0,
  interestMethod: 'reducing',
  tenureMonths: DEFAULT_TENURE_MONTHS,
  firstDueDate: undefined,
});

/**
 * The form's resolver: the domain schema ZCreateCustomerRequest and nothing else. Its issues land
 * on the form's fields by path; validationKeyFor turns their messages into translated ones.
 */
export const addCustomerResolver = zodResolver<TAddCustomerValues, unknown, TAddCustomerPayload>(
  ZCreateCustomerRequest,
);

/** The steps of the guided form, in order. */
export const ADD_CUSTOMER_STEPS = ['personal', 'address', 'device', 'product', 'loan'] as const;
export type TAddCustomerStep = (typeof ADD_CUSTOMER_STEPS)[number];
/**
 * The step after the customer is created: photo, invoice, documents and signature, uploaded to
 * the new customer (add_customer?customer_id=).
 */
export const ATTACHMENTS_STEP = 'attachments';
/**
 * The last step: the customer's signed consent to remote locking, which the enrolment QR needs
 * (issue 12). Then customer_navigate shows the QR.
 */
export const CONSENT_STEP = 'consent';
/** Every step the stepper shows: the form's five, then the attachments, then the consent. */
export const ALL_ADD_CUSTOMER_STEPS = [...ADD_CUSTOMER_STEPS, ATTACHMENTS_STEP, CONSENT_STEP] as const;

/** The fields on each step; Next validates exactly these (react-hook-form trigger). */
export const STEP_FIELDS: Record<TAddCustomerStep, readonly TAddCustomerPath[]> = {
  personal: ['firstName', 'lastName', 'email', 'mobile', 'dateOfBirth'],
  address: ['address.line1', 'address.countryCode', 'address.stateCode', 'address.city', 'address.pincode'],
  device: ['deviceType', 'appType', 'imei1', 'imei2', 'serialNumber'],
  product: ['productId', 'financerId'],
  loan: [
    'pricePaise',
    'downPaymentPaise',
    'processingFeePaise',
    'loanAmountPaise',
    'annualRateBps',
    'interestMethod',
    'tenureMonths',
    'firstDueDate',
  ],
};

/**
 * The form field a request field names (`imei1`, `address.city`), or the first field under it when
 * it names a group (`address`); null for a field the form does not have.
 */
export const formFieldOf = (requestField: string): TAddCustomerPath | null => {
  for (const step of ADD_CUSTOMER_STEPS) {
    const match = STEP_FIELDS[step].find(
      (path) => path === requestField || path.startsWith(`${requestField}.`),
    );
    if (match) return match;
  }
  return null;
};

/** The step a form field is on. */
export const stepOfField = (path: TAddCustomerPath): number =>
  ADD_CUSTOMER_STEPS.findIndex((step) => STEP_FIELDS[step].includes(path));

/** The first field, step by step, that has an error (to show and focus it), or null when none has. */
export const firstFieldWithError = (hasError: (path: TAddCustomerPath) => boolean): TAddCustomerPath | null =>
  ADD_CUSTOMER_STEPS.flatMap((step) => STEP_FIELDS[step]).find(hasError) ?? null;

/** A field error the server sent (`fields` of a 400), on the form field it names. */
export type TServerFieldError = { path: TAddCustomerPath; message: string };

/** The server's field errors on the form's fields, first per field, in the server's words. */
export const serverFieldErrors = (fields: TFieldError[]): TServerFieldError[] => {
  const errors: TServerFieldError[] = [];
  for (const { field, message } of fields) {
    const path = formFieldOf(field);
    if (path && !errors.some((error) => error.path === path)) errors.push({ path, message });
  }
  return errors;
};

/** For zod's generic messages (a wrong type, a bound): what that field's problem is. */
const FIELD_FALLBACK_KEYS: Partial<Record<TAddCustomerPath, TValidationKey>> = {
  firstName: 'validation.tooLong',
  lastName: 'validation.tooLong',
  'address.line1': 'validation.tooLong',
  'address.stateCode': 'validation.chooseState',
  'address.city': 'validation.chooseCity',
  serialNumber: 'validation.tooLong',
  // 0 is the "nothing chosen yet" product.
  productId: 'validation.required',
  pricePaise: 'validation.invalidAmount',
  downPaymentPaise: 'validation.invalidAmount',
  processingFeePaise: 'validation.invalidAmount',
  loanAmountPaise: 'validation.invalidAmount',
  annualRateBps: 'validation.invalidRate',
  tenureMonths: 'validation.invalidTenure',
  firstDueDate: 'validation.invalidDate',
  dateOfBirth: 'validation.invalidDate',
};

/**
 * The translated message for a domain-schema issue on a form field: 'This is a required field'
 * (spec §5) when the field is empty, else the key of the schema's own message, else what that
 * field's problem must be (a mistyped amount, a rate out of range).
 */
export const validationKeyFor = (
  path: TAddCustomerPath,
  error: Pick<FieldError, 'message'>,
  value: unknown,
): TValidationKey => fieldMessageKey(error, value, FIELD_FALLBACK_KEYS[path] ?? 'validation.invalidValue');

/** Device family choices (spec §1 device_type), with their label keys. */
export const DEVICE_TYPE_OPTIONS = [
  { value: DeviceType.DEVICE_POLICY_CONTROLLER, labelKey: 'deviceFamily.devicePolicyController' },
  { value: DeviceType.MANAGED_ANDROID_API, labelKey: 'deviceFamily.managedAndroidApi' },
  { value: DeviceType.LINK_BASED, labelKey: 'deviceFamily.linkBased' },
  { value: DeviceType.APPLE, labelKey: 'deviceFamily.apple' },
] as const satisfies ReadonlyArray<{ value: TDeviceType; labelKey: string }>;

/** Protection / app type choices (spec §1 app_type), with their label keys. */
export const APP_TYPE_OPTIONS = [
  { value: AppType.DEVICE_POLICY_CONTROLLER, labelKey: 'appType.devicePolicyController' },
  { value: AppType.LINK_BASED, labelKey: 'appType.linkBased' },
  { value: AppType.APPLE, labelKey: 'appType.apple' },
  { value: AppType.ANTI_THEFT, labelKey: 'appType.antiTheft' },
  { value: AppType.EXTENDED_WARRANTY, labelKey: 'appType.extendedWarranty' },
  { value: AppType.OLD_LINK_BASED, labelKey: 'appType.oldLinkBased' },
  { value: AppType.FAMILY_CARE, labelKey: 'appType.familyCare' },
  { value: AppType.ANTI_HACKING, labelKey: 'appType.antiHacking' },
  { value: AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT, labelKey: 'appType.devicePolicyControllerAntiTheft' },
  { value: AppType.DEVICE_POLICY_CONTROLLER_LITE, labelKey: 'appType.devicePolicyControllerLite' },
  { value: AppType.ANTI_HACKING_PRO, labelKey: 'appType.antiHackingPro' },
  { value: AppType.ANTI_HACKING_PREMIUM, labelKey: 'appType.antiHackingPremium' },
] as const satisfies ReadonlyArray<{ value: TAppType; labelKey: string }>;

/** Interest method choices, with their label keys. */
export const INTEREST_METHOD_OPTIONS = [
  { value: 'reducing', labelKey: 'interestMethod.reducing' },
  { value: 'flat', labelKey: 'interestMethod.flat' },
] as const satisfies ReadonlyArray<{ value: TInterestMethod; labelKey: string }>;

/** Whether a device family needs a serial number (Apple: the schema requires one). */
export const needsSerialNumber = (deviceType: unknown): boolean => deviceType === DeviceType.APPLE;

const isWholeNumber = (value: number | undefined): value is number =>
  value !== undefined && Number.isInteger(value);

/**
 * Loan amount prefill: price − down payment in paise (never below 0; an empty down payment counts
 * as 0), or undefined while either is not a valid amount.
 */
export const suggestedLoanPaise = (
  pricePaise: number | undefined,
  downPaymentPaise: number | undefined,
): number | undefined => {
  const downPayment = downPaymentPaise ?? 0;
  if (!isWholeNumber(pricePaise) || !isWholeNumber(downPayment)) return undefined;
  return Math.max(0, pricePaise - downPayment);
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The latest date of birth the schema accepts: yesterday (+05:30), for the date picker's max. */
export const latestDateOfBirth = (now: Date = new Date()): string => addDays(istDate(now), -1);

/** The first due date the server will use: the one given, else one month after today (+05:30). */
export const effectiveFirstDueDate = (firstDueDate: string | undefined): string =>
  firstDueDate && ISO_DATE.test(firstDueDate) ? firstDueDate : addMonthsToDate(istDate(), 1);

/** The loan terms the live EMI preview is built from. */
export type TLoanTerms = Pick<
  TAddCustomerValues,
  'loanAmountPaise' | 'annualRateBps' | 'tenureMonths' | 'interestMethod' | 'firstDueDate'
>;

/**
 * The live preview's schedule, from the domain's maths (buildEmiSchedule) with the chosen
 * interest method, or null while the loan terms cannot make one.
 */
export const previewSchedule = (terms: TLoanTerms): TInstalment[] | null => {
  const { loanAmountPaise, annualRateBps, tenureMonths } = terms;
  if (loanAmountPaise === undefined || annualRateBps === undefined || tenureMonths === undefined) {
    return null;
  }
  try {
    return buildEmiSchedule({
      principalPaise: loanAmountPaise,
      annualRateBps,
      tenureMonths,
      method: terms.interestMethod ?? 'reducing',
      firstDueDate: effectiveFirstDueDate(terms.firstDueDate),
    });
  } catch {
    return null;
  }
};

/** What the preview card shows of a schedule. Money in paise. */
export type TScheduleSummary = {
  /** The monthly EMI: the first instalment (only the last one absorbs rounding). */
  emiPaise: number;
  totalInterestPaise: number;
  totalPayablePaise: number;
  instalmentCount: number;
  firstDueDate: string;
};

/** Sums up a schedule for the preview; null for an empty one. */
export const summariseSchedule = (schedule: TInstalment[]): TScheduleSummary | null => {
  const first = schedule[0];
  if (!first) return null;
  return {
    emiPaise: first.amountPaise,
    totalInterestPaise: schedule.reduce((sum, row) => sum + row.interestPaise, 0),
    totalPayablePaise: schedule.reduce((sum, row) => sum + row.amountPaise, 0),
    instalmentCount: schedule.length,
    firstDueDate: first.dueDate,
  };
};
