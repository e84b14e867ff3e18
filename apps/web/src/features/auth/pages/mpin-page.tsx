import type { authContract } from '@kisht/domain/contract/auth';
import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { useEffect, useState } from 'react';
import { getRememberedPhone, isSignedIn, markHasMpin } from '../../../lib/auth-storage';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import { appPaths, MPIN_MODE_PARAM } from '../../../lib/paths';
import { SignInMobileField, SignInMpinField } from '../components/sign-in-fields';
import { SignInScreen } from '../components/sign-in-screen';
import { SignInButton, SignInForm, SignInRow } from '../components/sign-in-ui';
import { saveOtpChallenge, toOtpChallenge } from '../otp-challenge';
import type { TSignInEnv } from '../sign-in-env';
import { e164Of } from '../sign-in-errors';
import { useSignInForm } from '../use-sign-in-form';

type TLoginWithMpin = (typeof authContract)['loginWithMpin'];
type TForgotMpin = (typeof authContract)['forgotMpin'];
type TSetMpin = (typeof authContract)['setMpin'];

/** The mobile to prefill from the state the screen was opened with (after an MPIN reset), if any. */
const mobileFromState = (state: unknown): string | null => {
  if (typeof state !== 'object' || state === null) return null;
  const { mobile } = state as Record<string, unknown>;
  return typeof mobile === 'string' ? mobile : null;
};

/** Log in with mobile and MPIN; or ask for an OTP to reset a forgotten MPIN. */
const MpinLoginForm = ({ env }: { env: TSignInEnv }) => {
  const { t } = env;
  const form = useSignInForm(
    t,
    () => ({
      mobile: toLocalMobileDigits(mobileFromState(env.location.state) ?? getRememberedPhone() ?? ''),
      mpin: '',
    }),
    ['mobile', 'mpin'],
  );
  const { values, errors, failure, change } = form;
  const [hasMobile] = useState(values.mobile !== '');
  const [busy, setBusy] = useState<'login' | 'forgot' | null>(null);

  const login = async () => {
    if (!form.check(['mobile', 'mpin'])) return;
    setBusy('login');
    const body: TContractBody<TLoginWithMpin> = {
      orgId: env.brand.orgId,
      mobile: e164Of(values.mobile),
      mpin: values.mpin,
    };
    const result = await env.call<TContractData<TLoginWithMpin>>({
      url: paths.auth.loginWithMpin,
      method: 'POST',
      body,
    });
    setBusy(null);
    if (!result.data) {
      // Wrong MPIN, or locked: the server's words show; the MPIN empties for another try.
      form.setValues({ ...values, mpin: '' });
      return form.refuse(result.error);
    }
    env.keepSession(result.data);
    env.navigate(appPaths.dashboard.href(), { replace: true });
  };

  /** "Forgot MPIN?" needs only the mobile: only its check is shown. */
  const forgot = async () => {
    if (!form.check(['mobile'])) return;
    setBusy('forgot');
    const mobile = e164Of(values.mobile);
    const body: TContractBody<TForgotMpin> = { orgId: env.brand.orgId, mobile };
    const result = await env.call<TContractData<TForgotMpin>>({
      url: paths.auth.forgotMpin,
      method: 'POST',
      body,
    });
    setBusy(null);
    if (!result.data) return form.refuse(result.error);
    const challenge = toOtpChallenge(mobile, result.data, 'FORGOT_PASSWORD');
    saveOtpChallenge(challenge);
    env.navigate(appPaths.otp.href(), { state: challenge });
  };

  return (
    <SignInScreen env={env} title={t('mpin.loginTitle')} subtitle={t('mpin.loginSubtitle')}>
      <SignInForm onSubmit={() => void login()} failure={failure}>
        <SignInMobileField
          label={t('mpin.mobileLabel')}
          value={values.mobile}
          onChange={(digits) => change('mobile', digits)}
          error={errors.mobile ?? null}
          testId="mpin-mobile"
          autoFocus={!hasMobile}
        />
        <SignInMpinField
          label={t('mpin.label')}
          name="mpin"
          autoComplete="current-password"
          value={values.mpin}
          onChange={(digits) => change('mpin', digits)}
          error={errors.mpin ?? null}
          testId="mpin-input"
          autoFocus={hasMobile}
        />
        <SignInButton
          type="submit"
          variant="contained"
          isLoading={busy === 'login'}
          testId="mpin-login-submit"
        >
          {t('mpin.submit')}
        </SignInButton>
        <SignInRow>
          <SignInButton onClick={() => env.navigate(appPaths.login.href())} testId="mpin-use-otp">
            {t('mpin.useOtp')}
          </SignInButton>
          <SignInButton onClick={() => void forgot()} isLoading={busy === 'forgot'} testId="mpin-forgot">
            {t('mpin.forgot')}
          </SignInButton>
        </SignInRow>
      </SignInForm>
    </SignInScreen>
  );
};

