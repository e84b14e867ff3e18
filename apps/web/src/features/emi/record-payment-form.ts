import type { TFieldError } from '@kisht/domain/common/envelope';
import type { TInstalmentRow, TPaymentMode, TRecordPaymentRequest } from '@kisht/domain/emi/emi.schema';
import { ZRecordPaymentRequest } from '@kisht/domain/emi/emi.schema';
import { randomUuid } from '../../lib/client-storage';
import { formatRupees, paiseToRupeesInput, rupeesToPaise } from '../../lib/format';

/** Longest payment reference the server takes (domain ZRecordPaymentRequest). */
export const REFERENCE_MAX_LENGTH = 80;

/** What the record-payment form holds: the chosen instalments, and text as typed (amount in rupees). */
export type TRecordPaymentValues = {
  /** Ids of the chosen instalments, in instalment order. */
  emiIds: number[];
  /** Amount received, rupees as typed; prefilled with what the chosen instalments owe. */
  amount: string;
  /** Payment mode; '' until one is picked. */
  mode: TPaymentMode | '';
  /** Cheque number, UPI transaction id…; optional. */
  reference: string;
};
export type TRecordPaymentField = 'instalments' | 'amount' | 'mode' | 'reference';

export const INITIAL_RECORD_PAYMENT_VALUES: TRecordPaymentValues = {
  emiIds: [],
  amount: '',
  mode: '',
  reference: '',
};

/** Translation keys of the form's own messages. */
export type TPaymentErrorKey =
  | 'validation.required'
  | 'validation.invalidAmount'
  | 'validation.tooLong'
  | 'emi.pay.chooseInstalment'
  | 'emi.pay.amountNotPositive';

/** A field's error: one of our messages, the too-high amount with what is owed, or the server's words. */
export type TPaymentFormError =
  | { key: TPaymentErrorKey }
  | { key: 'emi.pay.amountTooHigh'; owed: string }
  | { text: string };
export type TRecordPaymentErrors = Partial<Record<TRecordPaymentField, TPaymentFormError>>;

/** Request field → form field, for the schema's issues and the server's `fields`. */
const REQUEST_TO_FORM: Record<string, TRecordPaymentField> = {
  emi_ids: 'instalments',
  amountPaise: 'amount',
  mode: 'mode',
  reference: 'reference',
};

type TPayableRow = Pick<TInstalmentRow, 'id' | 'instalmentNo' | 'outstandingPaise'>;

/** Whether an instalment can take a payment: something is still owed on it. */
export const isPayable = (instalment: Pick<TInstalmentRow, 'outstandingPaise'>): boolean =>
  instalment.outstandingPaise > 0;

/** The payable instalments among `emiIds`, in instalment order. */
const chosenInstalments = <T extends TPayableRow>(instalments: T[], emiIds: number[]): T[] =>
  instalments
    .filter((instalment) => emiIds.includes(instalment.id) && isPayable(instalment))
    .sort((a, b) => a.instalmentNo - b.instalmentNo);

/** What the chosen instalments still owe in total, paise. */
export const owedOnSelection = (instalments: TPayableRow[], emiIds: number[]): number =>
  chosenInstalments(instalments, emiIds).reduce(
    (total, instalment) => total + instalment.outstandingPaise,
    0,
  );

/**
 * The values with a new selection. The amount is prefilled with what the selection owes (rupees;
 * empty when nothing is chosen): choosing again always restarts from the full amount, and the
 * person lowers it by hand for a partial payment.
 */
export const withSelection = (
  values: TRecordPaymentValues,
  instalments: TPayableRow[],
  emiIds: number[],
): TRecordPaymentValues => {
  const chosen = chosenInstalments(instalments, emiIds);
  const owed = chosen.reduce((total, instalment) => total + instalment.outstandingPaise, 0);
  return {
    ...values,
    emiIds: chosen.map((instalment) => instalment.id),
    amount: owed > 0 ? paiseToRupeesInput(owed) : '',
  };
};

/** Ticks or unticks one instalment (see withSelection for the amount). */
export const toggleInstalment = (
  values: TRecordPaymentValues,
  instalments: TPayableRow[],
  emiId: number,
): TRecordPaymentValues =>
  withSelection(
    values,
    instalments,
    values.emiIds.includes(emiId) ? values.emiIds.filter((id) => id !== emiId) : [...values.emiIds, emiId],
  );

