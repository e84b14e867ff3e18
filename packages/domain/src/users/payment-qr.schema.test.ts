import { describe, expect, it } from 'vitest';
import { INVALID_VPA_MESSAGE, ZSavePaymentQrRequest, ZVpa } from './payment-qr.schema';

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

  it('refuses a payee name in the save request, naming it', () => {
    const result = ZSavePaymentQrRequest.safeParse({ upiId: 'ravi@okaxis', payeeName: 'Someone else' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['payeeName']);
    expect(ZSavePaymentQrRequest.parse({ upiId: 'ravi@okaxis' })).toEqual({ upiId: 'ravi@okaxis' });
  });
});
