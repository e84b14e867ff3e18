import { formatIndianMobile } from '@kisht/domain/common/format';
import type { authContract } from '@kisht/domain/contract/auth';
import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { useEffect, useState } from 'react';
import { appPaths } from '../../../lib/paths';
import { SignInMpinField } from '../components/sign-in-fields';
import { SignInScreen } from '../components/sign-in-screen';
import {
  SignInButton,
  SignInCaption,
  SignInField,
  SignInForm,
  SignInNotice,
  SignInRow,
} from '../components/sign-in-ui';
import type { TOtpChallenge } from '../otp-challenge';
import { clearOtpChallenge, readOtpChallenge, saveOtpChallenge, toOtpChallenge } from '../otp-challenge';
import type { TSignInEnv } from '../sign-in-env';
import { keepDigits, OTP_LENGTH } from '../sign-in-errors';
import { useSignInForm } from '../use-sign-in-form';

type TResetMpin = (typeof authContract)['resetMpin'];
type TVerifyOtp = (typeof authContract)['verifyOtp'];
type TResendOtp = (typeof authContract)['resendOtp'];

/** Whole seconds until `at` (epoch ms), ticking once a second; 0 once it has passed. */
const useSecondsUntil = (at: number): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (now >= at) return;
    const timer = window.setTimeout(() => setNow(Date.now()), 1000);
    return () => window.clearTimeout(timer);
  }, [now, at]);
  return Math.max(0, Math.ceil((at - now) / 1000));
};

/** The state the MPIN login is opened with after a reset: the E.164 mobile to prefill. */
export type TMpinLoginState = { mobile: string };

