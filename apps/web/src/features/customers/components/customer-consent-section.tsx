import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { useGetCustomerConsentQuery } from '../customers-api';
import { ConsentDetails } from './consent-details';
import { ConsentForm } from './consent-form';

/**
 * customer_details' consent to remote locking: the recorded consent (language, who, when,
 * signature, text), or, while none is recorded, why it matters and a way to record it here.
 */
export const CustomerConsentSection = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const consent = useGetCustomerConsentQuery(customerId);
  const [isRecording, setIsRecording] = useState(false);

  if (consent.isLoading) {
    return (
      <SectionCard title={t('consent.title')}>
        <Skeleton variant="rounded" height={80} />
      </SectionCard>
    );
  }
  if (consent.data === undefined) {
    return (
      <SectionCard title={t('consent.title')}>
        <LoadError message={consent.error?.message} onRetry={consent.refetch} />
      </SectionCard>
    );
  }
  if (consent.data) {
    return (
      <SectionCard title={t('consent.title')} testId="customer-consent">
        <ConsentDetails consent={consent.data} />
      </SectionCard>
    );
  }
  if (isRecording) return <ConsentForm customerId={customerId} onRecorded={() => setIsRecording(false)} />;
  return (
    <SectionCard title={t('consent.title')} testId="customer-consent">
      <Stack spacing={1.5}>
        <Alert severity="warning" data-testid="consent-missing">
          {t('consent.missing')}
        </Alert>
        <Button variant="outlined" onClick={() => setIsRecording(true)} data-testid="consent-record">
          {t('consent.record')}
        </Button>
      </Stack>
    </SectionCard>
  );
};
