import Button from '@mui/material/Button';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { ActivationStatusChip, soldOn } from './activation-row';
import { ActivationsCard } from './activations-card';

/**
 * customer_details' "Plans" card: the plans sold to that customer (any kind), each with its
 * status and a button that opens the code drawer with its code (spec §2).
 */
export const CustomerPlansCard = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
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
