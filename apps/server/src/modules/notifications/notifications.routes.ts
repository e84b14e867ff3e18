import { notificationsContract } from '@kisht/domain/contract/notifications';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
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
  r.route({
    ...contractRoute(notificationsContract.list, {
      tags: ['notifications'],
      summary: 'Your notifications, newest first (unread=true: only unread ones)',
    }),
    handler: async (request) => ok(await listMyNotifications(ctx.db, request.actor, request.query)),
  });
  r.route({
    ...contractRoute(notificationsContract.unreadCount, {
      tags: ['notifications'],
      summary: 'How many of your notifications are unread',
    }),
    handler: async (request) => ok(await countMyUnread(ctx.db, request.actor)),
  });
  r.route({
    ...contractRoute(notificationsContract.read, {
      tags: ['notifications'],
      summary: 'Mark some of your notifications (ids) or all of them (all: true) read',
    }),
    handler: async (request) => ok(await markMyNotificationsRead(ctx.db, request.actor, request.body)),
  });
};
