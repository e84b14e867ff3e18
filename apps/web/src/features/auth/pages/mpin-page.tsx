import { MOBILE_PREFIX } from '@kisht/domain/common/identifier-rules';
import type { authContract } from '@kisht/domain/contract/auth';
import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import { paths } from '@kisht/domain/paths';
import { useEffect, useState } from 'react';
import { getRememberedPhone, isSignedIn, markHasMpin } from '../../../lib/auth-storage';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import { appPaths, MPIN_MODE_PARAM } from '../../../lib/paths';
import { SignInScreen } from '../components/sign-in-screen';
import { SignInButton, SignInField, SignInForm, SignInNotice, SignInRow } from '../components/sign-in-ui';
import { saveOtpChallenge, toOtpChallenge } from '../otp-challenge';
import type { TSignInEnv } from '../sign-in-env';
import {
  checkSignInForm,
  e164Of,
  keepDigits,
  MPIN_LENGTH,
  recheck,
  refusalOf,
  type TSignInErrors,
  type TSignInField,
} from '../sign-in-errors';

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
  const [values, setValues] = useState(() => ({
    mobile: toLocalMobileDigits(mobileFromState(env.location.state) ?? getRememberedPhone() ?? ''),
    mpin: '',
  }));
  const [hasMobile] = useState(values.mobile !== '');
  const [errors, setErrors] = useState<TSignInErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<'login' | 'forgot' | null>(null);

  const change = (field: 'mobile' | 'mpin', value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (errors[field]) setErrors(recheck(errors, field, checkSignInForm(t, [field], next)));
  };

  const failWith = (error: { message: string; fields: { field: string; message: string }[] }) => {
    const refusal = refusalOf(error, ['mobile', 'mpin']);
    setErrors(refusal.errors);
    setFailure(refusal.failure);
  };

  const login = async () => {
    const found = checkSignInForm(t, ['mobile', 'mpin'], values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setFailure(null);
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
      setValues({ ...values, mpin: '' });
      return failWith(result.error);
    }
    env.keepSession(result.data);
    env.navigate(appPaths.dashboard.href(), { replace: true });
  };

  /** "Forgot MPIN?" needs only the mobile: only its check is shown. */
  const forgot = async () => {
    const found = checkSignInForm(t, ['mobile'], values);
    setErrors(found);
    if (found.mobile) return;
    setFailure(null);
    setBusy('forgot');
    const mobile = e164Of(values.mobile);
    const body: TContractBody<TForgotMpin> = { orgId: env.brand.orgId, mobile };
    const result = await env.call<TContractData<TForgotMpin>>({
      url: paths.auth.forgotMpin,
      method: 'POST',
      body,
    });
    setBusy(null);
    if (!result.data) return failWith(result.error);
    const challenge = toOtpChallenge(mobile, result.data, 'FORGOT_PASSWORD');
    saveOtpChallenge(challenge);
    env.navigate(appPaths.otp.href(), { state: challenge });
  };

  return (
    <SignInScreen env={env} title={t('mpin.loginTitle')} subtitle={t('mpin.loginSubtitle')}>
      <SignInForm onSubmit={() => void login()}>
        {failure ? (
          <SignInNotice severity="error" testId="sign-in-error">
            {failure}
          </SignInNotice>
        ) : null}
        <SignInField
          label={t('mpin.mobileLabel')}
          name="mobile"
          type="tel"
          prefix={MOBILE_PREFIX}
          autoComplete="tel-national"
          value={values.mobile}
          onChange={(typed) => change('mobile', toLocalMobileDigits(typed))}
          error={errors.mobile ?? null}
          testId="mpin-mobile"
          autoFocus={!hasMobile}
        />
        <SignInField
          label={t('mpin.label')}
          name="mpin"
          type="password"
          isCode
          autoComplete="current-password"
          value={values.mpin}
          onChange={(typed) => change('mpin', keepDigits(typed, MPIN_LENGTH))}
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
  const [values, setValues] = useState({ mpin: '', mpinConfirmation: '' });
  const [errors, setErrors] = useState<TSignInErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const fields: TSignInField[] = ['mpin', 'mpinConfirmation'];

  const goOn = () => env.navigate(appPaths.dashboard.href(), { replace: true });

  const change = (field: 'mpin' | 'mpinConfirmation', value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (errors[field]) setErrors(recheck(errors, field, checkSignInForm(t, [field], next)));
  };

  const submit = async () => {
    const found = checkSignInForm(t, fields, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setFailure(null);
    setIsBusy(true);
    const body: TContractBody<TSetMpin> = { mpin: values.mpin };
    const result = await env.call<TContractData<TSetMpin>>({ url: paths.auth.setMpin, method: 'POST', body });
    setIsBusy(false);
    if (!result.data) {
      const refusal = refusalOf(result.error, ['mpin']);
      setErrors(refusal.errors);
      setFailure(refusal.failure);
      return;
    }
    markHasMpin(result.data.hasMpin);
    env.notify?.(t('mpin.setDone'));
    goOn();
  };

  return (
    <SignInScreen env={env} title={t('mpin.setTitle')} subtitle={t('mpin.setSubtitle')}>
      <SignInForm onSubmit={() => void submit()}>
        {failure ? (
          <SignInNotice severity="error" testId="sign-in-error">
            {failure}
          </SignInNotice>
        ) : null}
        <SignInField
          label={t('mpin.newLabel')}
          name="mpin"
          type="password"
          isCode
          autoComplete="new-password"
          value={values.mpin}
          onChange={(typed) => change('mpin', keepDigits(typed, MPIN_LENGTH))}
          error={errors.mpin ?? null}
          testId="mpin-new"
          autoFocus
        />
        <SignInField
          label={t('mpin.confirmLabel')}
          name="mpinConfirmation"
          type="password"
          isCode
          autoComplete="new-password"
          value={values.mpinConfirmation}
          onChange={(typed) => change('mpinConfirmation', keepDigits(typed, MPIN_LENGTH))}
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
