import type { TPlanActivation } from '@kisht/domain/plans/plans.schema';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeDrawer } from '../../../components/code-drawer';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { useListActivationsQuery } from '../plans-api';
import { soldOn } from './activation-row';

/**
 * customer_details' "Plans" card: the plans sold to that customer (any kind), each with its
 * status and a button that opens the code drawer with its code (spec §2).
 */
export const CustomerPlansCard = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const activations = useListActivationsQuery({ customerId }, { refetchOnMountOrArgChange: true });
  const [opened, setOpened] = useState<TPlanActivation | null>(null);

  const renderBody = () => {
    if (activations.isLoading) return <Skeleton variant="rounded" height={56} />;
    if (!activations.data)
      return <LoadError message={activations.error?.message} onRetry={activations.refetch} />;
    if (activations.data.length === 0)
      return (
        <Typography variant="body2" color="textSecondary" data-testid="customer-plans-empty">
          {t('plans.customerCard.empty')}
        </Typography>
      );
    return (
      <List disablePadding>
        {activations.data.map((activation) => (
          <ListItem
            key={activation.id}
            disableGutters
            divider
            data-testid={`customer-plan-${activation.id}`}
            secondaryAction={
              <Button
                size="small"
                variant="outlined"
                onClick={() => setOpened(activation)}
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
                  <Chip
                    size="small"
                    color={activation.status === 'redeemed' ? 'success' : 'default'}
                    variant={activation.status === 'redeemed' ? 'filled' : 'outlined'}
                    label={t(`plans.status.${activation.status}`)}
                  />
                </Stack>
              }
              secondary={soldOn(activation)}
            />
          </ListItem>
        ))}
      </List>
    );
  };

  return (
    <SectionCard title={t('plans.customerCard.title')} testId="customer-plans-card">
      {renderBody()}
      <CodeDrawer
        isOpen={opened !== null}
        code={opened?.code}
        title={opened ? t('plans.codeOf', { plan: opened.planName }) : undefined}
        onClose={() => setOpened(null)}
      />
    </SectionCard>
  );
};
