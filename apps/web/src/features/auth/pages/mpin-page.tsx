import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import type { Path } from 'react-hook-form';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { getRememberedPhone, isSignedIn, markHasMpin, saveAuthSession } from '../../../lib/auth-storage';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { purgeSessionCache } from '../../../lib/http/api';
import { isApiError } from '../../../lib/http/base-query';
import { useOrgId } from '../../../lib/http/org-config-api';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import type { TMpinMode } from '../../../lib/paths';
import { appPaths, MPIN_MODE_PARAM } from '../../../lib/paths';
import { useForgotMpinMutation, useLoginWithMpinMutation, useSetMpinMutation } from '../auth-api';
import { AuthLayout } from '../components/auth-layout';
import { MobileField } from '../components/mobile-field';
import { MpinController } from '../components/mpin-field';
import { saveOtpChallenge, toOtpChallenge } from '../otp-challenge';
import type { TMpinLoginFormOutput, TMpinLoginFormValues, TSetMpinFormValues } from '../sign-in-form';
import { mobileFromState, signInErrorText, ZMobileForm, ZMpinLoginForm, ZSetMpinForm } from '../sign-in-form';

/** Log in: the mobile (sent E.164) and the MPIN, by domain ZMpinLoginRequest. */
const mpinLoginResolver = zodResolver<TMpinLoginFormValues, unknown, TMpinLoginFormOutput>(ZMpinLoginForm);
/** Set an MPIN: the MPIN by domain ZSetMpinRequest, typed twice. */
const setMpinResolver = zodResolver<TSetMpinFormValues, unknown, TSetMpinFormValues>(ZSetMpinForm);

/** The request fields the server may name in its field errors, as the forms' fields. */
const SERVER_FIELDS: ReadonlyArray<Path<TMpinLoginFormValues>> = ['mobile', 'mpin'];
const formFieldOf = (requestField: string) => SERVER_FIELDS.find((field) => field === requestField) ?? null;
const mpinFieldOf = (requestField: string) => (requestField === 'mpin' ? ('mpin' as const) : null);

/** Log in with mobile and MPIN; or ask for an OTP to reset a forgotten MPIN. */
const MpinLoginForm = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const dispatch = useDispatch();
  const orgId = useOrgId();
  const [loginWithMpin, { isLoading: isLoggingIn }] = useLoginWithMpinMutation();
  const [forgotMpin, { isLoading: isSendingOtp }] = useForgotMpinMutation();
  const form = useForm<TMpinLoginFormValues, unknown, TMpinLoginFormOutput>({
    resolver: mpinLoginResolver,
    defaultValues: {
      mobile: toLocalMobileDigits(mobileFromState(location.state) ?? getRememberedPhone() ?? ''),
      mpin: '',
    },
  });
  const hasMobile = form.getValues('mobile') !== '';

  // The schema's ZMobile has turned the 10 digits into E.164.
  const handleSubmit = form.handleSubmit(async ({ mobile, mpin }) => {
    const result = await loginWithMpin({ orgId, mobile, mpin });
    if (!result.data) {
      // The server's message (wrong MPIN, locked) has been toasted; let them try again.
      form.setValue('mpin', '', { shouldValidate: true });
      if (isApiError(result.error)) applyServerFieldErrors(result.error, form.setError, formFieldOf);
      return;
    }
    dispatch(purgeSessionCache());
    saveAuthSession(result.data);
    navigate(appPaths.dashboard.href(), { replace: true });
  });

  /** "Forgot MPIN?" needs only the mobile: only its check is shown. */
  const handleForgot = async () => {
    if (!(await form.trigger('mobile'))) return;
    const { mobile } = ZMobileForm.parse({ mobile: form.getValues('mobile') });
    const result = await forgotMpin({ orgId, mobile });
    if (!result.data) {
      if (isApiError(result.error)) applyServerFieldErrors(result.error, form.setError, formFieldOf);
      return;
    }
    const challenge = toOtpChallenge(mobile, result.data, 'FORGOT_PASSWORD');
    saveOtpChallenge(challenge);
    navigate(appPaths.otp.href(), { state: challenge });
  };

  return (
    <AuthLayout title={t('mpin.loginTitle')} subtitle={t('mpin.loginSubtitle')}>
      <Stack component="form" spacing={1.5} noValidate onSubmit={(event) => void handleSubmit(event)}>
        <Controller
          control={form.control}
          name="mobile"
          render={({ field, fieldState }) => (
            <MobileField
              label={t('mpin.mobileLabel')}
              value={field.value}
              // Once "Forgot MPIN?" has shown the mobile's check, it follows what is typed.
              onChange={(mobile) => {
                field.onChange(mobile);
                if (fieldState.error) void form.trigger('mobile');
              }}
              inputRef={field.ref}
              error={signInErrorText(t, 'mobile', fieldState.error, field.value)}
              testId="mpin-mobile"
              autoFocus={!hasMobile}
            />
          )}
        />
        <MpinController
          control={form.control}
          name="mpin"
          label={t('mpin.label')}
          testId="mpin-input"
          autoComplete="current-password"
          autoFocus={hasMobile}
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
  const form = useForm<TSetMpinFormValues, unknown, TSetMpinFormValues>({
    resolver: setMpinResolver,
    defaultValues: { mpin: '', mpinConfirmation: '' },
  });

  const goOn = () => navigate(appPaths.dashboard.href(), { replace: true });

  const handleSubmit = form.handleSubmit(async ({ mpin }) => {
    const result = await setMpinCall({ mpin });
    if (!result.data) {
      if (isApiError(result.error)) applyServerFieldErrors(result.error, form.setError, mpinFieldOf);
      return;
    }
    markHasMpin(result.data.hasMpin);
    enqueueSnackbar(t('mpin.setDone'), { variant: 'success' });
    goOn();
  });

  return (
    <AuthLayout title={t('mpin.setTitle')} subtitle={t('mpin.setSubtitle')}>
      <Stack component="form" spacing={1.5} noValidate onSubmit={(event) => void handleSubmit(event)}>
        <MpinController
          control={form.control}
          name="mpin"
          label={t('mpin.newLabel')}
          testId="mpin-new"
          autoComplete="new-password"
          autoFocus
        />
        <MpinController
          control={form.control}
          name="mpinConfirmation"
          label={t('mpin.confirmLabel')}
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
