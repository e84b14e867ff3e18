import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../../config';
import {
  createCloudWhatsAppTransport,
  createLogWhatsAppTransport,
  type WhatsAppTransport,
} from './whatsapp.transport';

/**
 * The WhatsApp transport the configuration names (docs/whatsapp.md): the Cloud API with
 * WHATSAPP_PROVIDER=cloud (loadConfig has refused production without its keys), else the server
 * log, so development never messages anyone.
 */
export const createWhatsAppTransport = (config: TConfig, log: FastifyBaseLogger): WhatsAppTransport =>
  config.WHATSAPP_PROVIDER === 'cloud' && config.WHATSAPP_PHONE_NUMBER_ID && config.WHATSAPP_ACCESS_TOKEN
    ? createCloudWhatsAppTransport({
        apiUrl: config.WHATSAPP_API_URL,
        phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
        accessToken: config.WHATSAPP_ACCESS_TOKEN,
        timeoutMs: config.WHATSAPP_SEND_TIMEOUT_MS,
      })
    : createLogWhatsAppTransport(log);
