import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { enqueueSnackbar } from 'notistack';
import type { FormEvent } from 'react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { appPaths } from '../../../app/paths';
import { saveAuthSession } from '../../../lib/auth-storage';
import { formatMobile } from '../../../lib/format';
import { purgeSessionCache } from '../../../lib/http/api';
import { useOrgId } from '../../../lib/http/org-config-api';
import { useLoginWithOtpMutation, useVerifyOtpMutation } from '../auth-api';
import { AuthLayout } from '../components/auth-layout';
import type { TOtpChallenge } from '../otp-challenge';
import { clearOtpChallenge, readOtpChallenge, saveOtpChallenge, toOtpChallenge } from '../otp-challenge';

const OTP_LENGTH = 6;
const OTP_PATTERN = /^\d{6}$/;

type TOtpError = 'validation.required' | 'validation.invalidOtp' | null;

const validateOtp = (otp: string): TOtpError => {
  if (otp === '') return 'validation.required';
  return OTP_PATTERN.test(otp) ? null : 'validation.invalidOtp';
};

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

const OtpForm = ({ initialChallenge }: { initialChallenge: TOtpChallenge }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const orgId = useOrgId();
  const [verifyOtp, { isLoading: isVerifying }] = useVerifyOtpMutation();
  const [loginWithOtp, { isLoading: isResending }] = useLoginWithOtpMutation();
  const [challenge, setChallenge] = useState(initialChallenge);
  const [otp, setOtp] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const secondsToResend = useSecondsUntil(challenge.resendAt);
  const error = isTouched ? validateOtp(otp) : null;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setIsTouched(true);
    if (validateOtp(otp)) return;
    const result = await verifyOtp({ orgId, mobile: challenge.mobile, otp });
    if (!result.data) return;
    dispatch(purgeSessionCache());
    saveAuthSession(result.data);
    clearOtpChallenge();
    navigate(appPaths.dashboard.href(), { replace: true });
  };

  const handleResend = async () => {
    const result = await loginWithOtp({ orgId, mobile: challenge.mobile });
    if (!result.data) return;
    const next = toOtpChallenge(challenge.mobile, result.data);
    saveOtpChallenge(next);
    setChallenge(next);
    setOtp('');
    setIsTouched(false);
    enqueueSnackbar(t('otp.resent'), { variant: 'success' });
  };

  const handleChangeNumber = () => {
    clearOtpChallenge();
    navigate(appPaths.login.href(), { replace: true });
  };

  return (
    <AuthLayout title={t('otp.title')} subtitle={t('otp.sentTo', { mobile: formatMobile(challenge.mobile) })}>
      <Stack component="form" spacing={3} noValidate onSubmit={handleSubmit}>
        {challenge.devOtp ? (
          <Alert severity="info" data-testid="dev-otp-banner">
            {t('otp.devBanner', { otp: challenge.devOtp })}
          </Alert>
        ) : null}
        <TextField
          label={t('otp.label')}
          name="otp"
          value={otp}
          onChange={(event) => setOtp(event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH))}
          error={Boolean(error)}
          helperText={error ? t(error) : ' '}
          autoFocus
          required
          slotProps={{
            htmlInput: {
              inputMode: 'numeric',
              autoComplete: 'one-time-code',
              'data-testid': 'otp-input',
              style: { letterSpacing: '0.5em', fontSize: 22, textAlign: 'center' },
            },
          }}
        />
        <Button type="submit" variant="contained" size="large" loading={isVerifying} data-testid="otp-submit">
          {t('otp.submit')}
        </Button>
        <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
          <Button onClick={handleChangeNumber} data-testid="otp-change-number">
            {t('otp.changeNumber')}
          </Button>
          <Button
            onClick={handleResend}
            disabled={secondsToResend > 0}
            loading={isResending}
            data-testid="otp-resend"
          >
            {secondsToResend > 0 ? t('otp.resendIn', { seconds: secondsToResend }) : t('otp.resend')}
          </Button>
        </Stack>
      </Stack>
    </AuthLayout>
  );
};

/** Spec §2 otp: verifies the sign-in OTP, stores the session (spec §3 keys) and opens the dashboard. */
export const OtpPage = () => {
  const location = useLocation();
  const challenge = readOtpChallenge(location.state);
  if (!challenge) return <Navigate to={appPaths.login.href()} replace />;
  return <OtpForm initialChallenge={challenge} />;
};
