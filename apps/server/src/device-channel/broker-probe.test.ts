import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { Aedes } from 'aedes';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { PRODUCTION_ENV, SILENT_LOG } from '../test/test-env';
import { createEmbeddedBroker, type EmbeddedBroker } from './broker';
import { probeBrokerLockdown } from './broker-probe';

/** The machine's Mosquitto, as the scale-out tests use it: it lets anyone in (allow_anonymous). */
const OPEN_BROKER_URL = 'mqtt://127.0.0.1:1883';

/** The probe phone's credentials (config MQTT_PROBE_DEVICE_*). */
const PROBE_DEVICE = { id: randomUUID(), secret: 'probe-phone-secret-0123456789' };

/**
 * An Aedes broker over TCP on an ephemeral port that lets only the probe phone in, and lets it
 * subscribe to what `mayRead` allows.
 */
const startTcpBroker = async (mayRead: (clientId: string, topic: string) => boolean) => {
  const aedes = await Aedes.createBroker({
    authenticate: (_client, username, password, done) =>
      done(null, username === PROBE_DEVICE.id && password?.toString() === PROBE_DEVICE.secret),
    authorizeSubscribe: (client, subscription, done) =>
      mayRead(client?.id ?? '', subscription.topic)
        ? done(null, subscription)
        : done(new Error(`may not read ${subscription.topic}`)),
  });
  const tcp: TcpServer = createTcpServer(aedes.handle);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
};

/**
 * Issue 27: a production server told that the broker authenticates devices itself
 * (MQTT_BROKER_AUTH=external) checks it does before starting: an anonymous connect and a connect
 * as a device Kisht never issued must both be refused, and the probe phone must be refused
 * another device's command topic.
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
      MQTT_PROBE_DEVICE_ID: PROBE_DEVICE.id,
      MQTT_PROBE_DEVICE_SECRET: PROBE_DEVICE.secret,
      LOG_LEVEL: 'silent',
      JOBS_INTERVAL_MINUTES: '0',
      WEB_DIST_DIR: '/nonexistent',
      PGLITE_ANALYZE_INTERVAL_HOURS: '0',
    });
    // Refused before anything is opened: no database, no listener.
    await expect(buildApp(config)).rejects.toThrow(
      /MQTT_BROKER_AUTH=external, but the broker at MQTT_URL does not keep devices out or apart: it accepts an anonymous connect/,
    );
  }, 30_000);

  it("finds a broker that lets a phone read another device's commands", async () => {
    const open = await startTcpBroker(() => true);
    try {
      expect(await probeBrokerLockdown(open.url, PROBE_DEVICE)).toEqual([
        "it lets a phone subscribe to another device's command topic",
      ]);
    } finally {
      await open.close();
    }
  });

  it('finds nothing wrong on a broker that keeps each phone to its own topic', async () => {
    const strict = await startTcpBroker((clientId, topic) => topic === `kisht/v1/d/${clientId}/cmd`);
    try {
      expect(await probeBrokerLockdown(strict.url, PROBE_DEVICE)).toEqual([]);
      // Wrong probe credentials: said so, as the topic rules could not be checked.
      expect(
        await probeBrokerLockdown(strict.url, { ...PROBE_DEVICE, secret: 'not-the-secret-000000' }),
      ).toEqual([
        'it refuses the probe phone (MQTT_PROBE_DEVICE_ID and MQTT_PROBE_DEVICE_SECRET), so its topic rules cannot be checked',
      ]);
    } finally {
      await strict.close();
    }
  });

  it('needs the probe phone in production with MQTT_BROKER_AUTH=external, naming each setting', () => {
    expect(() =>
      loadConfig({ ...PRODUCTION_ENV, MQTT_URL: OPEN_BROKER_URL, MQTT_BROKER_AUTH: 'external' }),
    ).toThrow(/MQTT_PROBE_DEVICE_ID[\s\S]*MQTT_PROBE_DEVICE_SECRET/);
  });
});
