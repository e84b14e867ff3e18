import { normaliseIndianMobile } from '@kisht/domain/common/identifiers';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOrgId } from '../../../lib/http/org-config-api';
import { appPaths } from '../../../lib/paths';
import { useLoginWithOtpMutation } from '../auth-api';
import { AuthLayout } from '../components/auth-layout';
import { MobileField } from '../components/mobile-field';
import { saveOtpChallenge, toOtpChallenge } from '../otp-challenge';
import { validateMobile } from '../sign-in-form';

/** Spec §2 login: the mobile number to send a sign-in OTP to, or the way to the MPIN login. */
export const LoginPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orgId = useOrgId();
  const [loginWithOtp, { isLoading }] = useLoginWithOtpMutation();
  const [mobile, setMobile] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const error = isTouched ? validateMobile(mobile) : null;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setIsTouched(true);
    const e164 = normaliseIndianMobile(mobile);
    if (!e164) return;
    const result = await loginWithOtp({ orgId, mobile: e164 });
    if (!result.data) return;
    const challenge = toOtpChallenge(e164, result.data, 'LOGIN');
    saveOtpChallenge(challenge);
    navigate(appPaths.otp.href(), { state: challenge });
  };

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <Stack component="form" spacing={3} noValidate onSubmit={handleSubmit}>
        <MobileField
          label={t('login.mobileLabel')}
          value={mobile}
          onChange={setMobile}
          onBlur={() => setIsTouched(mobile !== '' || isTouched)}
          error={error}
          testId="login-mobile"
          autoFocus
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
      </Stack>
    </AuthLayout>
  );
};
