import { describe, expect, it } from 'vitest';
import {
  checkMobileForm,
  keepDigits,
  signInErrorKey,
  ZMobileForm,
  ZMpinLoginForm,
  ZOtpForm,
  ZResetMpinForm,
  ZSetMpinForm,
} from './sign-in-form';

/** The fields the schema refuses, each with the translation key the form shows for it. */
const refusals = (
  schema: {
    safeParse: (value: unknown) => {
      success: boolean;
      error?: { issues: { path: PropertyKey[]; message: string }[] };
    };
  },
  values: Record<string, string>,
) => {
  const result = schema.safeParse(values);
  const keys: Record<string, string | null> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0]) as 'mobile' | 'otp' | 'mpin' | 'mpinConfirmation';
    keys[field] ??= signInErrorKey(field, issue, values[field] ?? '');
  }
  return keys;
};

describe('sign-in forms: the domain request schemas', () => {
  it("says 'This is a required field' for an empty mobile, OTP, MPIN or confirmation (spec §5)", () => {
    expect(refusals(ZMobileForm, { mobile: '' })).toEqual({ mobile: 'validation.required' });
    expect(refusals(ZResetMpinForm, { otp: '', mpin: '', mpinConfirmation: '' })).toEqual({
      otp: 'validation.required',
      mpin: 'validation.required',
      mpinConfirmation: 'validation.required',
    });
  });

  it('wants an Indian mobile number, and sends it E.164', () => {
    expect(ZMobileForm.parse({ mobile: '9876543210' })).toEqual({ mobile: '+919876543210' });
    expect(refusals(ZMobileForm, { mobile: '1234567890' })).toEqual({ mobile: 'validation.invalidMobile' });
    expect(ZMpinLoginForm.parse({ mobile: '9876543210', mpin: '1234' })).toEqual({
      mobile: '+919876543210',
      mpin: '1234',
    });
  });

  it('wants exactly four digits for an MPIN', () => {
    expect(refusals(ZMpinLoginForm, { mobile: '9876543210', mpin: '1234' })).toEqual({});
    expect(refusals(ZMpinLoginForm, { mobile: '9876543210', mpin: '123' })).toEqual({
      mpin: 'validation.invalidMpin',
    });
    expect(refusals(ZSetMpinForm, { mpin: '12a4', mpinConfirmation: '12a4' })).toEqual({
      mpin: 'validation.invalidMpin',
    });
  });

  it('wants the confirmation to match', () => {
    expect(refusals(ZSetMpinForm, { mpin: '1234', mpinConfirmation: '1234' })).toEqual({});
    expect(refusals(ZSetMpinForm, { mpin: '1234', mpinConfirmation: '4321' })).toEqual({
      mpinConfirmation: 'validation.mpinMismatch',
    });
  });

  it('wants six digits for an OTP', () => {
    expect(refusals(ZOtpForm, { otp: '123456' })).toEqual({});
    expect(refusals(ZOtpForm, { otp: '12345' })).toEqual({ otp: 'validation.invalidOtp' });
  });

  it('keeps only digits, up to the length', () => {
    expect(keepDigits('12-3 4 5', 4)).toBe('1234');
  });
});

describe('the login form without zod (checkMobileForm)', () => {
  it.each(['9876543210', ' 9876543210 ', '+91 98765-43210', '09876543210', '', '1234567890', '98765'])(
    'agrees with ZMobileForm on %j',
    (mobile) => {
      const parsed = ZMobileForm.safeParse({ mobile });
      const checked = checkMobileForm({ mobile });
      if (parsed.success) {
        expect(checked).toEqual({ values: parsed.data, error: null });
      } else {
        expect(checked.values).toBeNull();
        expect(checked.error?.message).toBe(parsed.error.issues[0]?.message);
        expect(signInErrorKey('mobile', checked.error ?? undefined, mobile)).toBe(
          signInErrorKey('mobile', parsed.error.issues[0], mobile),
        );
      }
    },
  );
});
