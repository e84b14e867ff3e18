import type { TInstalmentRow, TPaymentMode, TRecordPaymentRequest } from '@kisht/domain/emi/emi.schema';
import { PAYMENT_MODES, ZRecordPaymentRequest } from '@kisht/domain/emi/emi.schema';
import { z } from 'zod';
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

/** Translation keys among the form's messages without parameters (see isPaymentMessageKey). */
const PAYMENT_MESSAGE_KEYS: ReadonlySet<string> = new Set<TPaymentErrorKey>([
  'validation.required',
  'validation.invalidAmount',
  'validation.tooLong',
  'emi.pay.chooseInstalment',
  'emi.pay.amountNotPositive',
]);

/**
 * Whether a form message is one of the app's translation keys without parameters. Besides these,
 * a message is 'emi.pay.amountTooHigh' (it takes `owed`) or the domain schema's own words.
 */
export const isPaymentMessageKey = (message: string): message is TPaymentErrorKey =>
  PAYMENT_MESSAGE_KEYS.has(message);

/** Request field → the form field its issues and server errors go under. */
const REQUEST_TO_FORM_PATH: Record<string, keyof TRecordPaymentValues> = {
  emi_ids: 'emiIds',
  amountPaise: 'amount',
  mode: 'mode',
  reference: 'reference',
};

/** The form field a request field's server error goes under (`emi_ids.0` counts as `emi_ids`), or null. */
export const paymentFormFieldOf = (requestField: string): keyof TRecordPaymentValues | null =>
  REQUEST_TO_FORM_PATH[requestField.split('.')[0] ?? requestField] ?? null;

/** The translation key for one of the domain schema's issues on the request, else its own words. */
const domainIssueMessage = (field: keyof TRecordPaymentValues, issue: z.core.$ZodIssue): string => {
  if (field === 'emiIds' && issue.code === 'too_small') return 'emi.pay.chooseInstalment';
  if (field === 'amount')
    return issue.code === 'too_small' ? 'emi.pay.amountNotPositive' : 'validation.invalidAmount';
  if (field === 'mode') return 'validation.required';
  if (field === 'reference' && issue.code === 'too_big') return 'validation.tooLong';
  return issue.message;
};

const ZRecordPaymentValues = z.object({
  emiIds: z.array(z.number()),
  amount: z.string(),
  mode: z.union([z.enum(PAYMENT_MODES), z.literal('')]),
  reference: z.string(),
});

/**
 * The record-payment form's schema (for zodResolver): the form's values in, the multiple_emi_paid
 * request out. The request is built from the values (the payable chosen instalments in instalment
 * order; the amount from rupees, up to 2 decimals, to integer paise; the reference trimmed and left
 * out when blank) and checked by the domain ZRecordPaymentRequest (at least one instalment, an
 * amount above zero, a mode, a reference of at most 80 characters). The form adds what only it
 * knows: an empty or unreadable amount, and an amount above what the chosen instalments owe (the
 * server applies it earliest first, so less pays them partly). Each issue is on its form field;
 * its message is a translation key (isPaymentMessageKey; 'emi.pay.amountTooHigh' takes `owed`) or
 * the domain's own words.
 */
export const recordPaymentFormSchema = (instalments: TPayableRow[], customerId: number) =>
  ZRecordPaymentValues.transform((values, ctx): TRecordPaymentRequest => {
    const issue = (field: keyof TRecordPaymentValues, message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message });
    const chosen = chosenInstalments(instalments, values.emiIds);
    const owed = chosen.reduce((total, instalment) => total + instalment.outstandingPaise, 0);
    const amountText = values.amount.trim();
    const amountPaise = amountText === '' ? null : rupeesToPaise(amountText);
    const reference = values.reference.trim();
    const request = {
      customer_id: customerId,
      emi_ids: chosen.map((instalment) => instalment.id),
      amountPaise,
      mode: values.mode,
      ...(reference ? { reference } : {}),
    };

    const failed = new Set<keyof TRecordPaymentValues>();
    if (amountText === '') issue('amount', 'validation.required');
    else if (amountPaise === null) issue('amount', 'validation.invalidAmount');
    if (amountPaise === null) failed.add('amount');
    const parsed = ZRecordPaymentRequest.safeParse(request);
    for (const domainIssue of parsed.success ? [] : parsed.error.issues) {
      const field = REQUEST_TO_FORM_PATH[String(domainIssue.path[0])];
      if (!field || failed.has(field)) continue;
      failed.add(field);
      issue(field, domainIssueMessage(field, domainIssue));
    }
    if (!failed.has('amount') && chosen.length > 0 && amountPaise !== null && amountPaise > owed) {
      failed.add('amount');
      issue('amount', 'emi.pay.amountTooHigh');
    }
    if (!parsed.success || failed.size > 0 || amountPaise === null || values.mode === '') return z.NEVER;
    return { ...request, amountPaise, mode: values.mode };
  });

export type TRecordPaymentValidation =
  | { isValid: true; request: TRecordPaymentRequest; errors: TRecordPaymentErrors }
  | { isValid: false; errors: TRecordPaymentErrors };

/**
 * The form's values checked by recordPaymentFormSchema, outside a form: the request, or each
 * field's first error (the too-high amount with what is owed, in rupees).
 */
export const validateRecordPayment = (
  values: TRecordPaymentValues,
  instalments: TPayableRow[],
  customerId: number,
): TRecordPaymentValidation => {
  const parsed = recordPaymentFormSchema(instalments, customerId).safeParse(values);
  if (parsed.success) return { isValid: true, request: parsed.data, errors: {} };
  const errors: TRecordPaymentErrors = {};
  const owed = formatRupees(owedOnSelection(instalments, values.emiIds));
  for (const { path, message } of parsed.error.issues) {
    const formPath = String(path[0]);
    const field: TRecordPaymentField =
      formPath === 'emiIds' ? 'instalments' : (formPath as TRecordPaymentField);
    if (errors[field]) continue;
    if (message === 'emi.pay.amountTooHigh') errors[field] = { key: message, owed };
    else errors[field] = isPaymentMessageKey(message) ? { key: message } : { text: message };
  }
  return { isValid: false, errors };
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
