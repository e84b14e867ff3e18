import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../../config';
import { createMsg91SmsTransport } from './msg91.transport';
import { createLogSmsTransport, createWebhookSmsTransport, type SmsTransport } from './sms.transport';
import { SMS_TEMPLATES, type TSmsKind } from './sms-templates';

/**
 * The SMS transport the configuration names (docs/sms.md). In production: MSG91's Flow API with
 * SMS_PROVIDER=msg91, else the generic webhook (SMS_WEBHOOK_URL); loadConfig has already refused
 * production without what the provider needs. Outside production: the server log, so development
 * and tests never text anyone, unless SMS_PROVIDER_OUTSIDE_PRODUCTION (a journey's local fake MSG91).
 */
export const createSmsTransport = (config: TConfig, log: FastifyBaseLogger): SmsTransport => {
  if (config.NODE_ENV !== 'production' && !config.SMS_PROVIDER_OUTSIDE_PRODUCTION)
    return createLogSmsTransport(log);
  const timeoutMs = config.SMS_SEND_TIMEOUT_MS;
  if (config.SMS_PROVIDER === 'msg91') {
    const kinds = Object.keys(SMS_TEMPLATES) as TSmsKind[];
    return createMsg91SmsTransport({
      apiUrl: config.MSG91_API_URL,
      authKey: config.MSG91_AUTH_KEY ?? '',
      senderId: config.SMS_SENDER_ID ?? '',
      templateIds: Object.fromEntries(
        kinds.map((kind) => [kind, config[SMS_TEMPLATES[kind].configKey] ?? '']),
      ) as Record<TSmsKind, string>,
      timeoutMs,
    });
  }
  return config.SMS_WEBHOOK_URL
    ? createWebhookSmsTransport(config.SMS_WEBHOOK_URL, { timeoutMs })
    : createLogSmsTransport(log);
};
