import type { TAppleDetails } from '@kisht/domain/apple/apple.schema';
import AppShortcutIcon from '@mui/icons-material/AppShortcut';
import KeyIcon from '@mui/icons-material/Key';
import SyncIcon from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
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
import {
  useDisableActivationLockMutation,
  useGetAppleDetailsQuery,
  useInstallAppleOneModeAppMutation,
  useRequestAppleSyncMutation,
} from '../apple-api';
import { AppleCommandRow } from '../components/apple-command-row';
import { isSyncPending, TRACKED_COMMAND_POLL_MS } from '../use-tracked-command';

/** The enrolment of an iPhone as apple_details shows it (TAppleDetails' udid and times). */
export type TAppleEnrolmentState = 'not_enrolled' | 'enrolled' | 'profile_removed';

/** Not enrolled until NanoMDM names it (udid); removed once it checked out (status 4). */
export const appleEnrolmentStateOf = (
  details: Pick<TAppleDetails, 'udid' | 'profileRemovedAt'>,
): TAppleEnrolmentState => {
  if (details.profileRemovedAt) return 'profile_removed';
  return details.udid ? 'enrolled' : 'not_enrolled';
};

const ENROLMENT_CHIP_COLOURS = {
  not_enrolled: 'default',
  enrolled: 'success',
  profile_removed: 'error',
} as const satisfies Record<TAppleEnrolmentState, 'default' | 'success' | 'error'>;

/** Reported flags in words: Supervised / Not supervised, On / Off, or Unknown when the iPhone did not say. */
const useFlagWords = () => {
  const { t } = useTranslation();
  return {
    supervision: (value: boolean | null): string =>
      value === null
        ? t('apple.unknown')
        : value
          ? t('apple.supervisionValue.yes')
          : t('apple.supervisionValue.no'),
    onOff: (value: boolean | null): string =>
      value === null ? t('apple.unknown') : value ? t('apple.onOff.on') : t('apple.onOff.off'),
  };
};

const EnrolmentSection = ({ details }: { details: TAppleDetails }) => {
  const { t } = useTranslation();
  const state = appleEnrolmentStateOf(details);
  const notAvailable = t('common.notAvailable');
  return (
    <SectionCard
      title={t('apple.enrolmentSection')}
      testId="apple-enrolment"
      action={
        <Chip
          size="small"
          color={ENROLMENT_CHIP_COLOURS[state]}
          label={t(`apple.enrolmentState.${state}`)}
          data-testid="apple-enrolment-state"
        />
      }
    >
      <Stack spacing={1.5}>
        {state === 'profile_removed' ? (
          <Alert severity="error" data-testid="apple-profile-removed">
            {t('apple.profileRemovedNotice', { time: formatDateTime(details.profileRemovedAt ?? '') })}
          </Alert>
        ) : null}
        <DetailList
          items={[
            { label: t('apple.udid'), value: details.udid ?? notAvailable, testId: 'apple-udid' },
            {
              label: t('apple.enrolledAt'),
              value: details.enrolledAt ? formatDateTime(details.enrolledAt) : notAvailable,
              testId: 'apple-enrolled-at',
            },
            {
              label: t('apple.profileRemovedAt'),
              value: details.profileRemovedAt ? formatDateTime(details.profileRemovedAt) : notAvailable,
              testId: 'apple-profile-removed-at',
            },
            {
              label: t('apple.serialOnRecord'),
              value: details.serialNumber ?? notAvailable,
              testId: 'apple-serial-on-record',
            },
          ]}
        />
      </Stack>
    </SectionCard>
  );
};

const ReportedSection = ({ details }: { details: TAppleDetails }) => {
  const { t } = useTranslation();
  const words = useFlagWords();
  const notAvailable = t('common.notAvailable');
  const { reported } = details;
  if (!reported) {
    return (
      <SectionCard title={t('apple.reportedSection')} testId="apple-reported">
        <Alert severity="info" data-testid="apple-not-reported">
          {t('apple.notReported')}
        </Alert>
      </SectionCard>
    );
  }
  const model = [reported.modelName, reported.productName].filter(Boolean).join(' · ');
  return (
    <SectionCard title={t('apple.reportedSection')} testId="apple-reported">
      <DetailList
        items={[
          { label: t('apple.deviceName'), value: reported.deviceName ?? notAvailable },
          { label: t('apple.model'), value: model || notAvailable, testId: 'apple-model' },
          { label: t('apple.osVersion'), value: reported.osVersion ?? notAvailable, testId: 'apple-os' },
          {
            label: t('apple.serialNumber'),
            value: reported.serialNumber ?? notAvailable,
            testId: 'apple-serial',
          },
          {
            label: t('apple.imeis'),
            value: reported.imeis.length > 0 ? reported.imeis.join(', ') : notAvailable,
            testId: 'apple-imeis',
          },
          {
            label: t('apple.supervised'),
            value: words.supervision(reported.isSupervised),
            testId: 'apple-supervised',
          },
          {
            label: t('apple.lostMode'),
            value: words.onOff(reported.isLostModeEnabled),
            testId: 'apple-lost-mode',
          },
          {
            label: t('apple.activationLock'),
            value: words.onOff(reported.isActivationLockEnabled),
            testId: 'apple-activation-lock',
          },
          {
            label: t('apple.battery'),
            value:
              reported.batteryPercent === null
                ? notAvailable
                : t('apple.batteryValue', { percent: Math.round(reported.batteryPercent) }),
            testId: 'apple-battery',
          },
          {
            label: t('apple.reportedAt'),
            value: formatDateTime(reported.at),
            testId: 'apple-reported-at',
          },
        ]}
      />
      {reported.isSupervised === false ? (
        <Alert severity="info" sx={{ mt: 1.5 }} data-testid="apple-not-supervised">
          {t('apple.notSupervised')}
        </Alert>
      ) : null}
    </SectionCard>
  );
};

