import type { TFieldError } from '@kisht/domain/common/envelope';
import { isValidImei } from '@kisht/domain/common/identifiers';
import type { TCreateCustomerRequest } from '@kisht/domain/customers/customers.schema';
import { ZCreateCustomerRequest } from '@kisht/domain/customers/customers.schema';
import type { TInstalment } from '@kisht/domain/emi/emi.rules';
import { addMonthsToDate, buildEmiSchedule } from '@kisht/domain/emi/emi.rules';
import { percentToBps, rupeesToPaise, todayUtcIsoDate } from '../../lib/format';

/** Tenure choices of the add-customer form, months. */
export const TENURE_OPTIONS = [3, 6, 9, 12, 18, 24] as const;
const DEFAULT_TENURE_MONTHS = 12;

/** What the add-customer form holds: text as typed; money in rupees, interest in % a year. */
export type TAddCustomerValues = {
  firstName: string;
  lastName: string;
  email: string;
  mobile: string;
  imei1: string;
  imei2: string;
  productId: string;
  price: string;
  downPayment: string;
  loanAmount: string;
  interestRate: string;
  tenureMonths: string;
  firstDueDate: string;
};
export type TAddCustomerField = keyof TAddCustomerValues;

export const INITIAL_ADD_CUSTOMER_VALUES: TAddCustomerValues = {
  firstName: '',
  lastName: '',
  email: '',
  mobile: '',
  imei1: '',
  imei2: '',
  productId: '',
  price: '',
  downPayment: '0',
  loanAmount: '',
  interestRate: '0',
  tenureMonths: String(DEFAULT_TENURE_MONTHS),
  firstDueDate: '',
};

/** Translation keys of the messages the form shows for its own checks. */
export type TValidationKey =
  | 'validation.required'
  | 'validation.invalidMobile'
  | 'validation.invalidEmail'
  | 'validation.invalidImei'
  | 'validation.sameImei'
  | 'validation.invalidAmount'
  | 'validation.downPaymentTooHigh'
  | 'validation.loanNotPositive'
  | 'validation.invalidRate'
  | 'validation.invalidDate'
  | 'validation.tooLong';

/** A field's error: a translation key for our own checks, or the server's own words. */
export type TFormError = { key: TValidationKey } | { text: string };
export type TAddCustomerErrors = Partial<Record<TAddCustomerField, TFormError>>;

/** Request field → form field, for zod issues and the server's `fields`. */
const REQUEST_TO_FORM: Record<string, TAddCustomerField> = {
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  mobile: 'mobile',
  imei1: 'imei1',
  imei2: 'imei2',
  productId: 'productId',
  pricePaise: 'price',
  downPaymentPaise: 'downPayment',
  loanAmountPaise: 'loanAmount',
  annualRateBps: 'interestRate',
  tenureMonths: 'tenureMonths',
  firstDueDate: 'firstDueDate',
};

const OPTIONAL_FIELDS: readonly TAddCustomerField[] = ['email', 'firstDueDate'];

/** The request the form would send; unparsable numbers become NaN so the schema reports them. */
export const toCreateCustomerRequest = (values: TAddCustomerValues): TCreateCustomerRequest => ({
  firstName: values.firstName,
  lastName: values.lastName,
  email: values.email,
  mobile: values.mobile,
  deviceType: 0,
  appType: 0,
  imei1: values.imei1,
  imei2: values.imei2,
  productId: values.productId === '' ? Number.NaN : Number(values.productId),
  pricePaise: rupeesToPaise(values.price) ?? Number.NaN,
  downPaymentPaise: rupeesToPaise(values.downPayment) ?? Number.NaN,
  loanAmountPaise: rupeesToPaise(values.loanAmount) ?? Number.NaN,
  annualRateBps: percentToBps(values.interestRate) ?? Number.NaN,
  tenureMonths: values.tenureMonths === '' ? Number.NaN : Number(values.tenureMonths),
  ...(values.firstDueDate ? { firstDueDate: values.firstDueDate } : {}),
});