/** Ticks every payable instalment, or none. */
export const selectAllPayable = (
  values: TRecordPaymentValues,
  instalments: TPayableRow[],
  isSelected: boolean,
): TRecordPaymentValues =>
  withSelection(values, instalments, isSelected ? instalments.filter(isPayable).map((i) => i.id) : []);

export type TRecordPaymentValidation =
  | { isValid: true; request: TRecordPaymentRequest; errors: TRecordPaymentErrors }
  | { isValid: false; errors: TRecordPaymentErrors };

/**
 * Checks the form and builds the multiple_emi_paid request: at least one instalment; an amount in
 * rupees (up to 2 decimals, converted to integer paise) above zero and no more than the chosen
 * instalments owe (the server applies it earliest first, so less pays them partly); a mode; a
 * reference of at most 80 characters, left out when blank. Empty required fields get 'This is a
 * required field' (spec §5). The request is checked against the domain schema as well.
 */
export const validateRecordPayment = (
  values: TRecordPaymentValues,
  instalments: TPayableRow[],
  customerId: number,
): TRecordPaymentValidation => {
  const errors: TRecordPaymentErrors = {};
  const chosen = chosenInstalments(instalments, values.emiIds);
  const owed = chosen.reduce((total, instalment) => total + instalment.outstandingPaise, 0);
  if (chosen.length === 0) errors.instalments = { key: 'emi.pay.chooseInstalment' };

  const amountText = values.amount.trim();
  const amountPaise = amountText === '' ? null : rupeesToPaise(amountText);
  if (amountText === '') errors.amount = { key: 'validation.required' };
  else if (amountPaise === null) errors.amount = { key: 'validation.invalidAmount' };
  else if (amountPaise <= 0) errors.amount = { key: 'emi.pay.amountNotPositive' };
  else if (chosen.length > 0 && amountPaise > owed) {
    errors.amount = { key: 'emi.pay.amountTooHigh', owed: formatRupees(owed) };
  }

  if (values.mode === '') errors.mode = { key: 'validation.required' };
  const reference = values.reference.trim();
  if (reference.length > REFERENCE_MAX_LENGTH) errors.reference = { key: 'validation.tooLong' };

  if (Object.keys(errors).length > 0 || amountPaise === null || values.mode === '') {
    return { isValid: false, errors };
  }
  const request: TRecordPaymentRequest = {
    customer_id: customerId,
    emi_ids: chosen.map((instalment) => instalment.id),
    amountPaise,
    mode: values.mode,
    ...(reference ? { reference } : {}),
  };
  const parsed = ZRecordPaymentRequest.safeParse(request);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = REQUEST_TO_FORM[String(issue.path[0])];
      if (field && !errors[field]) errors[field] = { text: issue.message };
    }
    return { isValid: false, errors };
  }
  return { isValid: true, request, errors };
};

/**
 * The server's field errors (`fields` of a 400) on the form's fields, in the server's words.
 * `emi_ids.0` counts as `emi_ids`. Fields the form does not show are left out (the toast has the
 * message).
 */
export const serverPaymentErrors = (fields: TFieldError[]): TRecordPaymentErrors => {
  const errors: TRecordPaymentErrors = {};
  for (const { field, message } of fields) {
    const formField = REQUEST_TO_FORM[field.split('.')[0] ?? field];
    if (formField && !errors[formField]) errors[formField] = { text: message };
  }
  return errors;
};

/**
 * One attempt at recording a payment: the request and the Idempotency-Key it is sent with (IETF
 * draft "The Idempotency-Key HTTP Header Field"). The server answers a repeat of the key and
 * request with the first receipt, so a retry after a lost answer never records the money twice.
 */
export type TPaymentAttempt = { request: TRecordPaymentRequest; idempotencyKey: string };

/** The request's fields in a fixed order, instalments sorted, so equal payments compare equal. */
const requestIdentity = (request: TRecordPaymentRequest): string =>
  JSON.stringify([
    request.customer_id,
    [...request.emi_ids].sort((a, b) => a - b),
    request.amountPaise,
    request.mode,
    request.reference ?? null,
  ]);

/**
 * The attempt to send `request` as: the previous unfinished attempt when it was the same payment
 * (a retry keeps its key), else a new attempt with a fresh key (`newKey`, a random UUID by default).
 * The caller forgets the attempt after a success, so the next payment gets a new key.
 */
export const paymentAttemptFor = (
  previous: TPaymentAttempt | null,
  request: TRecordPaymentRequest,
  newKey: () => string = randomUuid,
): TPaymentAttempt =>
  previous && requestIdentity(previous.request) === requestIdentity(request)
    ? previous
    : { request, idempotencyKey: newKey() };
