import { zodResolver } from '@hookform/resolvers/zod';
import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { INTEREST_METHODS } from '@kisht/domain/customers/customers.schema';
import type { TEditEmiTermsRequest } from '@kisht/domain/emi/emi.schema';
import { ZEditEmiTermsRequest } from '@kisht/domain/emi/emi.schema';
import { z } from 'zod';
import type { TValidationKey } from '../../lib/form-errors';
import { bpsToPercent, paiseToRupeesInput, percentToBps, rupeesToPaise } from '../../lib/format';

const TERMS = ZEditEmiTermsRequest.shape;

/** A whole number typed as text (`12`), NaN for anything else so the schema reports it. */
const toWholeNumber = (text: string): number =>
  /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;

/**
 * The EMI_EDIT form: what a person types (rupees, % a year, months, a date) and, once valid, the
 * request's units (paise, basis points). Each field is checked by the request schema's own rule
 * for it (ZEditEmiTermsRequest), after the conversion.
 */
export const ZEditEmiTermsForm = z.object({
  loanAmount: z
    .string()
    .transform((text) => rupeesToPaise(text) ?? Number.NaN)
    .pipe(TERMS.loanAmountPaise),
  ratePercent: z
    .string()
    .transform((text) => percentToBps(text) ?? Number.NaN)
    .pipe(TERMS.annualRateBps),
  tenureMonths: z.string().transform(toWholeNumber).pipe(TERMS.tenureMonths),
  interestMethod: z.enum(INTEREST_METHODS),
  /** Empty: the server keeps the current first due date. */
  firstDueDate: z
    .string()
    .transform((text) => (text.trim() === '' ? undefined : text.trim()))
    .pipe(TERMS.firstDueDate),
});
export type TEditEmiTermsValues = z.input<typeof ZEditEmiTermsForm>;
export type TEditEmiTermsParsed = z.output<typeof ZEditEmiTermsForm>;
export type TEditEmiTermsField = keyof TEditEmiTermsValues;

export const editEmiTermsResolver = zodResolver<TEditEmiTermsValues, unknown, TEditEmiTermsParsed>(
  ZEditEmiTermsForm,
);

/** The form's starting values: the loan as it stands, and its first instalment's due date. */
export const emiTermsInitialValues = (
  customer: Pick<TCustomerDetails, 'loan' | 'emis'>,
): TEditEmiTermsValues => ({
  loanAmount: paiseToRupeesInput(customer.loan.loanAmountPaise),
  ratePercent: bpsToPercent(customer.loan.annualRateBps),
  tenureMonths: String(customer.loan.tenureMonths),
  interestMethod: customer.loan.interestMethod,
  firstDueDate: [...customer.emis].sort((a, b) => a.instalmentNo - b.instalmentNo)[0]?.dueDate ?? '',
});

/** The EMI_EDIT request from the checked form. */
export const toEditEmiTermsRequest = (
  customerId: number,
  values: TEditEmiTermsParsed,
): TEditEmiTermsRequest => ({
  customer_id: customerId,
  loanAmountPaise: values.loanAmount,
  annualRateBps: values.ratePercent,
  tenureMonths: values.tenureMonths,
  interestMethod: values.interestMethod,
  ...(values.firstDueDate ? { firstDueDate: values.firstDueDate } : {}),
});

/** The form field a request field (a server error's `field`) is typed in, or null. */
export const emiTermsFieldOf = (requestField: string): TEditEmiTermsField | null => {
  const fields: Record<string, TEditEmiTermsField> = {
    loanAmountPaise: 'loanAmount',
    annualRateBps: 'ratePercent',
    tenureMonths: 'tenureMonths',
    interestMethod: 'interestMethod',
    firstDueDate: 'firstDueDate',
  };
  return fields[requestField] ?? null;
};

/** What each field's problem is when the schema's message is a generic one. */
export const EMI_TERMS_FALLBACK_KEYS: Record<TEditEmiTermsField, TValidationKey> = {
  loanAmount: 'validation.invalidAmount',
  ratePercent: 'validation.invalidRate',
  tenureMonths: 'validation.invalidTenure',
  interestMethod: 'validation.invalidValue',
  firstDueDate: 'validation.invalidDate',
};
