import { AppType } from '@kisht/domain/common/enums';
import { ANTI_THEFT_APP_TYPES } from '@kisht/domain/plans/plans.schema';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { isApiError } from '../../../lib/http/base-query';
import {
  type TActivationsFilter,
  useListActivationsQuery,
  useListPlansQuery,
} from '../../../lib/http/plans-api';
import { AntiTheftSalesList } from '../components/anti-theft-sales-list';
import { SellAntiTheftForm } from '../components/sell-anti-theft-form';

/** The anti-theft sales: both anti-theft app_types (4, 9), comma-separated. */
const ANTI_THEFT_SALES: TActivationsFilter = { appTypes: ANTI_THEFT_APP_TYPES.join(',') };

const errorMessage = (error: unknown) => (isApiError(error) ? error.message : undefined);

/**
 * anti_theft (spec §2): sell an anti-theft plan (app_type 4 anti-theft or 9 device policy
 * controller plus anti-theft) to an existing customer or a new buyer and get its code; below, the
 * shop's anti-theft sales with the spec §4 anti-theft display (Enabled / Disabled), a sale to a
 * customer opening customer_details.
 */
export const AntiTheftPage = () => {
  const { t } = useTranslation();
  const antiTheft = useListPlansQuery({ appType: AppType.ANTI_THEFT }, { refetchOnMountOrArgChange: true });
  const withDeviceLock = useListPlansQuery(
    { appType: AppType.DEVICE_POLICY_CONTROLLER_ANTI_THEFT },
    { refetchOnMountOrArgChange: true },
  );
  const sales = useListActivationsQuery(ANTI_THEFT_SALES, { refetchOnMountOrArgChange: true });

  const renderSellCard = () => {
    if (antiTheft.isLoading || withDeviceLock.isLoading) return <PageSkeleton />;
    if (!antiTheft.data || !withDeviceLock.data)
      return (
        <LoadError
          message={errorMessage(antiTheft.error ?? withDeviceLock.error)}
          onRetry={() => {
            void antiTheft.refetch();
            void withDeviceLock.refetch();
          }}
        />
      );
    return <SellAntiTheftForm plans={[...antiTheft.data, ...withDeviceLock.data]} />;
  };

  const renderSales = () => {
    if (sales.isLoading) return <PageSkeleton />;
    if (!sales.data) return <LoadError message={errorMessage(sales.error)} onRetry={sales.refetch} />;
    return <AntiTheftSalesList sales={sales.data} />;
  };

  return (
    <>
      <PageHeader title={t('pages.anti_theft')} subtitle={t('antiTheft.subtitle')} />
      <Stack spacing={2}>
        <SectionCard title={t('antiTheft.sellTitle')} testId="anti-theft-sell-card">
          {renderSellCard()}
        </SectionCard>
        <SectionCard title={t('antiTheft.salesTitle')} testId="anti-theft-sales-card">
          {renderSales()}
        </SectionCard>
      </Stack>
    </>
  );
};
