import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import type { Path } from 'react-hook-form';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { saveAuthSession } from '../../../lib/auth-storage';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { formatMobile } from '../../../lib/format';
import { purgeSessionCache } from '../../../lib/http/api';
import { isApiError } from '../../../lib/http/base-query';
import { useOrgId } from '../../../lib/http/org-config-api';
import { appPaths } from '../../../lib/paths';
import { useResendOtpMutation, useResetMpinMutation, useVerifyOtpMutation } from '../auth-api';
import { AuthLayout } from '../components/auth-layout';
import { MpinController } from '../components/mpin-field';
import type { TOtpChallenge } from '../otp-challenge';
import { clearOtpChallenge, readOtpChallenge, saveOtpChallenge, toOtpChallenge } from '../otp-challenge';
import type { TMpinLoginState, TResetMpinFormValues } from '../sign-in-form';
import { keepDigits, OTP_LENGTH, signInErrorText, ZOtpForm, ZResetMpinForm } from '../sign-in-form';

/** Forgot mode: the OTP, the new MPIN and its confirmation (domain ZResetMpinRequest). */
const resetResolver = zodResolver<TResetMpinFormValues, unknown, TResetMpinFormValues>(ZResetMpinForm);
/** Sign-in mode: only the OTP is checked (domain ZVerifyOtpRequest); the MPIN fields are not shown. */
const signInResolver = zodResolver<TResetMpinFormValues, unknown, TResetMpinFormValues>(
  ZOtpForm.extend({ mpin: z.string(), mpinConfirmation: z.string() }),
);

