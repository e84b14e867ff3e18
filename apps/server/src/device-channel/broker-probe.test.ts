import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createEmbeddedBroker, type EmbeddedBroker } from './broker';
import { probeBrokerLockdown } from './broker-probe';

/** The machine's Mosquitto, as the scale-out tests use it: it lets anyone in (allow_anonymous). */
const OPEN_BROKER_URL = 'mqtt://127.0.0.1:1883';

const silent = {
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
} as unknown as FastifyBaseLogger;

/**
 * Issue 27: a production server told that the broker authenticates devices itself
 * (MQTT_BROKER_AUTH=external) checks it does before starting: an anonymous connect and a connect
 * as a device Kisht never issued must both be refused.
 */
describe('probeBrokerLockdown', () => {
  let broker: EmbeddedBroker | undefined;
  let server: Server | undefined;
  afterAll(async () => {
    await broker?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('finds both ways in on a broker that lets anyone connect', async () => {
    expect(await probeBrokerLockdown(OPEN_BROKER_URL)).toEqual([
      'it accepts an anonymous connect',
      'it accepts a device id and secret Kisht never issued',
    ]);
  });

  it('finds nothing open on a broker that checks device secrets (the embedded one)', async () => {
    broker = await createEmbeddedBroker({
      log: silent,
      authenticateDevice: async () => false,
      onPresence: () => {},
    });
    server = createServer();
    broker.attach(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    expect(await probeBrokerLockdown(`ws://127.0.0.1:${port}/mqtt`)).toEqual([]);
  });

  it('keeps a production server on an open broker with MQTT_BROKER_AUTH=external from starting', async () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-jwt-secret-of-32-characters',
      OTP_PEPPER: 'a-production-otp-pepper',
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      DPC_DOWNLOAD_URL: 'https://downloads.example.com/kisht-dpc.apk',
      DPC_SIGNATURE_CHECKSUM: 'n5Q2jv8oXh0cQ0bJz3qB7n6m0S0g3sQd2dY8fHq7s1A',
      MQTT_URL: OPEN_BROKER_URL,
      MQTT_BROKER_AUTH: 'external',
      LOG_LEVEL: 'silent',
      JOBS_INTERVAL_MINUTES: '0',
      WEB_DIST_DIR: '/nonexistent',
      PGLITE_ANALYZE_INTERVAL_HOURS: '0',
    });
    // Refused before anything is opened: no database, no listener.
    await expect(buildApp(config)).rejects.toThrow(
      /MQTT_BROKER_AUTH=external, but the broker at MQTT_URL does not authenticate devices: it accepts an anonymous connect/,
    );
  }, 30_000);
});
