import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { cmdTopic, evtTopic } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import mqtt from 'mqtt';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { DeviceBus } from './bus';

const EVENTS_TOPIC = 'kisht/v1/d/+/evt';
/** Shared-subscription group: with several server processes each event reaches one of them (design §7). */

export type EmbeddedBrokerOptions = {
  log: FastifyBaseLogger;
  /** True when deviceId and secret match an enrolled device. */
  authenticateDevice: (deviceId: string, secret: string) => Promise<boolean>;
  /** Called when a device's MQTT connection opens or closes. */
  onPresence: (deviceId: string, isOnline: boolean) => void;
};

export type EmbeddedBroker = DeviceBus & {
  /** Serves MQTT over WebSocket at /mqtt on the given HTTP server. */
  attach: (server: Server) => void;
  connectedClients: () => number;
};

const authError = (message: string): AuthenticateError =>
  Object.assign(new Error(message), { returnCode: 4 as const }) as AuthenticateError;

/**
 * The embedded Aedes broker (design §1): devices authenticate with their id and secret, may read
 * only their own cmd topic and write only their own evt topic. The server publishes and subscribes
 * in-process.
 */
export const createEmbeddedBroker = async (options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> => {
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      if (!username || !password || client.id !== username) {
        done(authError('client id must equal the device id'), false);
        return;
      }
      options
        .authenticateDevice(username, password.toString('utf8'))
        .then((isValid) => done(isValid ? null : authError('bad device credentials'), isValid))
        .catch((error: unknown) => {
          options.log.error({ err: error }, 'device authentication failed');
          done(authError('authentication unavailable'), false);
        });
    },
    authorizeSubscribe: (client, subscription, done) => {
      if (subscription.topic === cmdTopic(client.id)) done(null, subscription);
      else done(new Error(`device may not subscribe to ${subscription.topic}`));
    },
    authorizePublish: (client, packet, done) => {
      if (!client || packet.topic === evtTopic(client.id)) done(null);
      else done(new Error(`device may not publish to ${packet.topic}`));
    },
  });
  broker.on('clientReady', (client) => options.onPresence(client.id, true));
  broker.on('clientDisconnect', (client) => options.onPresence(client.id, false));

  const wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (socket, request: IncomingMessage) => {
    broker.handle(createWebSocketStream(socket), request);
  });

  return {
    attach: (server) => {
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (request.url?.split('?')[0] !== paths.mqtt) return;
        wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
      });
    },
    connectedClients: () => broker.connectedClients,
    disconnect: async (deviceId) => {
      // Aedes keeps its connected clients by id (aedes.js `clients`), a field its types leave out.
      const client = (broker as unknown as { clients: Record<string, Client | undefined> }).clients[deviceId];
      if (!client) return false;
      await new Promise<void>((resolve) => client.close(() => resolve()));
      return true;
    },
    publish: (topic, payload) =>
      new Promise((resolve, reject) => {
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        );
      }),
    subscribeEvents: (handler) =>
      new Promise((resolve) => {
        broker.subscribe(
          EVENTS_TOPIC,
          (packet, callback) => {
            // Not callback() here and now: mqemitter hands this subscriber its next queued message
            // from inside callback(), so answering synchronously recurses once per queued event and
            // overflows the stack when thousands of phones' events queue up (mcollina/mqemitter#204).
            process.nextTick(callback);
            handler(packet.topic, Buffer.from(packet.payload)).catch((error: unknown) =>
              options.log.error({ err: error, topic: packet.topic }, 'device event handling failed'),
            );
          },
          resolve,
        );
      }),
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
};

/**
 * The device bus over an external broker (MQTT_URL: Mosquitto, EMQX): QoS 1 publishes and a
 * shared subscription to device events so N server processes split them (design §7).
 */
export const createExternalBus = async (options: {
  url: string;
  /** Shared-subscription group of this deployment's server processes (MQTT_SHARED_GROUP). */
  sharedGroup: string;
  /** The server's own login on the broker (MQTT_USERNAME / MQTT_PASSWORD), if it needs one. */
  username?: string | undefined;
  password?: string | undefined;
  log: FastifyBaseLogger;
  clientId: string;
}): Promise<DeviceBus> => {
  const client = await mqtt.connectAsync(options.url, {
    clientId: options.clientId,
    ...(options.username ? { username: options.username, password: options.password } : {}),
    clean: true,
    reconnectPeriod: 1000,
  });
  client.on('error', (error) => options.log.error({ err: error }, 'MQTT client error'));
  // mqtt.js opens its TCP socket with Nagle's algorithm on: a publish written while the broker has
  // not yet acknowledged the previous segment (our PUBACK of an event, say) waits for the broker's
  // delayed ACK, ~40 ms on Linux, before every command (issue 26). Small messages go out at once.
  const sendAtOnce = () => (client.stream as { setNoDelay?: (noDelay: boolean) => void }).setNoDelay?.(true);
  sendAtOnce();
  client.on('connect', sendAtOnce);
  return {
    publish: async (topic, payload) => {
      await client.publishAsync(topic, payload, { qos: 1 });
    },
    subscribeEvents: async (handler) => {
      client.on('message', (topic, payload) => {
        // Which process took which event (the scale-out test checks each reached exactly one).
        options.log.debug({ topic }, 'device event received');
        handler(topic, payload).catch((error: unknown) =>
          options.log.error({ err: error, topic }, 'device event handling failed'),
        );
      });
      await client.subscribeAsync(`$share/${options.sharedGroup}/${EVENTS_TOPIC}`, { qos: 1 });
    },
    close: async () => {
      await client.endAsync();
    },
  };
};
