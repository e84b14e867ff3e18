import { randomUUID } from 'node:crypto';
import {
  PROTOCOL_VERSION,
  type TGoneEvent,
  type THelloEvent,
  type TServerMessage,
} from '@kisht/domain/devices/protocol.schema';
import { connect, type MqttClient } from 'mqtt';
import type { AgentCore } from './agent-core';

/** Delay between reconnect attempts, in milliseconds. */
export const RECONNECT_PERIOD_MS = 1000;
/** MQTT keepalive, in seconds. */
export const KEEPALIVE_SECONDS = 30;
/**
 * How long a connection waits for the sync answering its first hello before saying hello again, ms.
 * Each hello again waits twice as long as the one before, up to SYNC_WAIT_MAX_MS (protocol §6.4).
 */
export const SYNC_WAIT_MS = 5000;
/**
 * The longest wait between hellos of one connection, ms. A server too busy to answer within 5 s
 * (a connect storm) gets fewer hellos, not more: each one it cannot answer in time is refused as
 * an earlier hello's sync when it finally comes, so a fixed 5 s period never lets the phone settle.
 */
export const SYNC_WAIT_MAX_MS = 60_000;
/** How long stop() waits for unacknowledged publishes before dropping the connection, in milliseconds. */
const STOP_GRACE_MS = 2000;

/** What the session tells the rest of the agent (agent.ts wires them). */
export type TSessionHooks = {
  /** A message on the cmd topic; the session PUBACKs it once the returned promise settles. */
  onMessage: (payload: string) => Promise<void>;
  /** After a message was handled and its PUBACK sent. */
  onHandled: () => void;
  /** CONNACK of a resumed session (reachable now) or SUBACK of a new one. */
  onReachable: (isSessionPresent: boolean) => void;
  /** The broker acknowledged this connection's hello: the phone has checked in. */
  onHello: () => void;
  /** A connection (or attempt) closed; `hadSaidHello`: it had checked in; `wasConnected`: past CONNACK. */
  onClose: (closed: { hadSaidHello: boolean; wasConnected: boolean }) => void;
  /** A reconnect attempt started. */
  onReconnecting: (attempt: number) => void;
  /** The broker refused the credentials (CONNACK 4 or 5): no more attempts. */
  onRefused: (error: Error) => void;
};

/**
 * The phone's MQTT session (device protocol §2, §4, §6): connects with a persistent session and a
 * last will per connection, subscribes to its cmd topic, says hello, waits for the sync answering
 * it (hello again every SYNC_WAIT_MS without one), reconnects until stopped or refused. Its state
 * is `core.connection`, one TConnection at a time.
 */
export class AgentSession {
  /** The seq of the latest hello: only the sync answering it is taken. */
  helloSeq = 0;
  /** The wait before the next hello again on this connection, ms (options.syncWaitMs, doubling). */
  #syncWaitMs: number;

  constructor(
    private readonly core: AgentCore,
    private readonly hooks: TSessionHooks,
    private readonly options: {
      /** The phone's FCM token, sent with every hello (device protocol §14). */
      pushToken: string | undefined;
      /** The first wait for a sync, ms (SYNC_WAIT_MS; tests shorten it). */
      syncWaitMs: number;
    },
  ) {
    this.#syncWaitMs = options.syncWaitMs;
  }

