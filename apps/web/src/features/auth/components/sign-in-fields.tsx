import { MOBILE_PREFIX } from '@kisht/domain/common/identifier-rules';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import { keepDigits, MPIN_LENGTH } from '../sign-in-errors';
import { SignInField, type TSignInFieldProps } from './sign-in-ui';

/**
 * The mobile field of the sign-in forms (spec §9): +91 shown before it; what is typed or pasted
 * reaches `onChange` as at most 10 local digits (lib/mobile-input toLocalMobileDigits).
 */
export const SignInMobileField = ({
  onChange,
  ...shown
}: Omit<TSignInFieldProps, 'name' | 'type' | 'prefix' | 'autoComplete' | 'isCode'>) => (
  <SignInField
    {...shown}
    name="mobile"
    type="tel"
    prefix={MOBILE_PREFIX}
    autoComplete="tel-national"
    onChange={(typed) => onChange(toLocalMobileDigits(typed))}
  />
);

/**
 * An MPIN field of the sign-in forms (the MPIN, a new one, or its confirmation): hidden, spaced,
 * and what is typed reaches `onChange` as at most MPIN_LENGTH digits.
 */
export const SignInMpinField = ({
  onChange,
  ...shown
}: Omit<TSignInFieldProps, 'type' | 'prefix' | 'isCode'> & {
  name: 'mpin' | 'mpinConfirmation';
  autoComplete: 'current-password' | 'new-password';
}) => (
  <SignInField
    {...shown}
    type="password"
    isCode
    onChange={(typed) => onChange(keepDigits(typed, MPIN_LENGTH))}
  />
);
