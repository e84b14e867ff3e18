import { DeviceType } from '@kisht/domain/common/enums';
import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import type { FieldError } from 'react-hook-form';
import { get } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TAddCustomerPath, TAddCustomerStep, TAddCustomerValues } from './add-customer-form';
import {
  ADD_CUSTOMER_STEPS,
  addCustomerResolver,
  createInitialValues,
  effectiveFirstDueDate,
  firstFieldWithError,
  latestDateOfBirth,
  previewSchedule,
  STEP_FIELDS,
  serverFieldErrors,
  stepOfField,
  suggestedLoanPaise,
  summariseSchedule,
  validationKeyFor,
} from './add-customer-form';

const imei = (body14: string) => `${body14}${imeiCheckDigit(body14)}`;

/** Values that pass every step, as a person would have filled them in. */
const completeValues = (overrides: Partial<TAddCustomerValues> = {}): TAddCustomerValues => ({
  ...createInitialValues(),
  firstName: 'Asha',
  lastName: 'Patil',
  mobile: '9876543210',
  address: { line1: '12 MG Road', countryCode: 'IN', stateCode: 'MH', city: 'Pune', pincode: '411001' },
  imei1: imei('35693803564380'),
  imei2: imei('35693803564381'),
  productId: 3,
  financerId: 2,
  pricePaise: 1_299_900,
  downPaymentPaise: 299_900,
  processingFeePaise: 49_900,
  loanAmountPaise: 1_000_000,
  annualRateBps: 1200,
  tenureMonths: 6,
  ...overrides,
});

/** What the domain schema says about each field of a step: its message key, or null when fine. */
const stepMessages = async (values: TAddCustomerValues, step: TAddCustomerStep) => {
  const { errors } = await addCustomerResolver(values, undefined, {
    fields: {},
    names: [...STEP_FIELDS[step]],
    shouldUseNativeValidation: false,
  });
  const messages: Partial<Record<TAddCustomerPath, string | null>> = {};
  for (const path of STEP_FIELDS[step]) {
    const error: FieldError | undefined = get(errors, path);
    messages[path] = error ? validationKeyFor(path, error, get(values, path)) : null;
  }
  return messages;
};

