import { describe, expect, it } from 'vitest';
import { createEmiDetails } from './emi-fixtures';
import type { TRecordPaymentValues } from './record-payment-form';
import {
  INITIAL_RECORD_PAYMENT_VALUES,
  owedOnSelection,
  paymentAttemptFor,
  paymentFormFieldOf,
  recordPaymentFormSchema,
  selectAllPayable,
  toggleInstalment,
  validateRecordPayment,
} from './record-payment-form';

// Instalment 1 (id 101) paid; 2 (id 102) owes ₹8,814.86; 3 (id 103) owes ₹7,814.86; 4 (id 104) owes ₹8,814.86.
const { instalments } = createEmiDetails();
const CUSTOMER_ID = 5;

const choose = (...ids: number[]): TRecordPaymentValues =>
  ids.reduce((values, id) => toggleInstalment(values, instalments, id), INITIAL_RECORD_PAYMENT_VALUES);

describe('record payment: selection and the prefilled amount', () => {
  it('prefills the amount with what the chosen instalments owe, in rupees', () => {
    expect(choose(102).amount).toBe('8814.86');
    expect(choose(102, 103).amount).toBe('16629.72');
    expect(owedOnSelection(instalments, [102, 103])).toBe(1_662_972);
  });

  it('follows the selection when an instalment is unticked, and empties with none', () => {
    const two = choose(102, 103);
    const one = toggleInstalment(two, instalments, 102);
    expect(one.emiIds).toEqual([103]);
    expect(one.amount).toBe('7814.86');
    expect(toggleInstalment(one, instalments, 103)).toMatchObject({ emiIds: [], amount: '' });
  });

  it('keeps the chosen ids in instalment order, whatever order they were ticked in', () => {
    expect(choose(104, 102).emiIds).toEqual([102, 104]);
  });

  it('never selects a paid instalment', () => {
    expect(choose(101).emiIds).toEqual([]);
    const all = selectAllPayable(INITIAL_RECORD_PAYMENT_VALUES, instalments, true);
    expect(all.emiIds).toEqual([102, 103, 104]);
    expect(all.amount).toBe('25444.58');
    expect(selectAllPayable(all, instalments, false)).toMatchObject({ emiIds: [], amount: '' });
  });

  it('restarts from the full amount when the selection changes after a manual edit', () => {
    const edited = { ...choose(102), amount: '500' };
    expect(toggleInstalment(edited, instalments, 103).amount).toBe('16629.72');
  });
});

describe('record payment: validation and the request', () => {
  it('builds the request with the amount in paise and without a blank reference', () => {
    const result = validateRecordPayment(
      { ...choose(102, 103), mode: 'upi', reference: '  ' },
      instalments,
      CUSTOMER_ID,
    );
    expect(result).toEqual({
      isValid: true,
      errors: {},
      request: { customer_id: 5, emi_ids: [102, 103], amountPaise: 1_662_972, mode: 'upi' },
    });
  });

  it('takes a partial amount (the server fills the earliest first)', () => {
    const result = validateRecordPayment(
      { ...choose(102, 103), amount: '10,000.5', mode: 'cash', reference: ' CHQ-221 ' },
      instalments,
      CUSTOMER_ID,
    );
    expect(result.isValid && result.request).toEqual({
      customer_id: 5,
      emi_ids: [102, 103],
      amountPaise: 1_000_050,
      mode: 'cash',
      reference: 'CHQ-221',
    });
  });

  it("says 'This is a required field' for an empty amount and mode, and asks for an instalment", () => {
    const result = validateRecordPayment(INITIAL_RECORD_PAYMENT_VALUES, instalments, CUSTOMER_ID);
    expect(result.isValid).toBe(false);
    expect(result.errors).toEqual({
      instalments: { key: 'emi.pay.chooseInstalment' },
      amount: { key: 'validation.required' },
      mode: { key: 'validation.required' },
    });
  });

  it.each([
    ['abc', { key: 'validation.invalidAmount' }],
    ['12.345', { key: 'validation.invalidAmount' }],
    ['-5', { key: 'validation.invalidAmount' }],
    ['0', { key: 'emi.pay.amountNotPositive' }],
    ['0.00', { key: 'emi.pay.amountNotPositive' }],
    ['8814.87', { key: 'emi.pay.amountTooHigh', owed: '₹8,814.86' }],
  ])('rejects the amount %s', (amount, error) => {
    const result = validateRecordPayment({ ...choose(102), amount, mode: 'cash' }, instalments, CUSTOMER_ID);
    expect(result.isValid).toBe(false);
    expect(result.errors.amount).toEqual(error);
  });

  it('accepts exactly what is owed', () => {
    const result = validateRecordPayment(
      { ...choose(102), amount: '8814.86', mode: 'card' },
      instalments,
      CUSTOMER_ID,
    );
    expect(result.isValid).toBe(true);
  });

  it('rejects a reference over 80 characters', () => {
    const result = validateRecordPayment(
      { ...choose(102), mode: 'cheque', reference: 'x'.repeat(81) },
      instalments,
      CUSTOMER_ID,
    );
    expect(result.errors.reference).toEqual({ key: 'validation.tooLong' });
  });
});

