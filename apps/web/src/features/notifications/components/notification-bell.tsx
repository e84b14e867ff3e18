import NotificationsIcon from '@mui/icons-material/Notifications';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { appPaths } from '../../../lib/paths';
import { UNREAD_POLL_MS, useGetUnreadNotificationCountQuery } from '../notifications-api';

/**
 * The app bar's bell: the unread count as a badge (asked every minute while the app is in view and
 * again when it regains focus); a tap opens the notifications page.
 */
export const NotificationBell = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useGetUnreadNotificationCountQuery(undefined, {
    pollingInterval: UNREAD_POLL_MS,
    skipPollingIfUnfocused: true,
    refetchOnFocus: true,
  });
  const unread = data?.unread ?? 0;
  const label = unread > 0 ? t('notifications.bellUnread', { n: unread }) : t('notifications.bell');
  return (
    <Tooltip title={label}>
      <IconButton
        color="inherit"
        onClick={() => navigate(appPaths.notifications.href())}
        aria-label={label}
        data-testid="notification-bell"
        data-unread={unread}
        sx={{ mr: 0.5 }}
      >
        <Badge badgeContent={unread} color="error" max={99} data-testid="notification-badge">
          <NotificationsIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
};
