import { describe, expect, it } from 'vitest';
import { createCustomerDetails } from '../../test/fixtures';
import {
  emiTermsFieldOf,
  emiTermsInitialValues,
  toEditEmiTermsRequest,
  ZEditEmiTermsForm,
} from './edit-emi-terms-form';

describe('EMI_EDIT form', () => {
  it('starts from the loan in rupees and % and the first instalment due date', () => {
    const customer = createCustomerDetails({
      loan: {
        ...createCustomerDetails().loan,
        loanAmountPaise: 1_250_050,
        annualRateBps: 1050,
        tenureMonths: 9,
      },
    });
    expect(emiTermsInitialValues(customer)).toEqual({
      loanAmount: '12500.50',
      ratePercent: '10.5',
      tenureMonths: '9',
      interestMethod: 'reducing',
      firstDueDate: '2026-02-15',
    });
    expect(emiTermsInitialValues({ ...customer, emis: [] }).firstDueDate).toBe('');
  });

  it('reads rupees as paise and % as basis points, and leaves an empty first due date out', () => {
    const parsed = ZEditEmiTermsForm.parse({
      loanAmount: '12,999.5',
      ratePercent: '12.25',
      tenureMonths: '12',
      interestMethod: 'flat',
      firstDueDate: '',
    });
    expect(toEditEmiTermsRequest(7, parsed)).toEqual({
      customer_id: 7,
      loanAmountPaise: 1_299_950,
      annualRateBps: 1225,
      tenureMonths: 12,
      interestMethod: 'flat',
    });
  });

  it.each([
    ['loanAmount', '12.345', 'a third decimal'],
    ['loanAmount', '0', 'no loan'],
    ['ratePercent', '100.01', 'over 100 %'],
    ['tenureMonths', '0', 'no months'],
    ['tenureMonths', '121', 'over 120 months'],
    ['tenureMonths', '6.5', 'part of a month'],
    ['firstDueDate', '15-02-2026', 'not an ISO date'],
  ])('refuses %s %s (%s)', (name, value) => {
    const values = {
      loanAmount: '15000',
      ratePercent: '12',
      tenureMonths: '6',
      interestMethod: 'reducing',
      firstDueDate: '',
      [name]: value,
    };
    const result = ZEditEmiTermsForm.safeParse(values);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toEqual([name]);
  });

  it("names the form field of a server error's request field", () => {
    expect(emiTermsFieldOf('loanAmountPaise')).toBe('loanAmount');
    expect(emiTermsFieldOf('annualRateBps')).toBe('ratePercent');
    expect(emiTermsFieldOf('customer_id')).toBeNull();
  });
});