const OtpForm = ({ env, initialChallenge }: { env: TSignInEnv; initialChallenge: TOtpChallenge }) => {
  const { t } = env;
  const [challenge, setChallenge] = useState(initialChallenge);
  const form = useSignInForm(t, { otp: '', mpin: '', mpinConfirmation: '' }, ['otp', 'mpin']);
  const { values, errors, failure, change } = form;
  const [busy, setBusy] = useState<'submit' | 'resend' | null>(null);
  const secondsToResend = useSecondsUntil(challenge.resendAt);
  const isForgot = challenge.purpose === 'FORGOT_PASSWORD';
  // Sign-in mode checks only the OTP; forgot mode also the new MPIN, typed twice.
  const fields: ('otp' | 'mpin' | 'mpinConfirmation')[] = isForgot
    ? ['otp', 'mpin', 'mpinConfirmation']
    : ['otp'];

  const submit = async () => {
    if (!form.check(fields)) return;
    setBusy('submit');
    if (isForgot) {
      const body: TContractBody<TResetMpin> = {
        orgId: env.brand.orgId,
        mobile: challenge.mobile,
        otp: values.otp,
        mpin: values.mpin,
      };
      const result = await env.call<TContractData<TResetMpin>>({
        url: paths.auth.resetMpin,
        method: 'POST',
        body,
      });
      setBusy(null);
      if (result.error) return form.refuse(result.error);
      clearOtpChallenge();
      env.notify?.(t('otp.resetDone'));
      const state: TMpinLoginState = { mobile: challenge.mobile };
      return env.navigate(appPaths.mPin.href('login'), { replace: true, state });
    }
    const body: TContractBody<TVerifyOtp> = {
      orgId: env.brand.orgId,
      mobile: challenge.mobile,
      otp: values.otp,
    };
    const result = await env.call<TContractData<TVerifyOtp>>({
      url: paths.auth.verifyOtp,
      method: 'POST',
      body,
    });
    setBusy(null);
    if (!result.data) return form.refuse(result.error);
    env.keepSession(result.data);
    clearOtpChallenge();
    // Someone without an MPIN is offered to set one (they may skip).
    env.navigate(result.data.user.hasMpin ? appPaths.dashboard.href() : appPaths.mPin.href('set'), {
      replace: true,
    });
  };

  const resend = async () => {
    form.setFailure(null);
    setBusy('resend');
    const body: TContractBody<TResendOtp> = {
      orgId: env.brand.orgId,
      mobile: challenge.mobile,
      purpose: challenge.purpose,
    };
    const result = await env.call<TContractData<TResendOtp>>({
      url: paths.auth.resendOtp,
      method: 'POST',
      body,
    });
    setBusy(null);
    if (!result.data) return form.setFailure(result.error.message);
    const next = toOtpChallenge(challenge.mobile, result.data, challenge.purpose);
    saveOtpChallenge(next);
    setChallenge(next);
    // A fresh OTP: its field empties and the checks start over; the MPINs typed stay.
    form.setValues({ ...values, otp: '' });
    form.setErrors({});
    if (!next.isDelayed) env.notify?.(t('otp.resent'));
  };

  const back = () => {
    clearOtpChallenge();
    if (isForgot) {
      const state: TMpinLoginState = { mobile: challenge.mobile };
      env.navigate(appPaths.mPin.href('login'), { replace: true, state });
    } else {
      env.navigate(appPaths.login.href(), { replace: true });
    }
  };

  const mobile = formatIndianMobile(challenge.mobile);
  return (
    <SignInScreen
      env={env}
      title={isForgot ? t('otp.forgotTitle') : t('otp.title')}
      subtitle={isForgot ? t('otp.forgotSentTo', { mobile }) : t('otp.sentTo', { mobile })}
    >
      <SignInForm onSubmit={() => void submit()} failure={failure}>
        {challenge.isDelayed ? (
          <SignInNotice severity="warning" testId="otp-delayed">
            {t('otp.delayed')}
          </SignInNotice>
        ) : null}
        {challenge.devOtp ? (
          <SignInNotice severity="info" testId="dev-otp-banner">
            {t('otp.devBanner', { otp: challenge.devOtp })}
          </SignInNotice>
        ) : null}
        <SignInField
          label={t('otp.label')}
          name="otp"
          isCode
          autoComplete="one-time-code"
          value={values.otp}
          onChange={(typed) => change('otp', keepDigits(typed, OTP_LENGTH))}
          error={errors.otp ?? null}
          testId="otp-input"
          autoFocus
        />
        {isForgot ? (
          <>
            <SignInMpinField
              label={t('otp.newMpin')}
              name="mpin"
              autoComplete="new-password"
              value={values.mpin}
              onChange={(digits) => change('mpin', digits)}
              error={errors.mpin ?? null}
              testId="reset-mpin-new"
            />
            <SignInMpinField
              label={t('otp.confirmMpin')}
              name="mpinConfirmation"
              autoComplete="new-password"
              value={values.mpinConfirmation}
              onChange={(digits) => change('mpinConfirmation', digits)}
              error={errors.mpinConfirmation ?? null}
              testId="reset-mpin-confirm"
            />
          </>
        ) : null}
        <SignInButton type="submit" variant="contained" isLoading={busy === 'submit'} testId="otp-submit">
          {isForgot ? t('otp.resetSubmit') : t('otp.submit')}
        </SignInButton>
        {/* The server answers alike for every number (issue 12): say why an SMS may never come. */}
        <SignInCaption testId="otp-only-registered">{t('otp.onlyRegistered')}</SignInCaption>
        <SignInRow>
          <SignInButton onClick={back} testId="otp-change-number">
            {isForgot ? t('otp.backToMpin') : t('otp.changeNumber')}
          </SignInButton>
          <SignInButton
            onClick={() => void resend()}
            disabled={secondsToResend > 0}
            isLoading={busy === 'resend'}
            testId="otp-resend"
          >
            {secondsToResend > 0 ? t('otp.resendIn', { seconds: secondsToResend }) : t('otp.resend')}
          </SignInButton>
        </SignInRow>
      </SignInForm>
    </SignInScreen>
  );
};

/**
 * Spec §2 otp. Sign-in mode (purpose LOGIN): verifies the OTP, stores the session (spec §3 keys)
 * and opens the dashboard, or first offers to set an MPIN when the user has none. Forgot mode
 * (purpose FORGOT_PASSWORD, from "Forgot MPIN?"): the OTP and a new MPIN twice reset the MPIN, then
 * the MPIN login opens. Both can resend the OTP once the cool-down has run out. The server gives
 * the same answer for a number with no account (no SMS is sent), so the screen says that only
 * registered numbers get an OTP; when the SMS service was slow it says the SMS is on its way.
 * Without a challenge (opened directly) it goes to login.
 */
export const OtpPage = ({ env }: { env: TSignInEnv }) => {
  const challenge = readOtpChallenge(env.location.state);
  useEffect(() => {
    if (!challenge) env.navigate(appPaths.login.href(), { replace: true });
  }, [challenge, env]);
  return challenge ? <OtpForm env={env} initialChallenge={challenge} /> : null;
};