/** Offered right after an OTP login to someone without an MPIN: choose one (twice) or skip. */
const SetMpinForm = ({ env }: { env: TSignInEnv }) => {
  const { t } = env;
  const form = useSignInForm(t, { mpin: '', mpinConfirmation: '' }, ['mpin']);
  const { values, errors, failure, change } = form;
  const [isBusy, setIsBusy] = useState(false);

  const goOn = () => env.navigate(appPaths.dashboard.href(), { replace: true });

  const submit = async () => {
    if (!form.check(['mpin', 'mpinConfirmation'])) return;
    setIsBusy(true);
    const body: TContractBody<TSetMpin> = { mpin: values.mpin };
    const result = await env.call<TContractData<TSetMpin>>({ url: paths.auth.setMpin, method: 'POST', body });
    setIsBusy(false);
    if (!result.data) return form.refuse(result.error);
    markHasMpin(result.data.hasMpin);
    env.notify?.(t('mpin.setDone'));
    goOn();
  };

  return (
    <SignInScreen env={env} title={t('mpin.setTitle')} subtitle={t('mpin.setSubtitle')}>
      <SignInForm onSubmit={() => void submit()} failure={failure}>
        <SignInMpinField
          label={t('mpin.newLabel')}
          name="mpin"
          autoComplete="new-password"
          value={values.mpin}
          onChange={(digits) => change('mpin', digits)}
          error={errors.mpin ?? null}
          testId="mpin-new"
          autoFocus
        />
        <SignInMpinField
          label={t('mpin.confirmLabel')}
          name="mpinConfirmation"
          autoComplete="new-password"
          value={values.mpinConfirmation}
          onChange={(digits) => change('mpinConfirmation', digits)}
          error={errors.mpinConfirmation ?? null}
          testId="mpin-confirm"
        />
        <SignInButton type="submit" variant="contained" isLoading={isBusy} testId="mpin-set-submit">
          {t('mpin.setSubmit')}
        </SignInButton>
        <SignInButton onClick={goOn} testId="mpin-skip">
          {t('mpin.skip')}
        </SignInButton>
      </SignInForm>
    </SignInScreen>
  );
};

/**
 * Spec §2 m_pin (4-digit MPIN). `?mode=set`: offered after an OTP login to someone without an
 * MPIN; needs the session, so without one it goes to login. Otherwise (login mode): mobile
 * (prefilled from local storage `phone`) and MPIN sign in; "Forgot MPIN?" sends an OTP and opens
 * the OTP screen in forgot mode. Someone signed in is sent to the dashboard.
 */
export const MpinPage = ({ env }: { env: TSignInEnv }) => {
  const isSetMode = new URLSearchParams(env.location.search).get(MPIN_MODE_PARAM) === 'set';
  const signedIn = isSignedIn();
  // Where this mode does not belong: set needs a session, login must not have one.
  const elsewhere =
    isSetMode === signedIn ? null : isSetMode ? appPaths.login.href() : appPaths.dashboard.href();
  useEffect(() => {
    if (elsewhere) env.navigate(elsewhere, { replace: true });
  }, [elsewhere, env]);
  if (elsewhere) return null;
  return isSetMode ? <SetMpinForm env={env} /> : <MpinLoginForm env={env} />;
};
