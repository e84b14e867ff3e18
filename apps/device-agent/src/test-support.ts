import { randomUUID } from 'node:crypto';
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { TEnrolDeviceRequest, TEnrolDeviceResponse } from '@kisht/domain/devices/devices.schema';
import {
  ANDROID_PROVISIONING_KEYS,
  cmdTopic,
  evtTopic,
  PROVISIONING_EXTRAS,
  type TDeviceEvent,
  ZDeviceEvent,
} from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { Aedes, type Client } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { ServerSimulator } from './server-simulator';

/**
 * Test helpers for the device agent: factories for QR payloads and IMEIs, a real Aedes broker on an
 * ephemeral port, and a tiny HTTP server answering the enrol call the way the API server does.
 * Used by the tests here; benchmarks may use them too. Not part of the agent itself.
 */

/** Two valid (Luhn-checked) test IMEIs. */
export const TEST_IMEI_1 = '490154203237518';
export const TEST_IMEI_2 = '356938035643809';

/** The retailer the test enrol server names for the lock screen. */
export const TEST_RETAILER = { name: 'Ravi Mobiles', phone: '+919876543210', upiId: 'ravimobiles@okaxis' };

/** An enrolment token long enough for ZEnrolDeviceRequest. */
export const TEST_ENROLMENT_TOKEN = 'test-enrolment-token-0123456789';

/**
 * The Android provisioning JSON of an enrolment QR, as the server generates it. Override the token
 * or server URL, or pass `extras: null` to leave out the admin extras bundle.
 */
export const createProvisioningPayload = (
  overrides: { token?: string; serverUrl?: string; extras?: Record<string, unknown> | null } = {},
): Record<string, unknown> => {
  const extras =
    overrides.extras === undefined
      ? {
          [PROVISIONING_EXTRAS.enrolmentToken]: overrides.token ?? TEST_ENROLMENT_TOKEN,
          [PROVISIONING_EXTRAS.serverUrl]: overrides.serverUrl ?? 'http://127.0.0.1:8080',
        }
      : overrides.extras;
  return {
    [ANDROID_PROVISIONING_KEYS.adminComponent]: 'in.kisht.dpc/.AdminReceiver',
    [ANDROID_PROVISIONING_KEYS.packageDownloadLocation]: 'https://example.com/kisht-dpc.apk',
    [ANDROID_PROVISIONING_KEYS.signatureChecksum]: 'n5Q2jv8oXh0cQ0bJz3qB7n6m0S0g3sQd2dY8fHq7s1A',
    [ANDROID_PROVISIONING_KEYS.leaveSystemAppsEnabled]: true,
    ...(extras === null ? {} : { [ANDROID_PROVISIONING_KEYS.adminExtrasBundle]: extras }),
  };
};

/**
 * A command for the test broker's server (ServerSimulator.send): a lock/unlock or toggle goes out
 * as a policy version carrying it, anything else as a signed command message.
 */
export type TTestCommand = { id: string; name: string; args: Record<string, unknown>; notAfter?: string };

/** A command for TTestBroker.publishCommand; `id` defaults to a fresh UUID, `name` to lock. */
export const createCommandMessage = (overrides: Partial<TTestCommand> = {}): TTestCommand => ({
  id: randomUUID(),
  name: 'lock',
  args: {},
  ...overrides,
});

