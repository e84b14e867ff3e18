import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { PRODUCTION_ENV, SILENT_LOG } from '../test/test-env';
import { createEmbeddedBroker, type EmbeddedBroker } from './broker';
import { probeBrokerLockdown } from './broker-probe';

/** The machine's Mosquitto, as the scale-out tests use it: it lets anyone in (allow_anonymous). */
const OPEN_BROKER_URL = 'mqtt://127.0.0.1:1883';

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
      log: SILENT_LOG,
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
      ...PRODUCTION_ENV,
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
