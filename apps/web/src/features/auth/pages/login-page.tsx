import { MOBILE_PREFIX, normaliseIndianMobile } from '@kisht/domain/common/identifiers';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ChangeEvent, FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { appPaths } from '../../../app/paths';
import { useOrgId } from '../../../lib/http/org-config-api';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import { useLoginWithOtpMutation } from '../auth-api';
import { AuthLayout } from '../components/auth-layout';
import { saveOtpChallenge, toOtpChallenge } from '../otp-challenge';

type TMobileError = 'validation.required' | 'validation.invalidMobile' | null;

const validateMobile = (digits: string): TMobileError => {
  if (digits === '') return 'validation.required';
  return normaliseIndianMobile(digits) ? null : 'validation.invalidMobile';
};

/** Spec §2 login: the mobile number to send a sign-in OTP to. */
export const LoginPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orgId = useOrgId();
  const [loginWithOtp, { isLoading }] = useLoginWithOtpMutation();
  const [mobile, setMobile] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const error = isTouched ? validateMobile(mobile) : null;

  const handleChange = (event: ChangeEvent<HTMLInputElement>) =>
    setMobile(toLocalMobileDigits(event.target.value));

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setIsTouched(true);
    const e164 = normaliseIndianMobile(mobile);
    if (!e164) return;
    const result = await loginWithOtp({ orgId, mobile: e164 });
    if (!result.data) return;
    const challenge = toOtpChallenge(e164, result.data);
    saveOtpChallenge(challenge);
    navigate(appPaths.otp.href(), { state: challenge });
  };

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <Stack component="form" spacing={3} noValidate onSubmit={handleSubmit}>
        <TextField
          label={t('login.mobileLabel')}
          name="mobile"
          type="tel"
          value={mobile}
          onChange={handleChange}
          onBlur={() => setIsTouched(mobile !== '' || isTouched)}
          error={Boolean(error)}
          helperText={error ? t(error) : ' '}
          autoFocus
          required
          slotProps={{
            input: { startAdornment: <InputAdornment position="start">{MOBILE_PREFIX}</InputAdornment> },
            htmlInput: {
              inputMode: 'numeric',
              autoComplete: 'tel-national',
              'data-testid': 'login-mobile',
            },
          }}
        />
        <Button type="submit" variant="contained" size="large" loading={isLoading} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </Stack>
    </AuthLayout>
  );
};
