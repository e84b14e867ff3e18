import { describe, expect, it } from 'vitest';
import {
  birthdayMonthDays,
  canShowMessages,
  isBirthdayOn,
  ZSendCustomerMessageRequest,
} from './messages.schema';

describe('isBirthdayOn (+05:30 day)', () => {
  it.each([
    ['1990-11-28', '2026-11-28', true],
    ['1990-11-28', '2026-11-27', false],
    ['1990-12-28', '2026-11-28', false],
    ['2000-02-29', '2028-02-29', true],
    ['2000-02-29', '2027-02-28', true],
    ['2000-02-29', '2028-02-28', false],
    ['1990-02-28', '2027-02-28', true],
    [null, '2026-11-28', false],
  ])('born %s, today %s → %s', (born, today, expected) => {
    expect(isBirthdayOn(born, today)).toBe(expected);
  });

  it('matches 29 February on 28 February only in a common year', () => {
    expect(birthdayMonthDays('2027-02-28')).toEqual(['02-28', '02-29']);
    expect(birthdayMonthDays('2100-02-28')).toEqual(['02-28', '02-29']);
    expect(birthdayMonthDays('2000-02-28')).toEqual(['02-28']);
  });
});

describe('send_fcm_retailer_to_customer request', () => {
  it('trims, drops a blank title, and refuses an empty or too long message', () => {
    expect(ZSendCustomerMessageRequest.parse({ customer_id: 1, title: '  ', message: ' Hi ' })).toEqual({
      customer_id: 1,
      message: 'Hi',
    });
    expect(ZSendCustomerMessageRequest.safeParse({ customer_id: 1, message: '   ' }).success).toBe(false);
    expect(ZSendCustomerMessageRequest.safeParse({ customer_id: 1, message: 'x'.repeat(501) }).success).toBe(
      false,
    );
  });

  it('offers messages only to the device-channel families (0 policy controller, 2 link-based)', () => {
    expect([0, 1, 2, 3].map(canShowMessages)).toEqual([true, false, true, false]);
  });
});
