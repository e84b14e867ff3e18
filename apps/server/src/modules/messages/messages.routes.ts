import { zEnvelope } from '@kisht/domain/common/envelope';
import { ZDeviceCommand } from '@kisht/domain/devices/devices.schema';
import { ZBirthdaysToday, ZSendCustomerMessageRequest } from '@kisht/domain/messages/messages.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getBirthdaysToday, sendCustomerMessage } from './messages.service';

/** Messages to a customer's phone and the dashboard's birthdays (issue 16). */
export const messagesRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    paths.messages.send,
    {
      schema: {
        tags: ['devices'],
        summary:
          "Show a text message from the shop on the customer's phone (show_message command; at most 10 a day per phone)",
        body: ZSendCustomerMessageRequest,
        response: { 200: zEnvelope(ZDeviceCommand) },
      },
    },
    async (request) =>
      ok(await sendCustomerMessage(ctx, { actor: request.actor, request: request.body }), 'Message sent'),
  );

  r.get(
    paths.messages.birthdaysToday,
    {
      schema: {
        tags: ['customers'],
        summary: "Whether today (+05:30) is your birthday, and your customers' birthdays today (at most 50)",
        response: { 200: zEnvelope(ZBirthdaysToday) },
      },
    },
    async (request) => ok(await getBirthdaysToday(ctx.db, request.actor)),
  );
};
