import { describe, expect, it } from 'vitest';
import {
  keepDigits,
  validateMobile,
  validateMpin,
  validateMpinConfirmation,
  validateOtp,
} from './sign-in-form';

describe('sign-in form checks', () => {
  it("says 'This is a required field' for an empty MPIN, confirmation or OTP (spec §5)", () => {
    expect(validateMpin('')).toBe('validation.required');
    expect(validateMpinConfirmation('1234', '')).toBe('validation.required');
    expect(validateOtp('')).toBe('validation.required');
    expect(validateMobile('')).toBe('validation.required');
  });

  it('wants an Indian mobile number', () => {
    expect(validateMobile('9876543210')).toBeNull();
    expect(validateMobile('1234567890')).toBe('validation.invalidMobile');
  });

  it('wants exactly four digits for an MPIN', () => {
    expect(validateMpin('1234')).toBeNull();
    expect(validateMpin('123')).toBe('validation.invalidMpin');
    expect(validateMpin('12a4')).toBe('validation.invalidMpin');
  });

  it('wants the confirmation to match', () => {
    expect(validateMpinConfirmation('1234', '1234')).toBeNull();
    expect(validateMpinConfirmation('1234', '4321')).toBe('validation.mpinMismatch');
  });

  it('wants six digits for an OTP', () => {
    expect(validateOtp('123456')).toBeNull();
    expect(validateOtp('12345')).toBe('validation.invalidOtp');
  });

  it('keeps only digits, up to the length', () => {
    expect(keepDigits('12-3 4 5', 4)).toBe('1234');
  });
});