describe('the guided form: each step checked with the domain schema alone', () => {
  it('lists the steps in order, each field on exactly one', () => {
    expect(ADD_CUSTOMER_STEPS).toEqual(['personal', 'address', 'device', 'product', 'loan']);
    const all = ADD_CUSTOMER_STEPS.flatMap((step) => STEP_FIELDS[step]);
    expect(new Set(all).size).toBe(all.length);
    expect(stepOfField('address.city')).toBe(1);
    expect(stepOfField('serialNumber')).toBe(2);
  });

  it("says 'This is a required field' for each step's empty required fields, and nothing for optional ones", async () => {
    const empty: TAddCustomerValues = {
      ...createInitialValues(),
      pricePaise: undefined,
      downPaymentPaise: undefined,
      processingFeePaise: undefined,
      loanAmountPaise: undefined,
      annualRateBps: undefined,
      tenureMonths: undefined,
    };
    expect(await stepMessages(empty, 'personal')).toEqual({
      firstName: 'validation.required',
      lastName: 'validation.required',
      email: null,
      mobile: 'validation.required',
      dateOfBirth: null,
    });
    expect(await stepMessages(empty, 'address')).toEqual({
      'address.line1': 'validation.required',
      'address.countryCode': null,
      'address.stateCode': 'validation.required',
      'address.city': 'validation.required',
      'address.pincode': null,
    });
    expect(await stepMessages(empty, 'device')).toEqual({
      deviceType: null,
      appType: null,
      imei1: 'validation.required',
      imei2: 'validation.required',
      serialNumber: null,
    });
    // The product starts as 0: nothing chosen yet.
    expect(await stepMessages(empty, 'product')).toEqual({
      productId: 'validation.required',
      financerId: null,
    });
    expect(await stepMessages(empty, 'loan')).toEqual({
      pricePaise: 'validation.required',
      downPaymentPaise: 'validation.required',
      processingFeePaise: null,
      loanAmountPaise: 'validation.required',
      annualRateBps: 'validation.required',
      interestMethod: null,
      tenureMonths: 'validation.required',
      firstDueDate: null,
    });
  });

  it('passes every step of a completed form', async () => {
    for (const step of ADD_CUSTOMER_STEPS) {
      const messages = await stepMessages(completeValues(), step);
      expect(
        Object.values(messages).every((message) => message === null),
        step,
      ).toBe(true);
    }
  });

  it('requires a serial number for an Apple device, while the later steps are still untouched', async () => {
    const filledToDevice: TAddCustomerValues = {
      ...createInitialValues(),
      firstName: 'Asha',
      lastName: 'Patil',
      mobile: '9876543210',
      address: { line1: '12 MG Road', countryCode: 'IN', stateCode: 'MH', city: 'Pune' },
      imei1: imei('35693803564380'),
      imei2: imei('35693803564381'),
    };
    const apple = { ...filledToDevice, deviceType: DeviceType.APPLE };
    expect((await stepMessages(apple, 'device')).serialNumber).toBe('validation.required');
    expect(
      (await stepMessages({ ...apple, serialNumber: 'F2LZK0XYHG7F' }, 'device')).serialNumber,
    ).toBeNull();
    expect((await stepMessages(filledToDevice, 'device')).serialNumber).toBeNull();
  });

  it("names what is wrong with a filled-in field, in the domain's terms", async () => {
    const same = imei('35693803564380');
    expect(
      await stepMessages(
        completeValues({ mobile: '1234567890', email: 'nope', dateOfBirth: '2999-01-01' }),
        'personal',
      ),
    ).toMatchObject({
      mobile: 'validation.invalidMobile',
      email: 'validation.invalidEmail',
    });
    expect((await stepMessages(completeValues({ dateOfBirth: '2999-01-01' }), 'personal')).dateOfBirth).toBe(
      'validation.dateOfBirthInPast',
    );
    expect(await stepMessages(completeValues({ imei1: same, imei2: same }), 'device')).toMatchObject({
      imei1: null,
      imei2: 'validation.sameImei',
    });
    expect(
      await stepMessages(
        completeValues({
          address: { line1: 'x', countryCode: 'IN', stateCode: 'MH', city: 'Pune', pincode: '41' },
        }),
        'address',
      ),
    ).toMatchObject({ 'address.pincode': 'validation.invalidPincode' });
    expect(
      await stepMessages(
        completeValues({ pricePaise: Number.NaN, loanAmountPaise: 0, annualRateBps: 20_000 }),
        'loan',
      ),
    ).toMatchObject({
      pricePaise: 'validation.invalidAmount',
      loanAmountPaise: 'validation.loanNotPositive',
      annualRateBps: 'validation.invalidRate',
    });
    expect(
      (await stepMessages(completeValues({ pricePaise: 100_000, downPaymentPaise: 200_000 }), 'loan'))
        .downPaymentPaise,
    ).toBe('validation.downPaymentTooHigh');
  });

  it('sends the parsed request: E.164 mobile, no empty email, the chosen method and fee', async () => {
    const result = await addCustomerResolver(completeValues({ interestMethod: 'flat' }), undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({
      mobile: '+919876543210',
      deviceType: 0,
      appType: 0,
      productId: 3,
      financerId: 2,
      pricePaise: 1_299_900,
      processingFeePaise: 49_900,
      interestMethod: 'flat',
      address: { countryCode: 'IN', stateCode: 'MH', city: 'Pune', pincode: '411001' },
    });
    expect(result.values).not.toHaveProperty('email', '');
  });
});

describe('errors on the form: from the server, and which step to show', () => {
  it("puts the server's messages on the form's fields, grouped fields on their first", () => {
    expect(
      serverFieldErrors([
        { field: 'imei1', message: 'IMEI already in use' },
        { field: 'address.city', message: 'Unknown city' },
        { field: 'address', message: 'Bad address' },
        { field: 'unknown', message: 'ignored' },
      ]),
    ).toEqual([
      { path: 'imei1', message: 'IMEI already in use' },
      { path: 'address.city', message: 'Unknown city' },
      { path: 'address.line1', message: 'Bad address' },
    ]);
  });

  it('finds the first field with an error, in step order', () => {
    expect(firstFieldWithError((path) => path === 'tenureMonths' || path === 'imei2')).toBe('imei2');
    expect(firstFieldWithError(() => false)).toBeNull();
  });
});

describe('loan prefill and the EMI preview', () => {
  it('suggests price − down payment as the loan', () => {
    expect(suggestedLoanPaise(1_299_900, 299_950)).toBe(999_950);
    expect(suggestedLoanPaise(1_299_900, undefined)).toBe(1_299_900);
    expect(suggestedLoanPaise(100, 500)).toBe(0);
    expect(suggestedLoanPaise(undefined, 0)).toBeUndefined();
    expect(suggestedLoanPaise(Number.NaN, 0)).toBeUndefined();
  });

  it('previews reducing-balance and flat-rate schedules with the domain maths', () => {
    const terms = {
      loanAmountPaise: 1_200_000,
      annualRateBps: 1200,
      tenureMonths: 12,
      firstDueDate: '2026-01-31',
    } as const;
    const reducing = summariseSchedule(previewSchedule({ ...terms, interestMethod: 'reducing' }) ?? []);
    const flat = summariseSchedule(previewSchedule({ ...terms, interestMethod: 'flat' }) ?? []);
    // ₹12,000 at 12 % for 12 months: EMI ₹1,066.19 on the reducing balance (interest rounded to
    // the paisa each month, the last instalment absorbing the difference)…
    expect(reducing).toEqual({
      emiPaise: 106_619,
      totalInterestPaise: 79_423,
      totalPayablePaise: 1_279_423,
      instalmentCount: 12,
      firstDueDate: '2026-01-31',
    });
    // …and ₹1,120 flat: 12 % of ₹12,000 for the year, spread evenly.
    expect(flat).toEqual({
      emiPaise: 112_000,
      totalInterestPaise: 144_000,
      totalPayablePaise: 1_344_000,
      instalmentCount: 12,
      firstDueDate: '2026-01-31',
    });
    expect(previewSchedule({ ...terms, interestMethod: 'flat' })?.[1]?.dueDate).toBe('2026-02-28');
  });

  it('has no preview while the loan terms cannot make a schedule', () => {
    const terms = { annualRateBps: 0, tenureMonths: 12, interestMethod: 'reducing' as const };
    expect(previewSchedule({ ...terms, loanAmountPaise: undefined })).toBeNull();
    expect(previewSchedule({ ...terms, loanAmountPaise: 0 })).toBeNull();
    expect(previewSchedule({ ...terms, loanAmountPaise: Number.NaN })).toBeNull();
  });

  it('lets the date picker offer up to yesterday as a date of birth', () => {
    expect(latestDateOfBirth(new Date('2026-03-01T10:00:00Z'))).toBe('2026-02-28');
  });

  it("counts yesterday on India's calendar (+05:30), not UTC's", () => {
    // 00:30 on 1 March in India is still 28 February in UTC.
    expect(latestDateOfBirth(new Date('2026-02-28T19:00:00Z'))).toBe('2026-02-28');
    expect(latestDateOfBirth(new Date('2026-02-28T18:29:59Z'))).toBe('2026-02-27');
  });
});

describe('effectiveFirstDueDate (the server default: a month after today, +05:30)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps a date that was given', () => {
    expect(effectiveFirstDueDate('2026-05-10')).toBe('2026-05-10');
  });

  it.each([
    ['2026-01-31T18:29:59Z', '2026-02-28'], // 31-01-2026 11:59 PM in India
    ['2026-01-31T18:30:00Z', '2026-03-01'], // 01-02-2026 12:00 AM in India, still 31 January in UTC
  ])("counts from India's date at %s", (now, due) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(now));
    expect(effectiveFirstDueDate(undefined)).toBe(due);
  });
});
