import { timingSafeEqual } from 'node:crypto';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { devicesContract } from '@kisht/domain/contract/devices';
import {
  type TBrokerAclRequest,
  type TBrokerAuthRequest,
  type TBrokerHookAnswer,
  ZBrokerHookAnswer,
} from '@kisht/domain/devices/devices.schema';
import { cmdTopic, evtTopic } from '@kisht/domain/devices/protocol.schema';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TConfig } from '../../config';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { isValidDeviceSecret } from './devices.service';

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The server processes' own login (MQTT_USERNAME / MQTT_PASSWORD), when both are set. */
const isServerLogin = (config: TConfig, username: string, password?: string): boolean =>
  Boolean(
    config.MQTT_USERNAME &&
      config.MQTT_PASSWORD &&
      username === config.MQTT_USERNAME &&
      (password === undefined || sameSecret(password, config.MQTT_PASSWORD)),
  );

/**
 * May this client connect? A device logs in as clientid = username = its device id with its device
 * secret (design §5), and only while it is enrolled and not released (one read of its row); the
 * server processes log in with MQTT_USERNAME / MQTT_PASSWORD and are superusers. Everyone else is
 * denied. A device's answer carries its permissions (its own cmd and evt topics, nothing else:
 * brokerAclAnswer's rule as EMQX ≥ 5.8 `acl` rules), so such a broker asks no ACL hook per
 * publish or subscription.
 */
export const brokerAuthAnswer = async (
  ctx: Pick<AppContext, 'db' | 'config'>,
  request: TBrokerAuthRequest,
): Promise<TBrokerHookAnswer> => {
  const { clientid, username = '', password = '' } = request;
  if (isServerLogin(ctx.config, username, password)) return { result: 'allow', is_superuser: true };
  if (username === clientid && (await isValidDeviceSecret(ctx.db, username, password))) {
    return {
      result: 'allow',
      is_superuser: false,
      acl: [
        { permission: 'allow', action: 'subscribe', topic: `eq ${cmdTopic(clientid)}` },
        { permission: 'allow', action: 'publish', topic: `eq ${evtTopic(clientid)}` },
        { permission: 'deny', action: 'all', topic: '#' },
      ],
    };
  }
  return { result: 'deny' };
};

/**
 * May this client use this topic? A device may subscribe to its own `cmd` topic and publish to its
 * own `evt` topic, nothing else (design §5); the server processes may do anything.
 */
export const brokerAclAnswer = (config: TConfig, request: TBrokerAclRequest): TBrokerHookAnswer => {
  const { clientid, username = '', topic, action } = request;
  if (isServerLogin(config, username)) return { result: 'allow' };
  if (username !== clientid) return { result: 'deny' };
  const isOwn =
    (action === 'subscribe' && topic === cmdTopic(clientid)) ||
    (action === 'publish' && topic === evtTopic(clientid));
  return { result: isOwn ? 'allow' : 'deny' };
};

/**
 * The external broker's HTTP auth hooks (design §5 with MQTT_URL: EMQX's HTTP authentication and
 * authorisation). Off unless BROKER_HOOK_SECRET is set: they are registered (they are routes of
 * the wire contract) but answer as an unknown route (404) and stay out of /docs. The broker sends
 * the secret as a bearer token (403 otherwise). They answer in the broker's format,
 * `{ result, is_superuser }`, not the API envelope. Bad input is a 400 naming the field, as everywhere.
 */
export const brokerHookRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const secret = ctx.config.BROKER_HOOK_SECRET;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const requireBroker = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!secret) return reply.callNotFound();
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, secret)) throw new AppError(AppErrorCode.FORBIDDEN, 'Only the broker calls this');
  };
  /** A hook's route: the contract's, with the broker's answer (not the envelope) as its response. */
  const hookRoute = <C extends typeof devicesContract.brokerAuth | typeof devicesContract.brokerAcl>(
    contract: C,
    summary: string,
  ) => {
    const route = contractRoute(contract, { tags: ['devices'], summary, hide: !secret });
    return { ...route, schema: { ...route.schema, response: { 200: ZBrokerHookAnswer } } };
  };
  r.route({
    ...hookRoute(
      devicesContract.brokerAuth,
      'External broker: may this client connect? (EMQX HTTP authentication)',
    ),
    onRequest: requireBroker,
    handler: async (request) => brokerAuthAnswer(ctx, request.body),
  });
  r.route({
    ...hookRoute(
      devicesContract.brokerAcl,
      'External broker: may this client publish or subscribe here? (EMQX HTTP authorisation)',
    ),
    onRequest: requireBroker,
    handler: async (request) => brokerAclAnswer(ctx.config, request.body),
  });
};
