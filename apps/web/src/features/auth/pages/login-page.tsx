import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { Controller, type Resolver, type ResolverResult, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { useOrgId } from '../../../lib/http/org-config-api';
import { appPaths } from '../../../lib/paths';
import { useLoginWithOtpMutation } from '../auth-api';
import { AuthLayout } from '../components/auth-layout';
import { GoogleSignIn } from '../components/google-sign-in';
import { MobileField } from '../components/mobile-field';
import { saveOtpChallenge, toOtpChallenge } from '../otp-challenge';
// sign-in-errors, not sign-in-form: the first screen checks the mobile without zod (~23 KB brotli,
// issue 17), with the same rule and message as ZMobileForm (sign-in-form.test.ts).
import {
  checkMobileForm,
  signInErrorText,
  type TMobileFormOutput,
  type TMobileFormValues,
} from '../sign-in-errors';

/** react-hook-form's resolver over checkMobileForm: the E.164 mobile, or the field's error. */
const mobileFormResolver: Resolver<TMobileFormValues, unknown, TMobileFormOutput> = async (
  values,
): Promise<ResolverResult<TMobileFormValues, TMobileFormOutput>> => {
  const checked = checkMobileForm(values);
  if (checked.values) return { values: checked.values, errors: {} };
  return { values: {}, errors: { mobile: checked.error } };
};
const formFieldOf = (requestField: string) => (requestField === 'mobile' ? ('mobile' as const) : null);

/**
 * Spec §2 login: the mobile number to send a sign-in OTP to, or the way to the MPIN login, or Sign
 * in with Google when the server offers it. `footer` (composed by app/): what else the screen offers
 * (the join request).
 */
export const LoginPage = ({ footer }: { footer?: ReactNode }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orgId = useOrgId();
  const [loginWithOtp, { isLoading }] = useLoginWithOtpMutation();
  const form = useForm<TMobileFormValues, unknown, TMobileFormOutput>({
    resolver: mobileFormResolver,
    defaultValues: { mobile: '' },
  });

  // The schema's ZMobile has turned the 10 digits into E.164.
  const handleSubmit = form.handleSubmit(async ({ mobile }) => {
    const result = await loginWithOtp({ orgId, mobile });
    if (!result.data) {
      if (isApiError(result.error)) applyServerFieldErrors(result.error, form.setError, formFieldOf);
      return;
    }
    const challenge = toOtpChallenge(mobile, result.data, 'LOGIN');
    saveOtpChallenge(challenge);
    navigate(appPaths.otp.href(), { state: challenge });
  });

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <Stack component="form" spacing={3} noValidate onSubmit={(event) => void handleSubmit(event)}>
        <Controller
          control={form.control}
          name="mobile"
          render={({ field, fieldState }) => (
            <MobileField
              label={t('login.mobileLabel')}
              value={field.value}
              // A number typed and left is checked from then on; an empty field only on submit.
              onChange={(mobile) => {
                field.onChange(mobile);
                if (form.getFieldState('mobile').isTouched) void form.trigger('mobile');
              }}
              onBlur={() => {
                if (field.value === '') return;
                field.onBlur();
                void form.trigger('mobile');
              }}
              inputRef={field.ref}
              error={signInErrorText(t, 'mobile', fieldState.error, field.value)}
              testId="login-mobile"
              autoFocus
            />
          )}
        />
        <Button type="submit" variant="contained" size="large" loading={isLoading} data-testid="login-submit">
          {t('login.submit')}
        </Button>
        <Divider />
        <Button
          variant="outlined"
          onClick={() => navigate(appPaths.mPin.href('login'))}
          data-testid="login-with-mpin"
        >
          {t('login.withMpin')}
        </Button>
        <GoogleSignIn orgId={orgId} />
        {footer}
      </Stack>
    </AuthLayout>
  );
};
