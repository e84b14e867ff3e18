import { readFileSync } from 'node:fs';
import type { TPushRefusalReason } from '@kisht/domain/customers/customers.schema';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from '../../config';
import { createFcmGateway, ZServiceAccount } from './fcm.adapter';

/**
 * What became of one wake-up push: delivered to the push service (`sent`); its token is dead
 * (`unregistered`: the app was removed or the token expired); or the push service will never take
 * that token from this sender (`rejected`: malformed, or another Firebase project's). A refusal
 * carries the push service's own name for the error (`fcmError`: FCM's `SENDER_ID_MISMATCH`,
 * `INVALID_ARGUMENT`, `UNREGISTERED`, …), which the device's audit entry keeps (issue 27).
 */
export type TWakeResult = { kind: 'sent' } | { kind: TPushRefusalReason; fcmError: string };

/**
 * A push service that can wake a phone in Doze or app standby so it reconnects (device protocol
 * §14): Firebase Cloud Messaging in production (fcm.adapter.ts), nothing without one. `wake`
 * resolves once the push service took the message, or says the token is dead; it throws when the
 * push service cannot be reached after its retries.
 */
export type TPushGateway = {
  /** 'fcm', or 'none' when no push service is configured. */
  name: string;
  wake: (wake: { token: string; deviceId: string }) => Promise<TWakeResult>;
};

/** No push service: nothing is sent, and a phone is reached at its next reconnect. */
export const NO_PUSH: TPushGateway = { name: 'none', wake: async () => ({ kind: 'sent' }) };

/**
 * The push gateway the configuration asks for: FCM with FCM_SERVICE_ACCOUNT_FILE (throws, naming
 * the setting, when the file is missing or not a service account key), else NO_PUSH.
 */
export const createPushGateway = (config: TConfig, log: FastifyBaseLogger): TPushGateway => {
  const file = config.FCM_SERVICE_ACCOUNT_FILE;
  if (!file) return NO_PUSH;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`FCM_SERVICE_ACCOUNT_FILE: cannot read ${file}: ${(error as Error).message}`);
  }
  const serviceAccount = ZServiceAccount.safeParse(json);
  if (!serviceAccount.success) {
    const fields = serviceAccount.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new Error(`FCM_SERVICE_ACCOUNT_FILE: ${file} is not a service account key (${fields})`);
  }
  log.info({ project: serviceAccount.data.project_id }, 'wake-up pushes through FCM');
  return createFcmGateway({ serviceAccount: serviceAccount.data, apiUrl: config.FCM_API_URL });
};