/** Polls `check` every 10 ms until it returns a value other than undefined; rejects after timeoutMs. */
export const waitFor = async <T>(
  check: () => T | undefined,
  { timeoutMs = 5000, what = 'condition' }: { timeoutMs?: number; what?: string } = {},
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

export type TTestBroker = {
  broker: Aedes;
  /** mqtt://127.0.0.1:<port> or ws://127.0.0.1:<port>/mqtt */
  url: string;
  /** Every device event published on a kisht evt topic, parsed, in arrival order. */
  events: { deviceId: string; event: TDeviceEvent }[];
  /** Devices allowed to connect: deviceId → secret. */
  devices: Map<string, string>;
  /**
   * Devices refused for now with CONNACK 3 (server unavailable), which they retry: add one and
   * drop its connection to take it offline; delete it to let it back.
   */
  unavailable: Set<string>;
  /**
   * Sends a command as the server does (through `server`: a policy for lock/unlock and toggles, a
   * signed command otherwise), or publishes a raw payload (a string) to the device's cmd topic.
   */
  publishCommand: (deviceId: string, message: TTestCommand | string) => Promise<void>;
  /** The server side: the organisation key, each device's policy, and the sync answering hellos. */
  server: ServerSimulator;
  /** Drops the device's connection from the broker side (the device should reconnect). */
  dropConnection: (deviceId: string) => void;
  /**
   * When true, a hello is answered with its sync before the broker acknowledges the hello: the
   * order a busy phone can read them in when both arrive in one read.
   */
  syncBeforeHelloAck: boolean;
  close: () => Promise<void>;
};

/**
 * Starts a real Aedes broker over TCP on an ephemeral port of 127.0.0.1, with the device channel's
 * rules: a client authenticates as username = clientId = deviceId with its secret, may subscribe
 * only to its own cmd topic and publish only to its own evt topic.
 */
export const startTestBroker = async ({
  transport = 'tcp',
}: {
  /** tcp: mqtt://127.0.0.1:<port>; ws: ws://127.0.0.1:<port>/mqtt, as the API server serves it. */
  transport?: 'tcp' | 'ws';
} = {}): Promise<TTestBroker> => {
  const devices = new Map<string, string>();
  const unavailable = new Set<string>();
  const clients = new Map<string, Client>();
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      if (unavailable.has(client.id)) {
        done(Object.assign(new Error('server unavailable'), { returnCode: 3 as const }), false);
        return;
      }
      const secret = username === undefined ? undefined : devices.get(username);
      const isValid = secret !== undefined && client.id === username && password?.toString() === secret;
      done(null, isValid);
    },
    authorizeSubscribe: (client, subscription, done) => {
      done(null, subscription.topic === cmdTopic(client.id) ? subscription : null);
    },
    authorizePublish: (client, packet, done) => {
      if (!client || packet.topic !== evtTopic(client.id)) {
        done(new Error('not your topic'));
        return;
      }
      const event = testBroker?.syncBeforeHelloAck
        ? ZDeviceEvent.safeParse(JSON.parse(packet.payload.toString())).data
        : undefined;
      if (event?.type !== 'hello') {
        done(null);
        return;
      }
      // The sync goes out first; the PUBACK follows once the phone has had time to read it.
      void server.onEvent(client.id, event).finally(() => setTimeout(() => done(null), 100));
    },
  });
  let testBroker: TTestBroker | undefined;
  const events: TTestBroker['events'] = [];
  const publishRaw = (deviceId: string, payload: string) =>
    new Promise<void>((resolve, reject) => {
      broker.publish(
        { cmd: 'publish', topic: cmdTopic(deviceId), payload, qos: 1, retain: false, dup: false },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  const server = new ServerSimulator(publishRaw);
  broker.on('client', (client) => clients.set(client.id, client));
  broker.on('publish', (packet, client) => {
    if (!client) return;
    const parsed = ZDeviceEvent.safeParse(JSON.parse(packet.payload.toString()));
    if (!parsed.success) return;
    events.push({ deviceId: client.id, event: parsed.data });
    // Answer on the next tick: Aedes calls this before it has finished with the publish.
    setImmediate(() => void server.onEvent(client.id, parsed.data).catch(() => undefined));
  });

  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  let listener: NetServer | HttpServer;
  if (transport === 'ws') {
    const httpServer = createHttpServer();
    httpServer.on('connection', track);
    const wss = new WebSocketServer({ server: httpServer, path: paths.mqtt });
    wss.on('connection', (socket, request) => broker.handle(createWebSocketStream(socket), request));
    listener = httpServer;
  } else {
    listener = createNetServer((socket) => {
      track(socket);
      broker.handle(socket);
    });
  }
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;

  testBroker = {
    broker,
    url: transport === 'ws' ? `ws://127.0.0.1:${port}${paths.mqtt}` : `mqtt://127.0.0.1:${port}`,
    events,
    devices,
    unavailable,
    server,
    publishCommand: async (deviceId, message) => {
      if (typeof message === 'string') await publishRaw(deviceId, message);
      else await server.send(deviceId, message);
    },
    dropConnection: (deviceId) => clients.get(deviceId)?.close(),
    syncBeforeHelloAck: false,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
  return testBroker;
};

export type TEnrolServer = {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Bodies of the enrol calls received. */
  requests: TEnrolDeviceRequest[];
  close: () => Promise<void>;
};

/**
 * Starts an HTTP server on an ephemeral port that answers POST paths.devices.enrol like the API
 * server: `respond` gets the request body and returns the HTTP status and envelope to send. By
 * default it accepts TEST_ENROLMENT_TOKEN, registers a new device with `broker` and answers its
 * credentials, and refuses other tokens with ENROLMENT_TOKEN_INVALID.
 */
export const startEnrolServer = async (
  broker: Pick<TTestBroker, 'url' | 'devices' | 'server'>,
  respond?: (body: TEnrolDeviceRequest) => { status: number; body: unknown },
): Promise<TEnrolServer> => {
  const requests: TEnrolDeviceRequest[] = [];
  const defaultRespond = (body: TEnrolDeviceRequest) => {
    if (body.token !== TEST_ENROLMENT_TOKEN) {
      return {
        status: 400,
        body: {
          response: 'failure',
          message: 'This enrolment QR is no longer valid',
          code: 'ENROLMENT_TOKEN_INVALID',
          data: null,
        },
      };
    }
    const deviceId = randomUUID();
    const deviceSecret = randomUUID();
    broker.devices.set(deviceId, deviceSecret);
    const data: TEnrolDeviceResponse = {
      deviceId,
      deviceSecret,
      mqttUrl: broker.url,
      cmdTopic: cmdTopic(deviceId),
      evtTopic: evtTopic(deviceId),
      serverKey: broker.server.serverKey,
      retailer: TEST_RETAILER,
    };
    return { status: 200, body: { response: 'success', message: 'Device enrolled', data } };
  };

  const server = createHttpServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'POST' || request.url !== paths.devices.enrol) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ response: 'failure', message: 'Not found', code: 'NOT_FOUND', data: null }),
      );
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString()) as TEnrolDeviceRequest;
    requests.push(body);
    const answer = (respond ?? defaultRespond)(body);
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
