import type { TSessionInfo } from '@kisht/domain/sessions/sessions.schema';
import DesktopWindowsIcon from '@mui/icons-material/DesktopWindows';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import TabletAndroidIcon from '@mui/icons-material/TabletAndroid';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { formatDateTime } from '../../../lib/format';
import { DEVICE_PLATFORMS, DEVICE_TYPES } from '../../../lib/user-agent';
import { useListMySessionsQuery, useLogoutMySessionMutation } from '../sessions-api';

const isDeviceType = (value: string | null): value is (typeof DEVICE_TYPES)[number] =>
  DEVICE_TYPES.some((type) => type === value);
const isDevicePlatform = (value: string | null): value is (typeof DEVICE_PLATFORMS)[number] =>
  DEVICE_PLATFORMS.some((platform) => platform === value);

/** A header value as sent, translated when it is one of ours, else shown as is. */
const deviceTypeLabel = (t: TFunction, value: string | null): string => {
  if (isDeviceType(value)) return t(`deviceTypes.${value}`);
  return value || t('sessions.unknown');
};
const platformLabel = (t: TFunction, value: string | null): string => {
  if (isDevicePlatform(value)) return t(`devicePlatforms.${value}`);
  return value || t('sessions.unknown');
};

const DeviceIcon = ({ deviceType }: { deviceType: string | null }) => {
  if (deviceType === 'tablet') return <TabletAndroidIcon />;
  if (deviceType === 'desktop') return <DesktopWindowsIcon />;
  return <PhoneAndroidIcon />;
};

type TSessionCardProps = {
  session: TSessionInfo;
  isLoggingOut: boolean;
  onLogout: (session: TSessionInfo) => void;
};

const Detail = ({ label, value, testId }: { label: string; value: string; testId: string }) => (
  <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline' }}>
    <Typography variant="body2" color="textSecondary" sx={{ minWidth: 104, flexShrink: 0 }}>
      {label}
    </Typography>
    <Typography variant="body2" data-testid={testId} sx={{ wordBreak: 'break-word' }}>
      {value}
    </Typography>
  </Stack>
);

/** One session: browser and version, device, platform, user agent, created and last seen (+05:30). */
const SessionCard = ({ session, isLoggingOut, onLogout }: TSessionCardProps) => {
  const { t } = useTranslation();
  const browser = session.browserName
    ? t('sessions.browser', { name: session.browserName, version: session.browserVersion ?? '' }).trim()
    : t('sessions.unknownBrowser');
  return (
    <Card data-testid={`session-row-${session.id}`} data-current={session.isCurrent ? 'true' : 'false'}>
      <CardContent>
        <Stack spacing={1.5}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <Avatar sx={{ bgcolor: session.isCurrent ? 'primary.main' : 'grey.400' }}>
              <DeviceIcon deviceType={session.deviceType} />
            </Avatar>
            <Typography
              variant="subtitle1"
              component="h2"
              sx={{ fontWeight: 600, flex: 1 }}
              data-testid="session-browser"
            >
              {browser}
            </Typography>
            {session.isCurrent ? (
              <Chip
                size="small"
                color="primary"
                label={t('sessions.thisDevice')}
                data-testid="session-current"
              />
            ) : (
              <Button
                size="small"
                color="error"
                variant="outlined"
                loading={isLoggingOut}
                onClick={() => onLogout(session)}
                data-testid="session-logout"
              >
                {t('sessions.logout')}
              </Button>
            )}
          </Stack>
          <Stack spacing={0.5}>
            <Detail
              label={t('sessions.deviceType')}
              value={deviceTypeLabel(t, session.deviceType)}
              testId="session-device-type"
            />
            <Detail
              label={t('sessions.platform')}
              value={platformLabel(t, session.devicePlatform)}
              testId="session-platform"
            />
            <Detail
              label={t('sessions.createdAt')}
              value={formatDateTime(session.createdAt)}
              testId="session-created-at"
            />
            <Detail
              label={t('sessions.lastSeenAt')}
              value={formatDateTime(session.lastSeenAt)}
              testId="session-last-seen"
            />
            <Detail
              label={t('sessions.userAgent')}
              value={session.userAgent || t('sessions.unknown')}
              testId="session-user-agent"
            />
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
};

/** Spec §2 sessions: where I am logged in; log any other session out. */
export const SessionsPage = () => {
  const { t } = useTranslation();
  const { data, isLoading, isError, error, refetch } = useListMySessionsQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const [logoutSession] = useLogoutMySessionMutation();
  const [loggingOutId, setLoggingOutId] = useState<string | null>(null);

  const handleLogout = async (session: TSessionInfo) => {
    setLoggingOutId(session.id);
    const result = await logoutSession({ session_id: session.id });
    setLoggingOutId(null);
    if (!result.error) enqueueSnackbar(t('sessions.loggedOut'), { variant: 'success' });
  };

  const renderBody = () => {
    if (isLoading) return <PageSkeleton />;
    if (isError || !data) return <LoadError message={error?.message} onRetry={refetch} />;
    if (data.length === 0) return <Typography color="textSecondary">{t('sessions.empty')}</Typography>;
    return (
      <Stack spacing={1.5} data-testid="session-list">
        {data.map((session) => (
          <SessionCard
            key={session.id}
            session={session}
            isLoggingOut={loggingOutId === session.id}
            onLogout={handleLogout}
          />
        ))}
      </Stack>
    );
  };

  return (
    <>
      <PageHeader title={t('sessions.title')} subtitle={t('sessions.subtitle')} />
      {renderBody()}
    </>
  );
};