/**
 * Whether the server holds the iPhone's Activation Lock bypass code, and since when: the code itself
 * never reaches the app (it stays on the server for clearing Activation Lock).
 */
const BypassCodeStored = ({ storedAt }: { storedAt: string | null }) => {
  const { t } = useTranslation();
  return (
    <Typography
      variant="body2"
      color={storedAt ? 'success.main' : 'textSecondary'}
      data-testid="apple-bypass-stored"
    >
      {storedAt ? t('apple.bypassCodeStored', { time: formatDateTime(storedAt) }) : t('apple.bypassCodeNone')}
    </Typography>
  );
};

const ActionsSection = ({
  details,
  onCommandEnded,
}: {
  details: TAppleDetails;
  onCommandEnded: () => void;
}) => {
  const { t } = useTranslation();
  const [requestSync, syncState] = useRequestAppleSyncMutation();
  const [installOneModeApp, installState] = useInstallAppleOneModeAppMutation();
  const [disableActivationLock, activationState] = useDisableActivationLockMutation();
  // Commands go to an enrolled iPhone only: before enrolment or after the profile went, nothing answers.
  const isUnreachable = appleEnrolmentStateOf(details) !== 'enrolled';
  const rows: ReactNode[] = [
    <AppleCommandRow
      key="sync"
      customerId={details.customerId}
      label={t('apple.checkStatus')}
      description={t('apple.checkStatusHelp')}
      icon={<SyncIcon />}
      send={(body) => requestSync(body)}
      isSending={syncState.isLoading}
      isDisabled={isUnreachable}
      testId="apple-request-sync"
      onEnded={onCommandEnded}
    />,
    <AppleCommandRow
      key="install"
      customerId={details.customerId}
      label={t('apple.installOneModeApp')}
      description={t('apple.installOneModeAppHelp')}
      icon={<AppShortcutIcon />}
      send={(body) => installOneModeApp(body)}
      isSending={installState.isLoading}
      isDisabled={isUnreachable}
      testId="apple-install-app"
      onEnded={onCommandEnded}
    />,
    <AppleCommandRow
      key="activation-lock"
      customerId={details.customerId}
      label={t('apple.bypassCode')}
      description={t('apple.bypassCodeHelp')}
      icon={<KeyIcon />}
      send={(body) => disableActivationLock(body)}
      isSending={activationState.isLoading}
      isDisabled={isUnreachable}
      testId="apple-bypass"
      onEnded={onCommandEnded}
      footer={<BypassCodeStored storedAt={details.activationLockBypassCodeStoredAt} />}
    />,
  ];
  return (
    <SectionCard title={t('apple.actionsSection')} testId="apple-actions">
      <Stack spacing={2} divider={<Divider flexItem />}>
        {isUnreachable ? (
          <Alert severity="info" data-testid="apple-unreachable">
            {t('apple.unreachable')}
          </Alert>
        ) : null}
        {rows}
      </Stack>
    </SectionCard>
  );
};

type TApplePageProps = {
  /** The customer's header (name, mobile, status), composed in by app/ from the customers feature. */
  renderCustomer?: (customerId: number) => ReactNode;
};

const AppleDetailsView = ({ customerId, renderCustomer }: TApplePageProps & { customerId: number }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const cached = useGetAppleDetailsQuery(customerId, { refetchOnMountOrArgChange: true });
  // While a sync is on its way, read again until the iPhone's answer shows in "reported".
  const details = useGetAppleDetailsQuery(customerId, {
    pollingInterval: isSyncPending(cached.data?.lastSync ?? null) ? TRACKED_COMMAND_POLL_MS : 0,
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
  return (
    <Stack spacing={2}>
      {renderCustomer?.(customerId)}
      <EnrolmentSection details={details.data} />
      <ReportedSection details={details.data} />
      {/* A command that ended may have changed what the iPhone reported or what the server holds. */}
      <ActionsSection details={details.data} onCommandEnded={() => void details.refetch()} />
      <Button
        variant="text"
        onClick={() => navigate(appPaths.appleSync.href(customerId))}
        data-testid="open-apple-sync"
      >
        {t('apple.openSync')}
      </Button>
    </Stack>
  );
};

/**
 * Spec §2 apple_details?customer_id= (issue 15): what an Apple customer's iPhone reported through
 * NanoMDM (UDID, model, iOS, serial, IMEIs, supervision, lost mode, Activation Lock, battery, when
 * it reported, in +05:30), its enrolment and profile-removed times, and the Apple commands: Check
 * status (apple_request_sync), Install one-mode app (installAppleOneModeApp) and the Activation
 * Lock bypass code (disable_activation_lock: kept on the server, only when it was stored is shown),
 * each showing its command's state as it moves.
 */
export const AppleDetailsPage = ({ renderCustomer }: TApplePageProps) => {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const customerId = parseCustomerId(searchParams.get(CUSTOMER_ID_PARAM));
  const goBack = useGoBack(
    customerId ? appPaths.customerDetails.href(customerId) : appPaths.customerList.href(),
  );
  return (
    <>
      <PageHeader title={t('pages.apple_details')} onBack={goBack} />
      {customerId ? (
        <AppleDetailsView customerId={customerId} renderCustomer={renderCustomer} />
      ) : (
        <LoadError message={t('errors.customerNotFound')} />
      )}
    </>
  );
};
