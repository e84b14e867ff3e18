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
  type TDeviceEvent,
  type TLockScreen,
  type TServerKey,
  type TServerMessage,
  ZDeviceEvent,
} from '@kisht/domain/devices/protocol.schema';
import { openServerMessage, publicKeyOf } from '@kisht/domain/devices/server-message';
import { paths } from '@kisht/domain/paths';
import { Aedes } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { ServerSimulator } from '../server-simulator';

/**
 * The server's side of the device channel, for the conformance suite: an embedded Aedes broker (by
 * default on an ephemeral port of 127.0.0.1) that admits one device (fresh id and secret), enforces
 * the topic rules of docs/device-protocol.md §2, records everything the device does and everything
 * sent to it, and answers as the server does through a ServerSimulator.
 */

/**
 * The lock screen (device protocol §9.2) every lock the suite sends carries, as the API server puts
 * one in the policy of every lock: a device must accept it and show it.
 */
export const CONFORMANCE_LOCK_SCREEN: TLockScreen = {
  retailerName: 'Conformance Mobiles',
  retailerPhone: '+919800000042',
  overduePaise: 208_000,
  howToPay: 'Pay by UPI to conformance@okaxis\nor at Shop 7, MG Road',
  emergencyCalls: true,
};

/** What a device gets when it enrols (TEnrolDeviceResponse without the HTTP envelope). */
export type TConformanceCredentials = {
  deviceId: string;
  deviceSecret: string;
  /** mqtt://127.0.0.1:<port> or ws://127.0.0.1:<port>/mqtt */
  mqttUrl: string;
  cmdTopic: string;
  evtTopic: string;
  /** The server key whose signatures the device must check (device protocol §5). */
  serverKey: TServerKey;
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

/** One payload published on the device's cmd topic (by the server simulator or a check), in order. */
export type TSentRecord = {
  payload: string;
  /** The message, when the payload is validly signed with the server key for this device. */
  message?: TServerMessage;
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
  /** Every payload published on the device's cmd topic, oldest first. */
  sent: TSentRecord[];
  /**
   * How many times each command id was delivered to the device in a validly signed message: a
   * command message and a cancel count for their id, a policy (or the policy of a sync) for each
   * command it lists. A device acks at most one final status per delivery.
   */
  deliveries: Map<string, number>;
  /** True while the device has an open, authenticated connection. */
  isConnected: () => boolean;
  /**
   * Sends a command as the server does (through `server`: lock/unlock and toggles as a new policy
   * version, others as a signed command), or publishes a raw payload (a string), QoS 1, not retained.
   */
  publishCommand: (message: TConformanceCommand | string) => Promise<void>;
  /** The server side: key, the device's policy, the sync answering each hello (ServerSimulator). */
  server: ServerSimulator;
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

/** The ids a validly signed message delivers (see TConformanceBroker.deliveries). */
const deliveredIds = (message: TServerMessage): string[] => {
  if (message.type === 'policy') return message.commands.map((command) => command.id);
  if (message.type === 'sync') return message.policy.commands.map((command) => command.id);
  return [message.id];
};

/** Where the broker listens and what address the device is given. */
export type TConformanceBrokerOptions = {
  /** 'tcp' (mqtt://) or 'ws' (ws://…/mqtt, as the API server serves it). Default 'tcp'. */
  transport?: 'tcp' | 'ws';
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Port to listen on; 0 (the default) takes a free one. */
  port?: number;
  /** Host name the device is told to connect to (credentials.mqttUrl). Default `host`. */
  publicHost?: string;
};

/**
 * Starts the broker (TCP, or MQTT over WebSocket at /mqtt like the API server) with credentials
 * for one new device, by default on an ephemeral port of 127.0.0.1.
 */
export const startConformanceBroker = async (
  options: TConformanceBrokerOptions = {},
): Promise<TConformanceBroker> => {
  const deviceId = uuidV7();
  const deviceSecret = randomBytes(24).toString('base64url');
  const events: TEventRecord[] = [];
  const violations: string[] = [];
  const connections: TConnectionRecord[] = [];
  const subscriptions: TConformanceBroker['subscriptions'] = [];
  const sent: TSentRecord[] = [];
  const deliveries = new Map<string, number>();
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
  const publishRaw = (payload: string) => {
    // What the device should make of it: a message from this server for it, or nothing.
    const opened = openServerMessage(payload, verifyingKey, deviceId);
    const message = 'message' in opened ? opened.message : undefined;
    sent.push({ payload, ...(message ? { message } : {}) });
    for (const id of message ? deliveredIds(message) : []) deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    return new Promise<void>((resolve, reject) => {
      broker.publish(
        { cmd: 'publish', topic: cmdTopic(deviceId), payload, qos: 1, retain: false, dup: false },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  };
  const server = new ServerSimulator((_deviceId, payload) => publishRaw(payload));
  server.lockScreen = CONFORMANCE_LOCK_SCREEN;
  const verifyingKey = { kid: server.key.kid, publicKey: publicKeyOf(server.key) };
  broker.on('publish', (packet, client) => {
    if (!client) return;
    const payload = packet.payload.toString();
    if (packet.qos !== 1) violations.push(`published an event with QoS ${packet.qos}, not 1`);
    if (packet.retain) violations.push('published a retained event');
    const record: TEventRecord = {
      seq: events.length + 1,
      receivedAt: Date.now(),
      topic: packet.topic,
      payload,
      ...parseEvent(payload),
    };
    events.push(record);
    const { event } = record;
    // The server answers a hello with a sync, and forgets a command once it is final.
    if (event && packet.topic === evtTopic(deviceId)) {
      setImmediate(() => void server.onEvent(deviceId, event).catch(() => undefined));
    }
  });

  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  let listener: NetServer | HttpServer;
  let wss: WebSocketServer | undefined;
  if (options.transport === 'ws') {
    const httpServer = createHttpServer();
    httpServer.on('connection', track);
    wss = new WebSocketServer({ server: httpServer, path: paths.mqtt });
    wss.on('connection', (socket, request) => broker.handle(createWebSocketStream(socket), request));
    listener = httpServer;
  } else {
    listener = createNetServer((socket) => {
      track(socket);
      broker.handle(socket);
    });
  }
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = listener.address() as AddressInfo;
  const authority = urlHost(options.publicHost ?? host, port);
  const mqttUrl = options.transport === 'ws' ? `ws://${authority}${paths.mqtt}` : `mqtt://${authority}`;

  return {
    credentials: {
      deviceId,
      deviceSecret,
      mqttUrl,
      cmdTopic: cmdTopic(deviceId),
      evtTopic: evtTopic(deviceId),
      serverKey: server.serverKey,
    },
    events,
    violations,
    connections,
    subscriptions,
    sent,
    deliveries,
    isConnected: () => connectedClient !== undefined,
    server,
    publishCommand: async (message) => {
      if (typeof message === 'string') await publishRaw(message);
      else await server.send(deviceId, message);
    },
    dropConnection: () => connectedClient?.close(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      for (const client of wss?.clients ?? []) client.terminate();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
};

/** `host:port` for a URL, with an IPv6 address in brackets. */
export const urlHost = (host: string, port: number): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** A command the harness's server sends (ServerSimulator.send). */
export type TConformanceCommand = {
  id: string;
  name: string;
  args: Record<string, unknown>;
  notAfter?: string;
};

/** A command for the device, with a fresh UUIDv7 id unless given. */
export const commandMessage = (
  name: string,
  args: Record<string, unknown> = {},
  id = uuidV7(),
): TConformanceCommand => ({ id, name, args });
