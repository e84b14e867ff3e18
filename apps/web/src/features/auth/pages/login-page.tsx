import type { authContract } from '@kisht/domain/contract/auth';
import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { useState } from 'react';
import { appPaths } from '../../../lib/paths';
import { GoogleSignIn } from '../components/google-sign-in';
import { SignInMobileField } from '../components/sign-in-fields';
import { SignInScreen } from '../components/sign-in-screen';
import { SignInButton, SignInDivider, SignInForm } from '../components/sign-in-ui';
import { saveOtpChallenge, toOtpChallenge } from '../otp-challenge';
import type { TSignInEnv } from '../sign-in-env';
import { checkSignInForm, e164Of, refusalOf, type TSignInErrors } from '../sign-in-errors';

type TLoginWithOtp = (typeof authContract)['loginWithOtp'];

/**
 * Spec §2 login: the mobile number to send a sign-in OTP to, or the way to the MPIN login, or Sign
 * in with Google when the server offers it, and what app/ composes under it (the join request).
 * A number typed and left is checked from then on; an empty field only on submit.
 */
export const LoginPage = ({ env }: { env: TSignInEnv }) => {
  const { t } = env;
  const [mobile, setMobile] = useState('');
  const [isChecked, setIsChecked] = useState(false);
  const [errors, setErrors] = useState<TSignInErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const check = (value: string) => checkSignInForm(t, ['mobile'], { mobile: value });

  const submit = async () => {
    const found = check(mobile);
    setIsChecked(true);
    setErrors(found);
    if (found.mobile) return;
    setFailure(null);
    setIsBusy(true);
    const e164 = e164Of(mobile);
    const body: TContractBody<TLoginWithOtp> = { orgId: env.brand.orgId, mobile: e164 };
    const result = await env.call<TContractData<TLoginWithOtp>>({
      url: paths.auth.loginWithOtp,
      method: 'POST',
      body,
    });
    setIsBusy(false);
    if (!result.data) {
      const refusal = refusalOf(result.error, ['mobile']);
      setErrors(refusal.errors);
      setFailure(refusal.failure);
      return;
    }
    const challenge = toOtpChallenge(e164, result.data, 'LOGIN');
    saveOtpChallenge(challenge);
    env.navigate(appPaths.otp.href(), { state: challenge });
  };

  return (
    <SignInScreen env={env} title={t('login.title')} subtitle={t('login.subtitle')}>
      <SignInForm onSubmit={() => void submit()} failure={failure}>
        <SignInMobileField
          label={t('login.mobileLabel')}
          value={mobile}
          onChange={(digits) => {
            setMobile(digits);
            if (isChecked) setErrors(check(digits));
          }}
          onBlur={() => {
            if (mobile === '') return;
            setIsChecked(true);
            setErrors(check(mobile));
          }}
          error={errors.mobile ?? null}
          testId="login-mobile"
          autoFocus
        />
        <SignInButton type="submit" variant="contained" isLoading={isBusy} testId="login-submit">
          {t('login.submit')}
        </SignInButton>
        <SignInDivider />
        <SignInButton
          variant="outlined"
          onClick={() => env.navigate(appPaths.mPin.href('login'))}
          testId="login-with-mpin"
        >
          {t('login.withMpin')}
        </SignInButton>
        <GoogleSignIn env={env} />
        {env.loginFooter}
      </SignInForm>
    </SignInScreen>
  );
};