/** The request fields the server may name in its field errors, as the form's fields. */
const SERVER_FIELDS: ReadonlyArray<Path<TResetMpinFormValues>> = ['otp', 'mpin'];
const formFieldOf = (requestField: string) => SERVER_FIELDS.find((field) => field === requestField) ?? null;

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
  const [resetMpin, { isLoading: isResetting }] = useResetMpinMutation();
  const [resendOtp, { isLoading: isResending }] = useResendOtpMutation();
  const [challenge, setChallenge] = useState(initialChallenge);
  const secondsToResend = useSecondsUntil(challenge.resendAt);
  const isForgot = challenge.purpose === 'FORGOT_PASSWORD';
  const form = useForm<TResetMpinFormValues, unknown, TResetMpinFormValues>({
    resolver: isForgot ? resetResolver : signInResolver,
    defaultValues: { otp: '', mpin: '', mpinConfirmation: '' },
  });

  /** Puts the server's words about a field under it; other failures are toasted by the store. */
  const showFieldErrors = (error: unknown) => {
    if (isApiError(error)) applyServerFieldErrors(error, form.setError, formFieldOf);
  };

  const signIn = async (otp: string) => {
    const result = await verifyOtp({ orgId, mobile: challenge.mobile, otp });
    if (!result.data) {
      showFieldErrors(result.error);
      return;
    }
    dispatch(purgeSessionCache());
    saveAuthSession(result.data);
    clearOtpChallenge();
    // Someone without an MPIN is offered to set one (they may skip).
    navigate(result.data.user.hasMpin ? appPaths.dashboard.href() : appPaths.mPin.href('set'), {
      replace: true,
    });
  };

  const reset = async (otp: string, mpin: string) => {
    const result = await resetMpin({ orgId, mobile: challenge.mobile, otp, mpin });
    if (result.error) {
      showFieldErrors(result.error);
      return;
    }
    clearOtpChallenge();
    enqueueSnackbar(t('otp.resetDone'), { variant: 'success' });
    const state: TMpinLoginState = { mobile: challenge.mobile };
    navigate(appPaths.mPin.href('login'), { replace: true, state });
  };

  const handleSubmit = form.handleSubmit(async (values) => {
    if (isForgot) await reset(values.otp, values.mpin);
    else await signIn(values.otp);
  });

  const handleResend = async () => {
    const result = await resendOtp({ orgId, mobile: challenge.mobile, purpose: challenge.purpose });
    if (!result.data) return;
    const next = toOtpChallenge(challenge.mobile, result.data, challenge.purpose);
    saveOtpChallenge(next);
    setChallenge(next);
    // A fresh OTP: its field empties and the checks start over; the MPINs typed stay.
    form.reset({ ...form.getValues(), otp: '' });
    if (!next.isDelayed) enqueueSnackbar(t('otp.resent'), { variant: 'success' });
  };

  const handleBack = () => {
    clearOtpChallenge();
    if (isForgot) {
      const state: TMpinLoginState = { mobile: challenge.mobile };
      navigate(appPaths.mPin.href('login'), { replace: true, state });
    } else {
      navigate(appPaths.login.href(), { replace: true });
    }
  };

  const mobile = formatMobile(challenge.mobile);
  return (
    <AuthLayout
      title={isForgot ? t('otp.forgotTitle') : t('otp.title')}
      subtitle={isForgot ? t('otp.forgotSentTo', { mobile }) : t('otp.sentTo', { mobile })}
    >
      <Stack
        component="form"
        spacing={isForgot ? 1.5 : 3}
        noValidate
        onSubmit={(event) => void handleSubmit(event)}
      >
        {challenge.isDelayed ? (
          <Alert severity="warning" data-testid="otp-delayed">
            {t('otp.delayed')}
          </Alert>
        ) : null}
        {challenge.devOtp ? (
          <Alert severity="info" data-testid="dev-otp-banner">
            {t('otp.devBanner', { otp: challenge.devOtp })}
          </Alert>
        ) : null}
        <Controller
          control={form.control}
          name="otp"
          render={({ field, fieldState }) => {
            const message = signInErrorText(t, 'otp', fieldState.error, field.value);
            return (
              <TextField
                label={t('otp.label')}
                name={field.name}
                value={field.value}
                inputRef={field.ref}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(keepDigits(event.target.value, OTP_LENGTH))}
                error={Boolean(message)}
                helperText={message ?? ' '}
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
            );
          }}
        />
        {isForgot ? (
          <>
            <MpinController
              control={form.control}
              name="mpin"
              label={t('otp.newMpin')}
              testId="reset-mpin-new"
              autoComplete="new-password"
            />
            <MpinController
              control={form.control}
              name="mpinConfirmation"
              label={t('otp.confirmMpin')}
              testId="reset-mpin-confirm"
              autoComplete="new-password"
            />
          </>
        ) : null}
        <Button
          type="submit"
          variant="contained"
          size="large"
          loading={isVerifying || isResetting}
          data-testid="otp-submit"
        >
          {isForgot ? t('otp.resetSubmit') : t('otp.submit')}
        </Button>
        {/* The server answers alike for every number (issue 12): say why an SMS may never come. */}
        <Typography variant="caption" color="text.secondary" data-testid="otp-only-registered">
          {t('otp.onlyRegistered')}
        </Typography>
        <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
          <Button onClick={handleBack} data-testid="otp-change-number">
            {isForgot ? t('otp.backToMpin') : t('otp.changeNumber')}
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

/**
 * Spec §2 otp. Sign-in mode (purpose LOGIN): verifies the OTP, stores the session (spec §3 keys)
 * and opens the dashboard, or first offers to set an MPIN when the user has none. Forgot mode
 * (purpose FORGOT_PASSWORD, from "Forgot MPIN?"): the OTP and a new MPIN twice reset the MPIN, then
 * the MPIN login opens. Both can resend the OTP once the cool-down has run out. The server gives
 * the same answer for a number with no account (no SMS is sent), so the screen says that only
 * registered numbers get an OTP; when the SMS service was slow it says the SMS is on its way.
 */
export const OtpPage = () => {
  const location = useLocation();
  const challenge = readOtpChallenge(location.state);
  if (!challenge) return <Navigate to={appPaths.login.href()} replace />;
  return <OtpForm initialChallenge={challenge} />;
};
