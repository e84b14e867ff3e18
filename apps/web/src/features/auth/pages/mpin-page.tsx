import { normaliseIndianMobile } from '@kisht/domain/common/identifiers';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { getRememberedPhone, isSignedIn, markHasMpin, saveAuthSession } from '../../../lib/auth-storage';
import { purgeSessionCache } from '../../../lib/http/api';
import { useOrgId } from '../../../lib/http/org-config-api';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import type { TMpinMode } from '../../../lib/paths';
import { appPaths, MPIN_MODE_PARAM } from '../../../lib/paths';
import { useForgotMpinMutation, useLoginWithMpinMutation, useSetMpinMutation } from '../auth-api';
import { AuthLayout } from '../components/auth-layout';
import { MobileField } from '../components/mobile-field';
import { MpinField } from '../components/mpin-field';
import { saveOtpChallenge, toOtpChallenge } from '../otp-challenge';
import { mobileFromState, validateMobile, validateMpin, validateMpinConfirmation } from '../sign-in-form';

/** Log in with mobile and MPIN; or ask for an OTP to reset a forgotten MPIN. */
const MpinLoginForm = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const dispatch = useDispatch();
  const orgId = useOrgId();
  const [loginWithMpin, { isLoading: isLoggingIn }] = useLoginWithMpinMutation();
  const [forgotMpin, { isLoading: isSendingOtp }] = useForgotMpinMutation();
  const [mobile, setMobile] = useState(() =>
    toLocalMobileDigits(mobileFromState(location.state) ?? getRememberedPhone() ?? ''),
  );
  const [mpin, setMpin] = useState('');
  // Which checks to show: the mobile's for "Forgot MPIN?", both for log in.
  const [touched, setTouched] = useState<'none' | 'mobile' | 'all'>('none');
  const mobileError = touched === 'none' ? null : validateMobile(mobile);
  const mpinError = touched === 'all' ? validateMpin(mpin) : null;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched('all');
    const e164 = normaliseIndianMobile(mobile);
    if (!e164 || validateMpin(mpin)) return;
    const result = await loginWithMpin({ orgId, mobile: e164, mpin });
    if (!result.data) {
      // The server's message (wrong MPIN, locked) has been toasted; let them try again.
      setMpin('');
      return;
    }
    dispatch(purgeSessionCache());
    saveAuthSession(result.data);
    navigate(appPaths.dashboard.href(), { replace: true });
  };

  const handleForgot = async () => {
    setTouched((value) => (value === 'all' ? value : 'mobile'));
    const e164 = normaliseIndianMobile(mobile);
    if (!e164) return;
    const result = await forgotMpin({ orgId, mobile: e164 });
    if (!result.data) return;
    const challenge = toOtpChallenge(e164, result.data, 'FORGOT_PASSWORD');
    saveOtpChallenge(challenge);
    navigate(appPaths.otp.href(), { state: challenge });
  };

  return (
    <AuthLayout title={t('mpin.loginTitle')} subtitle={t('mpin.loginSubtitle')}>
      <Stack component="form" spacing={1.5} noValidate onSubmit={handleSubmit}>
        <MobileField
          label={t('mpin.mobileLabel')}
          value={mobile}
          onChange={setMobile}
          error={mobileError}
          testId="mpin-mobile"
          autoFocus={mobile === ''}
        />
        <MpinField
          label={t('mpin.label')}
          name="mpin"
          value={mpin}
          onChange={setMpin}
          error={mpinError}
          testId="mpin-input"
          autoComplete="current-password"
          autoFocus={mobile !== ''}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          loading={isLoggingIn}
          data-testid="mpin-login-submit"
        >
          {t('mpin.submit')}
        </Button>
        <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
          <Button onClick={() => navigate(appPaths.login.href())} data-testid="mpin-use-otp">
            {t('mpin.useOtp')}
          </Button>
          <Button onClick={handleForgot} loading={isSendingOtp} data-testid="mpin-forgot">
            {t('mpin.forgot')}
          </Button>
        </Stack>
      </Stack>
    </AuthLayout>
  );
};

/** Offered right after an OTP login to someone without an MPIN: choose one (twice) or skip. */
const SetMpinForm = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [setMpinCall, { isLoading }] = useSetMpinMutation();
  const [mpin, setMpin] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const mpinError = isTouched ? validateMpin(mpin) : null;
  const confirmationError = isTouched ? validateMpinConfirmation(mpin, confirmation) : null;

  const goOn = () => navigate(appPaths.dashboard.href(), { replace: true });

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setIsTouched(true);
    if (validateMpin(mpin) || validateMpinConfirmation(mpin, confirmation)) return;
    const result = await setMpinCall({ mpin });
    if (!result.data) return;
    markHasMpin(result.data.hasMpin);
    enqueueSnackbar(t('mpin.setDone'), { variant: 'success' });
    goOn();
  };

  return (
    <AuthLayout title={t('mpin.setTitle')} subtitle={t('mpin.setSubtitle')}>
      <Stack component="form" spacing={1.5} noValidate onSubmit={handleSubmit}>
        <MpinField
          label={t('mpin.newLabel')}
          name="mpin"
          value={mpin}
          onChange={setMpin}
          error={mpinError}
          testId="mpin-new"
          autoComplete="new-password"
          autoFocus
        />
        <MpinField
          label={t('mpin.confirmLabel')}
          name="mpinConfirmation"
          value={confirmation}
          onChange={setConfirmation}
          error={confirmationError}
          testId="mpin-confirm"
          autoComplete="new-password"
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          loading={isLoading}
          data-testid="mpin-set-submit"
        >
          {t('mpin.setSubmit')}
        </Button>
        <Button onClick={goOn} data-testid="mpin-skip">
          {t('mpin.skip')}
        </Button>
      </Stack>
    </AuthLayout>
  );
};

const modeOf = (value: string | null): TMpinMode => (value === 'set' ? 'set' : 'login');

/**
 * Spec §2 m_pin (4-digit MPIN). `?mode=set`: offered after an OTP login to someone without an
 * MPIN; needs the session, so without one it goes to login. Otherwise (login mode): mobile
 * (prefilled from local storage `phone`) and MPIN sign in; "Forgot MPIN?" sends an OTP and opens
 * the OTP screen in forgot mode. Someone signed in is sent to the dashboard.
 */
export const MpinPage = () => {
  const [searchParams] = useSearchParams();
  const mode = modeOf(searchParams.get(MPIN_MODE_PARAM));
  if (mode === 'set') return isSignedIn() ? <SetMpinForm /> : <Navigate to={appPaths.login.href()} replace />;
  return isSignedIn() ? <Navigate to={appPaths.dashboard.href()} replace /> : <MpinLoginForm />;
};
