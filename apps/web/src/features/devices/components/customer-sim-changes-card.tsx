import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { useGetCustomerSimChangesQuery } from '../device-api';
import { SimChangeList } from './sim-change-list';

/** The device tab's "SIM changes": every SIM change this customer's phone reported. */
export const CustomerSimChangesCard = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const changes = useGetCustomerSimChangesQuery(customerId, { refetchOnMountOrArgChange: true });
  const renderBody = () => {
    if (changes.isLoading) return <Skeleton variant="rounded" height={48} />;
    if (!changes.data) return <LoadError message={changes.error?.message} onRetry={changes.refetch} />;
    if (changes.data.length === 0) {
      return (
        <Typography variant="body2" color="textSecondary" data-testid="customer-sim-changes-empty">
          {t('simChanges.customerEmpty')}
        </Typography>
      );
    }
    return <SimChangeList changes={changes.data} isCustomerShown={false} />;
  };
  return (
    <SectionCard title={t('simChanges.customerTitle')} testId="customer-sim-changes">
      {renderBody()}
    </SectionCard>
  );
};
