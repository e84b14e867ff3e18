import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../../components/section-card';
import { useGetMyConsentsQuery } from '../customers-api';
import { ConsentDetails } from './consent-details';

/**
 * The customer's own view of their consent to remote locking (issue 12): for each loan, what
 * they agreed to, in their language, who recorded it and when, and their signature. Shows nothing
 * while loading, on failure, or when no consent is recorded (the loan view beside it has its own
 * states).
 */
export const MyConsentsSection = () => {
  const { t } = useTranslation();
  const consents = useGetMyConsentsQuery();
  if (!consents.data?.length) return null;
  return (
    <Stack spacing={2} sx={{ mt: 4 }} data-testid="my-consents">
      {consents.data.map((consent) => (
        <SectionCard
          key={consent.customerId}
          title={t('consent.myTitle')}
          testId={`my-consent-${consent.customerId}`}
        >
          <Stack spacing={1.5}>
            <Typography variant="body2" color="textSecondary">
              {t('consent.myIntro', { product: consent.productName })}
            </Typography>
            <ConsentDetails consent={consent} isTextOpen />
          </Stack>
        </SectionCard>
      ))}
    </Stack>
  );
};
