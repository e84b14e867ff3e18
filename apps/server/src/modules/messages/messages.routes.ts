import { messagesContract } from '@kisht/domain/contract/messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getBirthdaysToday, sendCustomerMessage } from './messages.service';

/** Messages to a customer's phone and the dashboard's birthdays (issue 16). */
export const messagesRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...contractRoute(messagesContract.send, {
      tags: ['devices'],
      summary:
        "Show a text message from the shop on the customer's phone (show_message command; at most 10 a day per phone)",
    }),
    handler: async (request) =>
      ok(await sendCustomerMessage(ctx, { actor: request.actor, request: request.body }), 'Message sent'),
  });

  r.route({
    ...contractRoute(messagesContract.birthdaysToday, {
      tags: ['customers'],
      summary: "Whether today (+05:30) is your birthday, and your customers' birthdays today (at most 50)",
    }),
    handler: async (request) => ok(await getBirthdaysToday(ctx.db, request.actor)),
  });
};
