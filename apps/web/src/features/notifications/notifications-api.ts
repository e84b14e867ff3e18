import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { notificationsContract } from '@kisht/domain/contract/notifications';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TList = (typeof notificationsContract)['list'];
type TUnreadCount = (typeof notificationsContract)['unreadCount'];
type TRead = (typeof notificationsContract)['read'];

const LIST_TAG = { type: 'Notification', id: 'LIST' } as const;
const UNREAD_TAG = { type: 'Notification', id: 'UNREAD' } as const;

/** How often the app bar asks for the unread count, ms (also on focus and after marking read). */
export const UNREAD_POLL_MS = 60_000;

export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page (from 1) of the signed-in user's notifications, newest first. */
    listNotifications: build.query<TContractData<TList>, { page: number }>({
      query: ({ page }) =>
        contractRequest<TList>({ path: paths.notifications.list, method: 'GET' }, { params: { page } }),
      providesTags: [LIST_TAG],
    }),
    /** How many of the signed-in user's notifications are unread. */
    getUnreadNotificationCount: build.query<TContractData<TUnreadCount>, void>({
      query: () => contractRequest<TUnreadCount>({ path: paths.notifications.unreadCount, method: 'GET' }),
      providesTags: [UNREAD_TAG],
    }),
    /** Marks some (ids) or all of my notifications read; the list and the count are fetched again. */
    markNotificationsRead: build.mutation<TContractData<TRead>, TContractBody<TRead>>({
      query: (body) => contractRequest<TRead>({ path: paths.notifications.read, method: 'POST' }, { body }),
      invalidatesTags: [LIST_TAG, UNREAD_TAG],
    }),
  }),
});

export const {
  useListNotificationsQuery,
  useGetUnreadNotificationCountQuery,
  useMarkNotificationsReadMutation,
} = notificationsApi;
