import type { TNotification } from '@kisht/domain/notifications/notifications.schema';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { isCustomerUser } from '../../../lib/auth-storage';
import { formatDateTime } from '../../../lib/format';
import { appPaths } from '../../../lib/paths';
import { notificationWording } from '../components/notification-wording';
import {
  useGetUnreadNotificationCountQuery,
  useListNotificationsQuery,
  useMarkNotificationsReadMutation,
} from '../notifications-api';

/** Read by screen readers only (the tint and dot say "unread" to the eye). */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

type TItemProps = { notification: TNotification; onOpen: (notification: TNotification) => void };

/** One notification: unread ones tinted with a dot and a bold title; a tap opens it. */
const NotificationItem = ({ notification, onOpen }: TItemProps) => {
  const { t } = useTranslation();
  const isUnread = notification.readAt === null;
  const { title, text } = notificationWording(t, notification, isCustomerUser());
  return (
    <Card
      variant="outlined"
      data-testid={`notification-${notification.id}`}
      data-kind={notification.kind}
      data-unread={isUnread ? 'true' : 'false'}
      sx={{
        bgcolor: isUnread ? 'action.selected' : 'background.paper',
        borderColor: isUnread ? 'primary.main' : 'divider',
      }}
    >
      <CardActionArea onClick={() => onOpen(notification)}>
        <CardContent sx={{ py: 1.5 }}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
            <Box
              aria-hidden
              sx={{
                mt: 0.75,
                width: 10,
                height: 10,
                flexShrink: 0,
                borderRadius: '50%',
                bgcolor: isUnread ? 'primary.main' : 'transparent',
              }}
            />
            <Stack spacing={0.25} sx={{ minWidth: 0, flex: 1 }}>
              <Typography variant="subtitle1" sx={{ fontWeight: isUnread ? 700 : 500 }}>
                {title}
                {isUnread ? (
                  <Box component="span" sx={VISUALLY_HIDDEN}>
                    {` (${t('notifications.unread')})`}
                  </Box>
                ) : null}
              </Typography>
              <Typography variant="body2" data-testid="notification-text" sx={{ wordBreak: 'break-word' }}>
                {text}
              </Typography>
              <Typography variant="caption" color="textSecondary" data-testid="notification-time">
                {formatDateTime(notification.createdAt)}
              </Typography>
            </Stack>
          </Stack>
        </CardContent>
      </CardActionArea>
    </Card>
  );
};

/** Page `page` of the list (a "load more" chunk); the last chunk offers the next. */
const NotificationChunk = ({
  page,
  isLast,
  onOpen,
  onMore,
}: {
  page: number;
  isLast: boolean;
  onOpen: (notification: TNotification) => void;
  onMore: () => void;
}) => {
  const { t } = useTranslation();
  const { data, isLoading, isError, error, refetch } = useListNotificationsQuery(
    { page },
    { refetchOnMountOrArgChange: true },
  );
  if (isLoading) return <PageSkeleton />;
  if (isError || !data) return <LoadError message={error?.message} onRetry={refetch} />;
  if (page === 1 && data.items.length === 0)
    return (
      <Typography color="textSecondary" data-testid="notifications-empty">
        {t('notifications.empty')}
      </Typography>
    );
  const hasMore = data.page * data.pageSize < data.total;
  return (
    <>
      {data.items.map((notification) => (
        <NotificationItem key={notification.id} notification={notification} onOpen={onOpen} />
      ))}
      {isLast && hasMore ? (
        <Button onClick={onMore} data-testid="notifications-more">
          {t('notifications.more')}
        </Button>
      ) : null}
    </>
  );
};

/**
 * Notifications (issue 16, spec §7 `/api/notifications`): the signed-in user's own, newest first,
 * worded per kind in the reader's language; unread ones highlighted. A tap marks one read and, for
 * a shop, opens the customer it is about; "Mark all as read" clears the badge.
 */
export const NotificationsPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [pages, setPages] = useState(1);
  const { data: unread } = useGetUnreadNotificationCountQuery();
  const [markRead, { isLoading: isMarking }] = useMarkNotificationsReadMutation();
  const isCustomer = isCustomerUser();
  const pageNumbers = Array.from({ length: pages }, (_, index) => index + 1);

  const handleOpen = async (notification: TNotification) => {
    if (notification.readAt === null) await markRead({ ids: [notification.id] });
    if (notification.customerId !== null && !isCustomer)
      navigate(appPaths.customerDetails.href(notification.customerId));
  };

  return (
    <>
      <PageHeader
        title={t('notifications.title')}
        subtitle={
          unread && unread.unread > 0 ? t('notifications.unreadCount', { n: unread.unread }) : undefined
        }
        action={
          <Button
            size="small"
            startIcon={<DoneAllIcon />}
            disabled={!unread || unread.unread === 0}
            loading={isMarking}
            onClick={() => void markRead({ all: true })}
            data-testid="notifications-mark-all"
          >
            {t('notifications.markAll')}
          </Button>
        }
      />
      <Stack spacing={1.25} data-testid="notification-list">
        {pageNumbers.map((page) => (
          <NotificationChunk
            key={page}
            page={page}
            isLast={page === pages}
            onOpen={handleOpen}
            onMore={() => setPages((count) => count + 1)}
          />
        ))}
      </Stack>
    </>
  );
};