/** Our translated message for a field the schema rejected, judged from what was typed. */
const messageFor = (field: TAddCustomerField, values: TAddCustomerValues): TValidationKey => {
  const value = values[field].trim();
  if (value === '' && !OPTIONAL_FIELDS.includes(field)) return 'validation.required';
  switch (field) {
    case 'firstName':
    case 'lastName':
      return 'validation.tooLong';
    case 'email':
      return 'validation.invalidEmail';
    case 'mobile':
      return 'validation.invalidMobile';
    case 'imei1':
      return 'validation.invalidImei';
    case 'imei2':
      return isValidImei(value) && value === values.imei1.trim()
        ? 'validation.sameImei'
        : 'validation.invalidImei';
    case 'price':
      return 'validation.invalidAmount';
    case 'downPayment':
      return rupeesToPaise(value) === null ? 'validation.invalidAmount' : 'validation.downPaymentTooHigh';
    case 'loanAmount':
      return rupeesToPaise(value) === null ? 'validation.invalidAmount' : 'validation.loanNotPositive';
    case 'interestRate':
      return 'validation.invalidRate';
    case 'firstDueDate':
      return 'validation.invalidDate';
    default:
      return 'validation.required';
  }
};

/**
 * The domain's cross-field rules, checked here as well because zod skips an object's refinements
 * while any field is invalid, and a person should see every problem at once.
 */
const crossFieldErrors = (values: TAddCustomerValues): TAddCustomerErrors => {
  const errors: TAddCustomerErrors = {};
  const imei1 = values.imei1.trim();
  if (isValidImei(imei1) && imei1 === values.imei2.trim()) errors.imei2 = { key: 'validation.sameImei' };
  const price = rupeesToPaise(values.price);
  const downPayment = rupeesToPaise(values.downPayment);
  if (price !== null && downPayment !== null && downPayment > price) {
    errors.downPayment = { key: 'validation.downPaymentTooHigh' };
  }
  return errors;
};

export type TValidationResult =
  | { isValid: true; request: TCreateCustomerRequest; errors: TAddCustomerErrors }
  | { isValid: false; errors: TAddCustomerErrors };

/**
 * Validates the form with the domain schema ZCreateCustomerRequest, mapping its issues to form
 * fields with translated messages ('This is a required field' for empty required fields).
 */
export const validateAddCustomer = (values: TAddCustomerValues): TValidationResult => {
  const parsed = ZCreateCustomerRequest.safeParse(toCreateCustomerRequest(values));
  const errors: TAddCustomerErrors = crossFieldErrors(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = REQUEST_TO_FORM[String(issue.path[0])];
      if (field && !errors[field]) errors[field] = { key: messageFor(field, values) };
    }
  }
  if (parsed.success && Object.keys(errors).length === 0) {
    return { isValid: true, request: parsed.data, errors };
  }
  return { isValid: false, errors };
};

/** The server's field errors (`fields` of a 400), on the form's fields, in the server's words. */
export const serverFieldErrors = (fields: TFieldError[]): TAddCustomerErrors => {
  const errors: TAddCustomerErrors = {};
  for (const { field, message } of fields) {
    const formField = REQUEST_TO_FORM[field];
    if (formField && !errors[formField]) errors[formField] = { text: message };
  }
  return errors;
};

/** Loan amount prefill: price − down payment in paise, or null while either is not a valid amount. */
export const suggestedLoanPaise = (
  values: Pick<TAddCustomerValues, 'price' | 'downPayment'>,
): number | null => {
  const price = rupeesToPaise(values.price);
  const downPayment = rupeesToPaise(values.downPayment === '' ? '0' : values.downPayment);
  if (price === null || downPayment === null) return null;
  return Math.max(0, price - downPayment);
};

/** The first due date the server will use: the one given, else one month after today (UTC). */
export const effectiveFirstDueDate = (firstDueDate: string): string =>
  firstDueDate || addMonthsToDate(todayUtcIsoDate(), 1);

/** The live EMI preview's schedule, or null while the loan terms cannot make one. */
export const previewSchedule = (values: TAddCustomerValues): TInstalment[] | null => {
  const principalPaise = rupeesToPaise(values.loanAmount);
  const annualRateBps = percentToBps(values.interestRate);
  const tenureMonths = Number(values.tenureMonths);
  if (principalPaise === null || annualRateBps === null || !tenureMonths) return null;
  try {
    return buildEmiSchedule({
      principalPaise,
      annualRateBps,
      tenureMonths,
      firstDueDate: effectiveFirstDueDate(values.firstDueDate),
    });
  } catch {
    return null;
  }
};
