import { timingSafeEqual } from 'node:crypto';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  type TBrokerAclRequest,
  type TBrokerAuthRequest,
  type TBrokerHookAnswer,
  ZBrokerAclRequest,
  ZBrokerAuthRequest,
  ZBrokerHookAnswer,
} from '@kisht/domain/devices/devices.schema';
import { cmdTopic, evtTopic } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TConfig } from '../../config';
import type { AppContext } from '../../lib/context';
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
 * authorisation). Off (404) unless BROKER_HOOK_SECRET is set; the broker sends it as a bearer token
 * (403 otherwise). They answer in the broker's format, `{ result, is_superuser }`, not the API
 * envelope. Bad input is a 400 naming the field, as everywhere.
 */
export const brokerHookRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const secret = ctx.config.BROKER_HOOK_SECRET;
  if (!secret) return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const requireBroker = async (request: FastifyRequest) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, secret)) throw new AppError(AppErrorCode.FORBIDDEN, 'Only the broker calls this');
  };
  r.post(
    paths.devices.brokerAuth,
    {
      onRequest: requireBroker,
      schema: {
        tags: ['devices'],
        summary: 'External broker: may this client connect? (EMQX HTTP authentication)',
        body: ZBrokerAuthRequest,
        response: { 200: ZBrokerHookAnswer },
      },
    },
    async (request) => brokerAuthAnswer(ctx, request.body),
  );
  r.post(
    paths.devices.brokerAcl,
    {
      onRequest: requireBroker,
      schema: {
        tags: ['devices'],
        summary: 'External broker: may this client publish or subscribe here? (EMQX HTTP authorisation)',
        body: ZBrokerAclRequest,
        response: { 200: ZBrokerHookAnswer },
      },
    },
    async (request) => brokerAclAnswer(ctx.config, request.body),
  );
};
