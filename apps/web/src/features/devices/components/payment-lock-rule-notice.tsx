import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useTranslation } from 'react-i18next';

/**
 * Google's permissible-usage rule for the Android Management API
 * (developers.google.com/android/management/permissible-usage): a managed-Android phone is never
 * restricted over a missed payment. Shown wherever such a phone is enrolled or locked.
 */
export const PaymentLockRuleNotice = () => {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" data-testid="payment-lock-rule">
      <AlertTitle>{t('enrolment.paymentLockRule.title')}</AlertTitle>
      {t('enrolment.paymentLockRule.body')}
    </Alert>
  );
};
