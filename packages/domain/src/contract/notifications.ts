import {
  ZMarkNotificationsReadRequest,
  ZMarkNotificationsReadResponse,
  ZNotificationPage,
  ZNotificationsQuery,
  ZUnreadCount,
} from '../notifications/notifications.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The in-app notification routes of the wire contract (contract/define.ts): each the session
 * user's own notifications only (retailers, mini-retailers and customers alike).
 */
export const notificationsContract = defineRoutes({
  /** A page of your notifications, newest first (unread=true: only unread ones). */
  list: {
    method: 'GET',
    path: paths.notifications.list,
    query: ZNotificationsQuery,
    response: ZNotificationPage,
  },
  /** How many of your notifications are unread. */
  unreadCount: { method: 'GET', path: paths.notifications.unreadCount, response: ZUnreadCount },
  /** Mark some of your notifications (ids) or all of them (all: true) read. */
  read: {
    method: 'POST',
    path: paths.notifications.read,
    body: ZMarkNotificationsReadRequest,
    response: ZMarkNotificationsReadResponse,
  },
});
