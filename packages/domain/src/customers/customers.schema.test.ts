import { afterEach, describe, expect, it, vi } from 'vitest';
import { imeiCheckDigit } from '../common/identifiers';
import { ZCreateCustomerRequest } from './customers.schema';

const imei = (body14: string) => `${body14}${imeiCheckDigit(body14)}`;

/** A request that passes, with the date of birth under test. */
const request = (dateOfBirth: string) => ({
  firstName: 'Asha',
  lastName: 'Patil',
  mobile: '+919876543210',
  imei1: imei('49015420323751'),
  imei2: imei('35693803564380'),
  productId: 1,
  pricePaise: 1_500_000,
  downPaymentPaise: 300_000,
  loanAmountPaise: 1_200_000,
  annualRateBps: 1200,
  tenureMonths: 12,
  dateOfBirth,
});

const dateOfBirthIssue = (dateOfBirth: string) =>
  ZCreateCustomerRequest.safeParse(request(dateOfBirth)).error?.issues.find(
    (i) => i.path[0] === 'dateOfBirth',
  )?.message;

describe('date of birth must be in the past, on India’s calendar (+05:30)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    // 28-02-2026 11:59 PM in India: the 27th is the past, the 28th is today.
    ['2026-02-28T18:29:59Z', '2026-02-27', undefined],
    ['2026-02-28T18:29:59Z', '2026-02-28', 'Date of birth must be in the past'],
    // 01-03-2026 12:00 AM in India (still the 28th in UTC): the 28th is now the past.
    ['2026-02-28T18:30:00Z', '2026-02-28', undefined],
    ['2026-02-28T18:30:00Z', '2026-03-01', 'Date of birth must be in the past'],
  ])('at %s, %s → %s', (now, dateOfBirth, message) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(now));
    expect(ZCreateCustomerRequest.safeParse(request('2000-01-01')).success).toBe(true);
    expect(dateOfBirthIssue(dateOfBirth)).toBe(message);
  });
});
