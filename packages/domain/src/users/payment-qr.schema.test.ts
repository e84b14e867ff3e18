import { describe, expect, it } from 'vitest';
import {
  INVALID_PAYEE_NAME_MESSAGE,
  INVALID_VPA_MESSAGE,
  ZPayeeName,
  ZSavePaymentQrRequest,
  ZVpa,
} from './payment-qr.schema';

describe('ZVpa (UPI ID, NPCI format)', () => {
  it.each([
    ['ravimobiles@okaxis', 'ravimobiles@okaxis'],
    ['  Ravi.Mobiles-1_2@OKAXIS ', 'ravi.mobiles-1_2@okaxis'],
    ['9876543210@ybl', '9876543210@ybl'],
  ])('accepts %j as %j', (input, stored) => {
    expect(ZVpa.parse(input)).toBe(stored);
  });

  it.each([
    '',
    'ravimobiles',
    'ravi mobiles@okaxis',
    'ravi@ok axis',
    'ravi@okaxis1',
    'ravi@@okaxis',
    'ravi+shop@okaxis',
    'r@okaxis',
    'ravi@',
    '@okaxis',
    `${'a'.repeat(250)}@okaxis`,
  ])('refuses %j with the UPI ID message', (input) => {
    const result = ZVpa.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(INVALID_VPA_MESSAGE);
  });

  it('takes an optional payee name, trimmed, or null for the account name', () => {
    expect(ZSavePaymentQrRequest.parse({ upiId: 'ravi@okaxis' })).toEqual({ upiId: 'ravi@okaxis' });
    expect(
      ZSavePaymentQrRequest.parse({ upiId: 'ravi@okaxis', payeeName: '  R.K. Mobiles & Co-1 ' }),
    ).toEqual({
      upiId: 'ravi@okaxis',
      payeeName: 'R.K. Mobiles & Co-1',
    });
    expect(ZSavePaymentQrRequest.parse({ upiId: 'ravi@okaxis', payeeName: null }).payeeName).toBeNull();
  });

  it.each(['', '   ', 'a'.repeat(51), 'Ravi <Mobiles>', 'Ravi – Andheri', 'रवि मोबाइल्स', 42])(
    'refuses the payee name %j, naming it',
    (payeeName) => {
      const result = ZSavePaymentQrRequest.safeParse({ upiId: 'ravi@okaxis', payeeName });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['payeeName']);
    },
  );

  it('accepts a payee name of exactly 50 characters', () => {
    expect(ZPayeeName.parse('a'.repeat(50))).toBe('a'.repeat(50));
    expect(ZPayeeName.safeParse('Ravi!').error?.issues[0]?.message).toBe(INVALID_PAYEE_NAME_MESSAGE);
  });
});