describe('record payment: the form schema (zodResolver) over the domain ZRecordPaymentRequest', () => {
  const schema = recordPaymentFormSchema(instalments, CUSTOMER_ID);
  const issuesOf = (values: TRecordPaymentValues) =>
    (schema.safeParse(values).error?.issues ?? []).map(({ path, message }) => [path.join('.'), message]);

  it('turns the values into the request the server takes', () => {
    expect(schema.parse({ ...choose(102), amount: '100.5', mode: 'upi', reference: ' UTR1 ' })).toEqual({
      customer_id: 5,
      emi_ids: [102],
      amountPaise: 10_050,
      mode: 'upi',
      reference: 'UTR1',
    });
  });

  it("puts the domain schema's refusals on the form's fields, as translation keys", () => {
    expect(issuesOf({ ...choose(102), amount: '0', mode: 'cash' })).toEqual([
      ['amount', 'emi.pay.amountNotPositive'],
    ]);
    expect(issuesOf({ ...choose(102), mode: 'cash', reference: 'x'.repeat(81) })).toEqual([
      ['reference', 'validation.tooLong'],
    ]);
    expect(issuesOf({ ...INITIAL_RECORD_PAYMENT_VALUES, amount: '5' })).toEqual([
      ['emiIds', 'emi.pay.chooseInstalment'],
      ['mode', 'validation.required'],
    ]);
  });

  it("names the form field of a server's request field", () => {
    expect(paymentFormFieldOf('emi_ids.0')).toBe('emiIds');
    expect(paymentFormFieldOf('amountPaise')).toBe('amount');
    expect(paymentFormFieldOf('customer_id')).toBeNull();
  });
});

describe('record payment: one Idempotency-Key per payment attempt', () => {
  const request = { customer_id: 5, emi_ids: [102], amountPaise: 881_486, mode: 'cash' as const };
  let drawn = 0;
  const newKey = () => {
    drawn += 1;
    return `key-${drawn}`;
  };

  it('takes a new key for a first attempt', () => {
    expect(paymentAttemptFor(null, request, newKey)).toEqual({ request, idempotencyKey: 'key-1' });
  });

  it('keeps the key when the same payment is sent again (a retry)', () => {
    const first = paymentAttemptFor(null, request, newKey);
    const retry = paymentAttemptFor(first, { ...request, emi_ids: [102] }, newKey);
    expect(retry.idempotencyKey).toBe(first.idempotencyKey);
  });

  it.each([
    ['the amount', { amountPaise: 100_000 }],
    ['the instalments', { emi_ids: [102, 103] }],
    ['the mode', { mode: 'upi' as const }],
    ['the reference', { reference: 'UTR1' }],
    ['the customer', { customer_id: 6 }],
  ])('takes a new key when %s changes', (_label, change) => {
    const first = paymentAttemptFor(null, request, newKey);
    const changed = paymentAttemptFor(first, { ...request, ...change }, newKey);
    expect(changed.idempotencyKey).not.toBe(first.idempotencyKey);
  });
});
