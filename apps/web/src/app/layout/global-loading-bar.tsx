import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { customersApi } from '../../features/customers/customers-api';
import { dashboardApi } from '../../features/dashboard/dashboard-api';
import type { TRootState } from '../store';

/**
 * Spec §2: these screens load and poll without the global indicator (they show skeletons), so
 * their queries never turn it on.
 */
const SILENT_ENDPOINTS: ReadonlySet<string> = new Set([
  dashboardApi.endpoints.getDashboard.name,
  customersApi.endpoints.listCustomers.name,
  customersApi.endpoints.getCustomerDetails.name,
]);

/** Spec §4: any call in progress turns global loading on; it turns off on success or failure. */
const selectIsApiBusy = (state: TRootState): boolean => {
  const { queries, mutations } = state.api;
  const isQueryBusy = Object.values(queries).some(
    (query) => query?.status === 'pending' && !SILENT_ENDPOINTS.has(query.endpointName),
  );
  return isQueryBusy || Object.values(mutations).some((mutation) => mutation?.status === 'pending');
};

/** A thin progress bar over the top of the screen while an API call runs. */
export const GlobalLoadingBar = () => {
  const { t } = useTranslation();
  const isBusy = useSelector(selectIsApiBusy);
  if (!isBusy) return null;
  return (
    <LinearProgress
      aria-label={t('common.loading')}
      data-testid="global-loading"
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.snackbar + 1 }}
    />
  );
};
