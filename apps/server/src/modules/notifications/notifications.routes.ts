import { zEnvelope } from '@kisht/domain/common/envelope';
import {
  ZMarkNotificationsReadRequest,
  ZMarkNotificationsReadResponse,
  ZNotificationPage,
  ZNotificationsQuery,
  ZUnreadCount,
} from '@kisht/domain/notifications/notifications.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { countMyUnread, listMyNotifications, markMyNotificationsRead } from './notifications.service';

/**
 * In-app notifications (issue 16, spec §7 `/api/notifications`; session required): the list, the
 * unread count and marking read, each of the session user's own notifications only (retailers,
 * mini-retailers and customers alike).
 */
export const notificationsRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    paths.notifications.list,
    {
      schema: {
        tags: ['notifications'],
        summary: 'Your notifications, newest first (unread=true: only unread ones)',
        querystring: ZNotificationsQuery,
        response: { 200: zEnvelope(ZNotificationPage) },
      },
    },
    async (request) => ok(await listMyNotifications(ctx.db, request.actor, request.query)),
  );
  r.get(
    paths.notifications.unreadCount,
    {
      schema: {
        tags: ['notifications'],
        summary: 'How many of your notifications are unread',
        response: { 200: zEnvelope(ZUnreadCount) },
      },
    },
    async (request) => ok(await countMyUnread(ctx.db, request.actor)),
  );
  r.post(
    paths.notifications.read,
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark some of your notifications (ids) or all of them (all: true) read',
        body: ZMarkNotificationsReadRequest,
        response: { 200: zEnvelope(ZMarkNotificationsReadResponse) },
      },
    },
    async (request) => ok(await markMyNotificationsRead(ctx.db, request.actor, request.body)),
  );
};
