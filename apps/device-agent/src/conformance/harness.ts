import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import {
  cmdTopic,
  evtTopic,
  PROTOCOL_VERSION,
  type TCommandMessage,
  type TDeviceEvent,
  ZDeviceEvent,
} from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { Aedes } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';

/**
 * The server's side of the device channel, for the conformance suite: an embedded Aedes broker on
 * an ephemeral port of 127.0.0.1 that admits one device (fresh id and secret), enforces the topic
 * rules of docs/device-protocol.md §2, and records everything the device does.
 */

/** What a device gets when it enrols (TEnrolDeviceResponse without the HTTP envelope). */
export type TConformanceCredentials = {
  deviceId: string;
  deviceSecret: string;
  /** mqtt://127.0.0.1:<port> or ws://127.0.0.1:<port>/mqtt */
  mqttUrl: string;
  cmdTopic: string;
  evtTopic: string;
};

/** One PUBLISH the device sent, in arrival order. */
export type TEventRecord = {
  /** 1, 2, 3… in arrival order. */
  seq: number;
  /** Date.now() when the broker got it. */
  receivedAt: number;
  topic: string;
  payload: string;
  /** The parsed event when the payload is a valid ZDeviceEvent with a parseable `at`. */
  event?: TDeviceEvent;
  /** Why the payload is not a valid event. */
  error?: string;
};

/** One CONNECT the broker accepted from the device. */
export type TConnectionRecord = { seq: number; isCleanSession: boolean; protocolVersion: number };

export type TConformanceBroker = {
  credentials: TConformanceCredentials;
  /** Every PUBLISH of the device on its evt topic, parsed or not. */
  events: TEventRecord[];
  /** Protocol breaches the broker saw: publishes or subscriptions outside the device's topics. */
  violations: string[];
  /** Accepted connections of the device, oldest first (`seq`: events.length when it connected). */
  connections: TConnectionRecord[];
  /** Subscriptions the broker granted, oldest first. */
  subscriptions: { topic: string; qos: number }[];
  /** True while the device has an open, authenticated connection. */
  isConnected: () => boolean;
  /** Publishes a command (or any payload) to the device's cmd topic, QoS 1, not retained. */
  publishCommand: (message: TCommandMessage | string) => Promise<void>;
  /** Closes the device's connection from the broker side (the device should reconnect). */
  dropConnection: () => void;
  close: () => Promise<void>;
};

/** A UUIDv7 (time-ordered), as the server gives command ids. */
export const uuidV7 = (): string => {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** Parses one payload the device published: the event, or why it is not one. */
const parseEvent = (payload: string): { event?: TDeviceEvent; error?: string } => {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return { error: 'not JSON' };
  }
  const parsed = ZDeviceEvent.safeParse(json);
  if (!parsed.success) {
    return {
      error: parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(event)'}: ${issue.message}`)
        .join('; '),
    };
  }
  if (Number.isNaN(Date.parse(parsed.data.at))) return { error: `at: not a date (${parsed.data.at})` };
  return { event: parsed.data };
};

/**
 * Starts the broker (TCP, or MQTT over WebSocket at /mqtt like the API server) on port 0 of
 * 127.0.0.1 with credentials for one new device. Never binds a fixed port.
 */
export const startConformanceBroker = async (
  options: { transport?: 'tcp' | 'ws' } = {},
): Promise<TConformanceBroker> => {
  const deviceId = uuidV7();
  const deviceSecret = randomBytes(24).toString('base64url');
  const events: TEventRecord[] = [];
  const violations: string[] = [];
  const connections: TConnectionRecord[] = [];
  const subscriptions: TConformanceBroker['subscriptions'] = [];
  let connectedClient: { id: string; close: () => void } | undefined;

  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const isValid =
        client.id === deviceId && username === deviceId && password?.toString() === deviceSecret;
      if (!isValid) {
        violations.push(
          `refused a CONNECT with clientId "${client.id}" and username "${username}": clientId and username must be the device id, password its secret`,
        );
        done(Object.assign(new Error('bad device credentials'), { returnCode: 4 as const }), false);
        return;
      }
      done(null, true);
    },
    authorizeSubscribe: (_client, subscription, done) => {
      if (subscription.topic === cmdTopic(deviceId)) {
        subscriptions.push({ topic: subscription.topic, qos: subscription.qos });
        done(null, subscription);
        return;
      }
      violations.push(`subscribed to ${subscription.topic}, which is not its cmd topic`);
      done(null, null);
    },
    authorizePublish: (client, packet, done) => {
      if (!client || packet.topic === evtTopic(deviceId)) {
        done(null);
        return;
      }
      violations.push(`published to ${packet.topic}, which is not its evt topic`);
      done(new Error('not your topic'));
    },
  });
  broker.on('client', (client) => {
    connections.push({ seq: events.length, isCleanSession: client.clean, protocolVersion: client.version });
  });
  broker.on('clientReady', (client) => {
    connectedClient = client;
  });
  broker.on('clientDisconnect', (client) => {
    if (connectedClient === client) connectedClient = undefined;
  });
  broker.on('publish', (packet, client) => {
    if (!client) return;
    const payload = packet.payload.toString();
    if (packet.qos !== 1) violations.push(`published an event with QoS ${packet.qos}, not 1`);
    if (packet.retain) violations.push('published a retained event');
    events.push({
      seq: events.length + 1,
      receivedAt: Date.now(),
      topic: packet.topic,
      payload,
      ...parseEvent(payload),
    });
  });

  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  let server: NetServer | HttpServer;
  let wss: WebSocketServer | undefined;
  if (options.transport === 'ws') {
    const httpServer = createHttpServer();
    httpServer.on('connection', track);
    wss = new WebSocketServer({ server: httpServer, path: paths.mqtt });
    wss.on('connection', (socket, request) => broker.handle(createWebSocketStream(socket), request));
    server = httpServer;
  } else {
    server = createNetServer((socket) => {
      track(socket);
      broker.handle(socket);
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const mqttUrl =
    options.transport === 'ws' ? `ws://127.0.0.1:${port}${paths.mqtt}` : `mqtt://127.0.0.1:${port}`;

  return {
    credentials: {
      deviceId,
      deviceSecret,
      mqttUrl,
      cmdTopic: cmdTopic(deviceId),
      evtTopic: evtTopic(deviceId),
    },
    events,
    violations,
    connections,
    subscriptions,
    isConnected: () => connectedClient !== undefined,
    publishCommand: (message) =>
      new Promise<void>((resolve, reject) => {
        const payload = typeof message === 'string' ? message : JSON.stringify(message);
        broker.publish(
          { cmd: 'publish', topic: cmdTopic(deviceId), payload, qos: 1, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        );
      }),
    dropConnection: () => connectedClient?.close(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      for (const client of wss?.clients ?? []) client.terminate();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** A command message for the device, with a fresh UUIDv7 id unless given. */
export const commandMessage = (
  name: string,
  args: Record<string, unknown> = {},
  id = uuidV7(),
): TCommandMessage => ({
  v: PROTOCOL_VERSION,
  id,
  name,
  args,
  issuedAt: new Date().toISOString(),
});
