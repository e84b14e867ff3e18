import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import { describe, expect, it } from 'vitest';
import type { TAddCustomerValues } from './add-customer-form';
import {
  INITIAL_ADD_CUSTOMER_VALUES,
  previewSchedule,
  serverFieldErrors,
  suggestedLoanPaise,
  validateAddCustomer,
} from './add-customer-form';

const imei = (body14: string) => `${body14}${imeiCheckDigit(body14)}`;

const validValues = (overrides: Partial<TAddCustomerValues> = {}): TAddCustomerValues => ({
  ...INITIAL_ADD_CUSTOMER_VALUES,
  firstName: 'Asha',
  lastName: 'Patil',
  mobile: '9876543210',
  imei1: imei('35693803564380'),
  imei2: imei('35693803564381'),
  productId: '3',
  price: '12999',
  downPayment: '2999',
  loanAmount: '10000',
  interestRate: '12',
  tenureMonths: '6',
  ...overrides,
});

describe('validateAddCustomer', () => {
  it('turns valid form text into the request in paise and basis points', () => {
    const result = validateAddCustomer(validValues());
    expect(result.isValid).toBe(true);
    if (!result.isValid) return;
    expect(result.request).toMatchObject({
      mobile: '+919876543210',
      productId: 3,
      pricePaise: 1299900,
      downPaymentPaise: 299900,
      loanAmountPaise: 1000000,
      annualRateBps: 1200,
      tenureMonths: 6,
    });
    expect(result.request.email).toBeUndefined();
  });

  it("says 'This is a required field' for every empty required field", () => {
    const result = validateAddCustomer({ ...INITIAL_ADD_CUSTOMER_VALUES, tenureMonths: '' });
    expect(result.isValid).toBe(false);
    for (const field of [
      'firstName',
      'lastName',
      'mobile',
      'imei1',
      'imei2',
      'productId',
      'price',
      'loanAmount',
    ]) {
      expect(result.errors[field as keyof TAddCustomerValues]).toEqual({ key: 'validation.required' });
    }
    expect(result.errors.tenureMonths).toEqual({ key: 'validation.required' });
    expect(result.errors.email).toBeUndefined();
    expect(result.errors.firstDueDate).toBeUndefined();
  });

  it('names what is wrong with a filled-in field', () => {
    const result = validateAddCustomer(
      validValues({ mobile: '1234567890', imei1: '356938035643800', email: 'nope', price: '1.005' }),
    );
    expect(result.errors).toMatchObject({
      mobile: { key: 'validation.invalidMobile' },
      imei1: { key: 'validation.invalidImei' },
      email: { key: 'validation.invalidEmail' },
      price: { key: 'validation.invalidAmount' },
    });
  });

  it('reports cross-field rules alongside field errors', () => {
    const same = imei('35693803564380');
    const result = validateAddCustomer(
      validValues({ firstName: '', imei1: same, imei2: same, price: '1000', downPayment: '2000' }),
    );
    expect(result.errors).toMatchObject({
      firstName: { key: 'validation.required' },
      imei2: { key: 'validation.sameImei' },
      downPayment: { key: 'validation.downPaymentTooHigh' },
    });
  });
});

describe('serverFieldErrors', () => {
  it("puts the server's messages on the form's fields", () => {
    expect(
      serverFieldErrors([
        { field: 'imei1', message: 'IMEI already in use' },
        { field: 'loanAmountPaise', message: 'Too much' },
        { field: 'unknown', message: 'ignored' },
      ]),
    ).toEqual({ imei1: { text: 'IMEI already in use' }, loanAmount: { text: 'Too much' } });
  });
});

describe('loan prefill and EMI preview', () => {
  it('suggests price − down payment as the loan', () => {
    expect(suggestedLoanPaise({ price: '12999', downPayment: '2999.50' })).toBe(999950);
    expect(suggestedLoanPaise({ price: '12999', downPayment: '' })).toBe(1299900);
    expect(suggestedLoanPaise({ price: '', downPayment: '0' })).toBeNull();
  });

  it('previews the schedule from the domain maths', () => {
    const schedule = previewSchedule(
      validValues({ loanAmount: '12000', interestRate: '0', tenureMonths: '12', firstDueDate: '2026-01-31' }),
    );
    expect(schedule).toHaveLength(12);
    expect(schedule?.[0]).toMatchObject({ amountPaise: 100000, dueDate: '2026-01-31' });
    expect(schedule?.[1]?.dueDate).toBe('2026-02-28');
  });

  it('has no preview while the loan terms are incomplete', () => {
    expect(previewSchedule(validValues({ loanAmount: '' }))).toBeNull();
    expect(previewSchedule(validValues({ loanAmount: '0' }))).toBeNull();
  });
});