  /** Opens the connection (attempts go on every RECONNECT_PERIOD_MS until stop or refusal). */
  start(): void {
    const { credentials } = this.core.state;
    this.core.connectionId = randomUUID();
    const client = connect(credentials.mqttUrl, {
      // The broker publishes it when this connection ends without DISCONNECT (protocol §4).
      will: this.#willFor(this.core.connectionId),
      protocolVersion: 4,
      clientId: credentials.deviceId,
      username: credentials.deviceId,
      password: credentials.deviceSecret,
      clean: false,
      keepalive: KEEPALIVE_SECONDS,
      reconnectPeriod: RECONNECT_PERIOD_MS,
      // Retry after CONNACK 1–3 (e.g. server unavailable); 4 and 5 stop the agent (see 'error').
      reconnectOnConnackError: true,
      // We subscribe ourselves on every connect, before saying hello.
      resubscribe: false,
    });
    this.core.connection = { kind: 'connecting', client, attempt: 0 };
    const isCurrent = () => this.core.client === client;

    // 'packetreceive' sees the CONNACK before any message queued in the session is handled (MQTT.js's
    // own 'connect' can come after them). A resumed session already holds the subscription, so the
    // device is reachable from here on, before the messages the session brings; they are held
    // until the sync. A new session is reachable only once subscribed (#onConnect).
    client.on('packetreceive', (packet) => {
      if (packet.cmd !== 'connack' || (packet.returnCode ?? 0) !== 0 || !isCurrent()) return;
      this.core.connection = { kind: 'connected', client, held: [] };
      if (packet.sessionPresent) this.hooks.onReachable(true);
    });
    client.on('connect', (connack) => {
      void this.#onConnect(client, connack.sessionPresent);
    });
    // MQTT.js sends the PUBACK for a QoS 1 message when handleMessage calls back. Calling back
    // only after the message is handled (and saved) means a crash half-way leaves the message in
    // the broker's session, to be delivered again. Never await our own publishes in here: their
    // PUBACKs are queued behind this callback.
    client.handleMessage = (packet, callback) => {
      if (packet.topic !== credentials.cmdTopic) return callback();
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload.toString('utf8') : packet.payload;
      void this.hooks
        .onMessage(payload)
        .catch((error: Error) => this.core.warn(error))
        .then(() => {
          callback();
          this.hooks.onHandled();
        });
    };
    client.on('close', () => {
      if (!isCurrent()) return;
      const { connection } = this.core;
      const closed = { hadSaidHello: this.core.hasSaidHello, wasConnected: this.core.isConnected };
      if (connection.kind === 'awaiting_sync') clearTimeout(connection.timer);
      if (connection.kind !== 'refused') {
        const attempt = connection.kind === 'connecting' ? connection.attempt : 0;
        this.core.connection = { kind: 'connecting', client, attempt };
      }
      this.hooks.onClose(closed);
    });
    client.on('reconnect', () => {
      if (!isCurrent()) return;
      // A new connection, a new id: MQTT.js builds each CONNECT from client.options.
      this.core.connectionId = randomUUID();
      client.options.will = this.#willFor(this.core.connectionId);
      const { connection } = this.core;
      const attempt = (connection.kind === 'connecting' ? connection.attempt : 0) + 1;
      this.core.connection = { kind: 'connecting', client, attempt };
      this.hooks.onReconnecting(attempt);
    });
    client.on('error', (error) => {
      const returnCode = (error as Error & { code?: unknown }).code;
      if (returnCode === 4 || returnCode === 5) {
        // Bad credentials or not authorised (e.g. the device was released or removed): retrying
        // cannot help. end() here, before MQTT.js schedules the retry, stops reconnecting.
        const refused = new Error(`broker refused device ${credentials.deviceId}: ${error.message}`);
        this.core.connection = { kind: 'refused', error: refused };
        client.end(true);
        this.hooks.onRefused(refused);
        return;
      }
      this.core.warn(error);
    });
  }

