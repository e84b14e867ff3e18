import Button from '@mui/material/Button';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../../components/section-card';
import { ActivationStatusChip, soldOn } from './activation-row';
import { ActivationsCard } from './activations-card';

type TCustomerPlansCardProps = {
  customerId: number;
  /**
   * The details around it are those saved for offline reading (issue 28): the plans sold are not
   * among them, as their codes are not kept on the phone, so the card says so instead of failing.
   */
  isOffline?: boolean;
};

/**
 * customer_details' "Plans" card: the plans sold to that customer (any kind), each with its
 * status and a button that opens the code drawer with its code (spec §2).
 */
export const CustomerPlansCard = ({ customerId, isOffline = false }: TCustomerPlansCardProps) => {
  const { t } = useTranslation();
  if (isOffline) {
    return (
      <SectionCard title={t('plans.customerCard.title')} testId="customer-plans-card">
        <Typography variant="body2" color="textSecondary" data-testid="customer-plans-offline">
          {t('common.notKeptOffline')}
        </Typography>
      </SectionCard>
    );
  }
  return (
    <ActivationsCard
      filter={{ customerId }}
      title={t('plans.customerCard.title')}
      testId="customer-plans-card"
      empty={{ text: t('plans.customerCard.empty'), testId: 'customer-plans-empty' }}
      skeletonHeight={56}
      renderRow={(activation, open) => (
        <ListItem
          key={activation.id}
          disableGutters
          divider
          data-testid={`customer-plan-${activation.id}`}
          secondaryAction={
            <Button
              size="small"
              variant="outlined"
              onClick={() => open(activation)}
              data-testid={`customer-plan-code-${activation.id}`}
            >
              {t('plans.customerCard.showCode')}
            </Button>
          }
          sx={{ pr: 10 }}
        >
          <ListItemText
            primary={
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <span>{activation.planName}</span>
                <ActivationStatusChip status={activation.status} />
              </Stack>
            }
            secondary={soldOn(activation)}
          />
        </ListItem>
      )}
    />
  );
};
