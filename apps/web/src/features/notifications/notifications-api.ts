import type {
  TMarkNotificationsReadRequest,
  TMarkNotificationsReadResponse,
  TNotificationPage,
  TUnreadCount,
} from '@kisht/domain/notifications/notifications.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';

const LIST_TAG = { type: 'Notification', id: 'LIST' } as const;
const UNREAD_TAG = { type: 'Notification', id: 'UNREAD' } as const;

/** How often the app bar asks for the unread count, ms (also on focus and after marking read). */
export const UNREAD_POLL_MS = 60_000;

export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page (from 1) of the signed-in user's notifications, newest first. */
    listNotifications: build.query<TNotificationPage, { page: number }>({
      query: ({ page }) => ({ url: paths.notifications.list, params: { page } }),
      providesTags: [LIST_TAG],
    }),
    /** How many of the signed-in user's notifications are unread. */
    getUnreadNotificationCount: build.query<TUnreadCount, void>({
      query: () => paths.notifications.unreadCount,
      providesTags: [UNREAD_TAG],
    }),
    /** Marks some (ids) or all of my notifications read; the list and the count are fetched again. */
    markNotificationsRead: build.mutation<TMarkNotificationsReadResponse, TMarkNotificationsReadRequest>({
      query: (body) => ({ url: paths.notifications.read, method: 'POST', body }),
      invalidatesTags: [LIST_TAG, UNREAD_TAG],
    }),
  }),
});

export const {
  useListNotificationsQuery,
  useGetUnreadNotificationCountQuery,
  useMarkNotificationsReadMutation,
} = notificationsApi;
