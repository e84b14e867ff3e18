import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import SyncIcon from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DetailList } from '../../../components/detail-list';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { formatDateTime } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { appPaths, CUSTOMER_ID_PARAM, parseCustomerId } from '../../../lib/paths';
import { useGoBack } from '../../../lib/use-go-back';
import { useGetAppleDetailsQuery, useRequestAppleSyncMutation } from '../apple-api';
import { CommandStateChip } from '../components/command-state-chip';
import { isCommandState, isSyncPending, TRACKED_COMMAND_POLL_MS } from '../use-tracked-command';
import { appleEnrolmentStateOf } from './apple-details-page';

/** A sync's state as a chip; a state the app does not know is shown as the server wrote it. */
const SyncStateChip = ({ state }: { state: string }) =>
  isCommandState(state) ? (
    <CommandStateChip state={state} testId="apple-sync-state" />
  ) : (
    <Chip size="small" label={state} data-testid="apple-sync-state" data-state={state} />
  );

const AppleSyncView = ({
  customerId,
  renderCustomer,
}: {
  customerId: number;
  renderCustomer?: ((customerId: number) => ReactNode) | undefined;
}) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [requestSync, syncState] = useRequestAppleSyncMutation();
  const cached = useGetAppleDetailsQuery(customerId, { refetchOnMountOrArgChange: true });
  const isPending = isSyncPending(cached.data?.lastSync ?? null);
  // Read the details again every few seconds while the sync is on its way, until the iPhone answers.
  const details = useGetAppleDetailsQuery(customerId, {
    pollingInterval: isPending ? TRACKED_COMMAND_POLL_MS : 0,
    skipPollingIfUnfocused: false,
  });
  if (details.isLoading) return <PageSkeleton />;
  if (!details.data) {
    return (
      <LoadError
        message={isApiError(details.error) ? details.error.message : undefined}
        onRetry={details.refetch}
      />
    );
  }
  const { lastSync, reported } = details.data;
  const isEnrolled = appleEnrolmentStateOf(details.data) === 'enrolled';
  const notAvailable = t('common.notAvailable');
  return (
    <Stack spacing={2}>
      {renderCustomer?.(customerId)}
      <SectionCard title={t('apple.syncSection')} testId="apple-sync">
        <Stack spacing={2}>
          <Typography variant="body2" color="textSecondary">
            {t('apple.syncHelp')}
          </Typography>
          {isEnrolled ? null : (
            <Alert severity="info" data-testid="apple-unreachable">
              {t('apple.unreachable')}
            </Alert>
          )}
          <Button
            variant="contained"
            size="large"
            startIcon={<SyncIcon />}
            onClick={() => void requestSync({ customer_id: customerId })}
            loading={syncState.isLoading}
            disabled={!isEnrolled || isPending}
            data-testid="apple-request-sync"
          >
            {t('apple.requestSync')}
          </Button>
          {lastSync ? (
            <DetailList
              items={[
                { label: t('apple.lastSyncState'), value: <SyncStateChip state={lastSync.state} /> },
                {
                  label: t('apple.lastSyncRequested'),
                  value: formatDateTime(lastSync.createdAt),
                  testId: 'apple-sync-requested-at',
                },
                {
                  label: t('apple.lastSyncUpdated'),
                  value: formatDateTime(lastSync.updatedAt),
                  testId: 'apple-sync-updated-at',
                },
                {
                  label: t('apple.reportedAt'),
                  value: reported ? formatDateTime(reported.at) : notAvailable,
                  testId: 'apple-reported-at',
                },
              ]}
            />
          ) : (
            <Alert severity="info" data-testid="apple-never-synced">
              {t('apple.neverSynced')}
            </Alert>
          )}
        </Stack>
      </SectionCard>
      <Button
        variant="outlined"
        startIcon={<PhoneIphoneIcon />}
        onClick={() => navigate(appPaths.appleDetails.href(customerId))}
        data-testid="open-apple-details"
      >
        {t('apple.openDetails')}
      </Button>
    </Stack>
  );
};

/**
 * Spec §2 apple_sync?customer_id= (issue 15; the edit menu's CHECK_STATUS for an Apple customer):
 * asks the iPhone for its DeviceInformation (apple_request_sync) and shows the newest sync's state
 * and times (+05:30), polling while it is on its way, with the way on to apple_details.
 */
export const AppleSyncPage = ({
  renderCustomer,
}: {
  /** The customer's header, composed in by app/ from the customers feature. */
  renderCustomer?: (customerId: number) => ReactNode;
}) => {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const customerId = parseCustomerId(searchParams.get(CUSTOMER_ID_PARAM));
  const goBack = useGoBack(
    customerId ? appPaths.customerDetails.href(customerId) : appPaths.customerList.href(),
  );
  return (
    <>
      <PageHeader title={t('pages.apple_sync')} onBack={goBack} />
      {customerId ? (
        <AppleSyncView customerId={customerId} renderCustomer={renderCustomer} />
      ) : (
        <LoadError message={t('errors.customerNotFound')} />
      )}
    </>
  );
};
