import {
  ZLoginWithOtpRequest,
  ZMpinLoginRequest,
  ZSetMpinRequest,
  ZVerifyOtpRequest,
} from '@kisht/domain/auth/auth.schema';
import { describe, expect, it } from 'vitest';
import { translatorOf } from '../../lib/plain-i18n';
import {
  checkSignInField,
  checkSignInForm,
  e164Of,
  keepDigits,
  recheck,
  refusalOf,
  serverFieldErrors,
} from './sign-in-errors';

// The sign-in screens check without zod (issue 28); these show that they agree with the domain's
// request schemas, which the server checks with.

const MOBILES = ['9876543210', ' 9876543210 ', '+91 98765-43210', '09876543210', '', '1234567890', '98765'];
const OTPS = ['123456', '12345', '1234567', '12a456', ''];
const MPINS = ['1234', '123', '12345', '12a4', ''];

describe('sign-in checks agree with the domain request schemas', () => {
  it.each(MOBILES)('mobile %j: refused by both or by neither, and sent as the schema sends it', (mobile) => {
    const parsed = ZLoginWithOtpRequest.pick({ mobile: true }).safeParse({ mobile: mobile.trim() });
    const problem = checkSignInField('mobile', mobile);
    expect(problem === null).toBe(parsed.success);
    if (parsed.success) expect(e164Of(mobile)).toBe(parsed.data.mobile);
    else expect(problem).toBe(mobile.trim() === '' ? 'validation.required' : 'validation.invalidMobile');
  });

  it.each(OTPS)('OTP %j', (otp) => {
    const parsed = ZVerifyOtpRequest.pick({ otp: true }).safeParse({ otp });
    const problem = checkSignInField('otp', otp);
    expect(problem === null).toBe(parsed.success);
    if (!parsed.success) expect(problem).toBe(otp === '' ? 'validation.required' : 'validation.invalidOtp');
  });

  it.each(MPINS)('MPIN %j (login and set)', (mpin) => {
    const login = ZMpinLoginRequest.pick({ mpin: true }).safeParse({ mpin });
    const set = ZSetMpinRequest.safeParse({ mpin });
    expect(login.success).toBe(set.success);
    const problem = checkSignInField('mpin', mpin);
    expect(problem === null).toBe(login.success);
    if (!login.success) expect(problem).toBe(mpin === '' ? 'validation.required' : 'validation.invalidMpin');
  });

  it('wants the confirmation to match the MPIN', () => {
    expect(checkSignInField('mpinConfirmation', '1234', '1234')).toBeNull();
    expect(checkSignInField('mpinConfirmation', '4321', '1234')).toBe('validation.mpinMismatch');
    expect(checkSignInField('mpinConfirmation', '', '1234')).toBe('validation.required');
  });
});

describe('sign-in form errors', () => {
  const t = translatorOf({ validation: { required: 'Required!', invalidOtp: 'Six digits' } });

  it('words the problems of the fields asked for, and nothing for the others', () => {
    expect(checkSignInForm(t, ['otp'], { otp: '12', mpin: '' })).toEqual({ otp: 'Six digits' });
    expect(checkSignInForm(t, ['otp', 'mpin'], { otp: '123456', mpin: '' })).toEqual({ mpin: 'Required!' });
    expect(checkSignInForm(t, ['otp'], { otp: '123456' })).toEqual({});
  });

  it("keeps the server's words for the form's own fields only", () => {
    expect(
      serverFieldErrors(
        [
          { field: 'otp', message: 'This OTP has expired' },
          { field: 'orgId', message: 'Unknown organisation' },
        ],
        ['otp', 'mpin'],
      ),
    ).toEqual({ otp: 'This OTP has expired' });
  });

  it('shows a refusal under the fields it names, and above the form unless a field says the same', () => {
    expect(
      refusalOf({ message: 'Wrong OTP', fields: [{ field: 'otp', message: 'Wrong OTP' }] }, ['otp']),
    ).toEqual({ errors: { otp: 'Wrong OTP' }, failure: null });
    // The field says less than the message: both show.
    expect(
      refusalOf(
        { message: 'Incorrect MPIN. 4 tries left', fields: [{ field: 'mpin', message: 'Incorrect MPIN' }] },
        ['mobile', 'mpin'],
      ),
    ).toEqual({ errors: { mpin: 'Incorrect MPIN' }, failure: 'Incorrect MPIN. 4 tries left' });
    expect(refusalOf({ message: 'Too many tries', fields: [] }, ['otp'])).toEqual({
      errors: {},
      failure: 'Too many tries',
    });
  });

  it("replaces one field's error on a new check, leaving the others", () => {
    const errors = { otp: 'Six digits', mpin: 'Required!' };
    expect(recheck(errors, 'otp', {})).toEqual({ mpin: 'Required!' });
    expect(recheck(errors, 'otp', { otp: 'Required!' })).toEqual({ otp: 'Required!', mpin: 'Required!' });
  });

  it('keeps only digits, up to the length', () => {
    expect(keepDigits('12-3 4 5', 4)).toBe('1234');
  });
});