  /** Subscribes and says hello on every connect. */
  async #onConnect(client: MqttClient, isSessionPresent: boolean): Promise<void> {
    const { cmdTopic } = this.core.state.credentials;
    try {
      const granted = await client.subscribeAsync(cmdTopic, { qos: 1 });
      if (granted[0]?.qos === 128) throw new Error(`broker refused the subscription to ${cmdTopic}`);
      if (!isSessionPresent && this.core.client === client) this.hooks.onReachable(false);
      await this.core.publishEvent(this.helloEvent(), client);
    } catch (error) {
      // The connection dropped (or was refused) half-way; the next connect says hello again.
      if (this.core.client === client) this.core.warn(error as Error);
      return;
    }
    const { connection } = this.core;
    if (connection.kind === 'connected' && connection.client === client) {
      // The broker has the hello: wait for its sync, holding what the session brought meanwhile.
      this.core.connection = { kind: 'awaiting_sync', client, held: connection.held };
      this.#syncWaitMs = this.options.syncWaitMs;
      this.#armSyncTimer();
    } else if (connection.kind !== 'synced' || connection.client !== client) {
      return;
    }
    // (`synced` already: the sync came in the same read as the hello's acknowledgement, and was
    // handled first; the phone still checks in.)
    this.hooks.onHello();
  }

  /**
   * Goes back to waiting for a sync on this connection (a command issued under a policy this
   * phone has not got): holds `held` and what comes next, and says hello again.
   */
  resync(held: TServerMessage[]): void {
    const { connection } = this.core;
    if (connection.kind === 'synced') {
      this.core.connection = { kind: 'awaiting_sync', client: connection.client, held: [...held] };
      this.#syncWaitMs = this.options.syncWaitMs;
    } else if (connection.kind === 'awaiting_sync' || connection.kind === 'connected') {
      connection.held.push(...held);
    }
    this.#sayHelloAgain();
  }

  /** The sync came: applies from now on. Returns what was held before it, in arrival order. */
  takeHeld(): TServerMessage[] {
    const { connection } = this.core;
    if (connection.kind !== 'awaiting_sync' && connection.kind !== 'connected') return [];
    if (connection.kind === 'awaiting_sync') clearTimeout(connection.timer);
    this.core.connection = { kind: 'synced', client: connection.client };
    return connection.held;
  }

  /** (Re)arms the wait for the sync: hello again after the current wait without one. */
  #armSyncTimer(): void {
    const { connection } = this.core;
    if (connection.kind !== 'awaiting_sync') return;
    clearTimeout(connection.timer);
    connection.timer = setTimeout(() => {
      // Unanswered: the next wait is twice as long.
      this.#syncWaitMs = Math.min(this.#syncWaitMs * 2, SYNC_WAIT_MAX_MS);
      this.#sayHelloAgain();
    }, this.#syncWaitMs);
    connection.timer.unref();
  }

  /** Asks for a sync on the current connection: a fresh hello, and the wait for its sync. */
  #sayHelloAgain(): void {
    const { connection } = this.core;
    if (connection.kind !== 'awaiting_sync') return;
    this.#armSyncTimer();
    void this.core
      .publishEvent(this.helloEvent(), connection.client)
      .catch((error: Error) => this.core.warn(error));
  }

  /** The hello of the current connection, with the state now (and a new seq). */
  helloEvent(): THelloEvent {
    this.helloSeq = this.core.nextSeq();
    return {
      v: PROTOCOL_VERSION,
      type: 'hello',
      state: this.core.reportedState,
      at: new Date().toISOString(),
      seq: this.helloSeq,
      connectionId: this.core.connectionId,
      ...(this.options.pushToken ? { pushToken: this.options.pushToken } : {}),
    };
  }

  /**
   * Waits briefly (up to 2 s) for unacknowledged publishes, says `gone`, and disconnects. The
   * broker keeps the persistent session. Resolves once closed; `wasConnected` says whether the
   * connection was up.
   */
  async stop(): Promise<{ wasConnected: boolean }> {
    const client = this.core.client;
    const wasConnected = this.core.isConnected;
    if (!client) return { wasConnected: false };
    // Let the broker acknowledge what we published (acks, hello). MQTT.js's own wait in end() has
    // no time limit and never ends if the connection drops meanwhile, so poll with a deadline.
    const hasOutgoing = () => Object.keys(client.outgoing).length > 0;
    const deadline = Date.now() + STOP_GRACE_MS;
    while (client.connected && hasOutgoing() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // A clean DISCONNECT discards the will, so say `gone` ourselves first (best effort).
    if (client.connected && !hasOutgoing()) {
      const gone: TGoneEvent = {
        v: PROTOCOL_VERSION,
        type: 'gone',
        connectionId: this.core.connectionId,
        at: new Date().toISOString(),
      };
      await Promise.race([
        this.core.publishEvent(gone, client).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS)),
      ]);
    }
    const { connection } = this.core;
    if (connection.kind === 'awaiting_sync') clearTimeout(connection.timer);
    // Graceful: DISCONNECT then close. Forced: close the socket; unacked acks are re-sent by the
    // server's re-send after the next hello, and answered again.
    await client.endAsync(!client.connected || hasOutgoing());
    return { wasConnected };
  }

  /** The MQTT last will of connection `connectionId`: a `gone` event on the device's evt topic. */
  #willFor(connectionId: string) {
    const gone: TGoneEvent = {
      v: PROTOCOL_VERSION,
      type: 'gone',
      connectionId,
      at: new Date().toISOString(),
    };
    return {
      topic: this.core.state.credentials.evtTopic,
      payload: Buffer.from(JSON.stringify(gone)),
      qos: 1 as const,
      retain: false,
    };
  }
}
