import { EventEmitter } from 'node:events';
import { access } from 'node:fs/promises';
import { type TFieldError, ZFailure, zEnvelope } from '@kisht/domain/common/envelope';
import { ZEnrolDeviceRequest, ZEnrolDeviceResponse } from '@kisht/domain/devices/devices.schema';
import {
  PROTOCOL_VERSION,
  type TAckEvent,
  type TCommandMessage,
  type THelloEvent,
  type TReportedState,
  ZCommandMessage,
} from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { connect, type MqttClient } from 'mqtt';
import packageJson from '../package.json' with { type: 'json' };
import { readQrPayload } from './qr';
import {
  createAgentState,
  readStateFile,
  rememberCommandId,
  resolveStatePath,
  type TAgentStateFile,
  type TDeviceCredentials,
  writeStateFile,
} from './state';

/** Reported as `state.agentVersion` in every hello and ack. */
export const AGENT_VERSION: string = packageJson.version;

/** Delay between reconnect attempts, in milliseconds. */
export const RECONNECT_PERIOD_MS = 1000;
/** MQTT keepalive, in seconds. */
export const KEEPALIVE_SECONDS = 30;
/** How long stop() waits for unacknowledged publishes before dropping the connection, in milliseconds. */
const STOP_GRACE_MS = 2000;

/** What happened to one command message. */
export type TCommandOutcome = {
  id: string;
  /** The command name as received (unknown names are answered with a failed ack). */
  name: string;
  /**
   * `done`: applied now and acked done. `failed`: not applied, acked failed with `error`.
   * `duplicate`: this id was applied before; nothing changed and done was acked again.
   */
  result: 'done' | 'failed' | 'duplicate';
  error?: string;
  /** The device state after handling the command. */
  state: TReportedState;
};

/** Events of a DeviceAgent (a typed node:events EventEmitter). */
export type TDeviceAgentEvents = {
  /**
   * Connected (first time or again) and subscribed: a command published from now on reaches the
   * device. With a resumed session this is at CONNACK, before the commands queued in the session;
   * with a new one, after SUBACK. Hello follows.
   */
  connected: [{ mqttUrl: string; isSessionPresent: boolean }];
  /** Subscribed to the command topic and the broker acknowledged hello (with this state). */
  hello: [TReportedState];
  /** The connection to the broker closed (including on stop()). */
  disconnected: [];
  /** A reconnect attempt started; `attempt` counts from 1 since the last successful connect. */
  reconnecting: [{ attempt: number }];
  /** The simulated state changed (after it was saved to the state file). */
  state: [TReportedState];
  /** A command message was handled (see TCommandOutcome). */
  command: [TCommandOutcome];
  /** A message on the command topic was not a valid command message; it was ignored. */
  invalidMessage: [{ reason: string; payload: string }];
  /** The broker refused the credentials (MQTT CONNACK 4 or 5). The agent stops reconnecting. */
  refused: [Error];
  /** A problem the agent carries on after: transport errors, a failed publish, a failed save. */
  warning: [Error];
};

/** Options of DeviceAgent.enrol. */
export type TEnrolOptions = {
  /** The enrolment QR: the provisioning JSON text, or a path to a PNG of the QR (see readQrPayload). */
  qr: string;
  /** 15-digit IMEIs with a valid Luhn check digit; the server checks them against the customer. */
  imei1: string;
  imei2: string;
  /** State file to create; defaults to DEFAULT_STATE_PATH under the working directory. */
  statePath?: string;
  /** Replaces an existing state file (the device forgets its old enrolment). Default false. */
  canOverwrite?: boolean;
  /** fetch to call the server with; defaults to the global fetch. */
  fetch?: typeof fetch;
};

/** Thrown by DeviceAgent.enrol when the server cannot be reached or refuses the enrolment. */
export class EnrolmentError extends Error {
  constructor(
    message: string,
    /** The server's stable error code (e.g. ENROLMENT_TOKEN_INVALID), or NETWORK / BAD_RESPONSE. */
    readonly code: string,
    /** HTTP status, when the server answered. */
    readonly status?: number,
    /** Failing fields, for validation errors. */
    readonly fields?: TFieldError[],
  ) {
    super(message);
    this.name = 'EnrolmentError';
  }
}

const ZEnrolEnvelope = zEnvelope(ZEnrolDeviceResponse);

/**
 * Applies a command to the simulated device in lock state `isLocked`; returns the new lock state, or
 * why it cannot. emi_alert shows the reminder (the simulator has no screen) and changes nothing.
 */
const applyCommand = (
  command: TCommandMessage,
  isLocked: boolean,
): { isLocked: boolean } | { error: string } => {
  switch (command.name) {
    case 'lock':
      return { isLocked: true };
    case 'unlock':
      return { isLocked: false };
    case 'emi_alert':
      return { isLocked };
    default:
      return { error: 'unsupported command' };
  }
};

/**
 * A simulated financed Android phone (the reference device of design §5 and
 * docs/device-protocol.md). It enrols from the enrolment QR, holds a persistent MQTT session,
 * applies lock/unlock commands at most once per id, saves its state before acknowledging, and says
 * hello on every (re)connect so the server re-sends what is pending.
 *
 * Create one with DeviceAgent.enrol or DeviceAgent.load, then start() and later stop().
 */
export class DeviceAgent extends EventEmitter<TDeviceAgentEvents> {
  /** Absolute path of the state file this agent reads and writes. */
  readonly statePath: string;
  #state: TAgentStateFile;
  #client: MqttClient | undefined;
  #isConnected = false;
  #reconnectAttempt = 0;
  #pendingStart: { resolve: () => void; reject: (error: Error) => void } | undefined;
  #stopping: Promise<void> | undefined;
  /** Command messages are handled one at a time, in arrival order. */
  #queue: Promise<void> = Promise.resolve();

  private constructor(statePath: string, state: TAgentStateFile) {
    super();
    this.statePath = statePath;
    this.#state = state;
  }

  /**
   * Enrols a new device: reads the QR, POSTs `{ token, imei1, imei2 }` to
   * `${serverUrl}${paths.devices.enrol}`, saves the credentials to the state file (unlocked, no
   * commands applied) and returns the agent, not yet started.
   *
   * Throws QrPayloadError for an unreadable QR; an Error when an IMEI is invalid or the state file
   * already exists (unless canOverwrite); EnrolmentError (with the server's message, code, HTTP
   * status and fields) when the server refuses, cannot be reached, or answers something unexpected.
   */
  static async enrol(options: TEnrolOptions): Promise<DeviceAgent> {
    const statePath = resolveStatePath(options.statePath);
    if (!options.canOverwrite && (await fileExists(statePath))) {
      throw new Error(
        `already enrolled: state file ${statePath} exists (start it with "kisht-agent run", or enrol again with --force)`,
      );
    }

    const qr = await readQrPayload(options.qr);
    const request = ZEnrolDeviceRequest.safeParse({
      token: qr.enrolmentToken,
      imei1: options.imei1,
      imei2: options.imei2,
    });
    if (!request.success) {
      const issues = request.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      throw new Error(`cannot enrol: ${issues.join('; ')}`);
    }

    const url = `${qr.serverUrl}${paths.devices.enrol}`;
    const fetchFn = options.fetch ?? fetch;
    let response: Response;
    try {
      response = await fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(request.data),
      });
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new EnrolmentError(`cannot reach ${url}: ${cause}`, 'NETWORK');
    }

    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new EnrolmentError(
        `unexpected answer from ${url}: HTTP ${response.status}, not JSON`,
        'BAD_RESPONSE',
        response.status,
      );
    }

    const failure = ZFailure.safeParse(body);
    if (failure.success || !response.ok) {
      const message = failure.success ? failure.data.message : `HTTP ${response.status}`;
      const code = failure.success ? failure.data.code : 'BAD_RESPONSE';
      throw new EnrolmentError(
        `enrolment refused: ${message} (${code}, HTTP ${response.status})`,
        code,
        response.status,
        failure.success ? failure.data.fields : undefined,
      );
    }

    const success = ZEnrolEnvelope.safeParse(body);
    if (!success.success) {
      throw new EnrolmentError(
        `unexpected answer from ${url}: not an enrolment response`,
        'BAD_RESPONSE',
        response.status,
      );
    }

    const credentials: TDeviceCredentials = {
      ...success.data.data,
      serverUrl: qr.serverUrl,
      imei1: request.data.imei1,
      imei2: request.data.imei2,
      enrolledAt: new Date().toISOString(),
    };
    const state = createAgentState(credentials);
    await writeStateFile(statePath, state);
    return new DeviceAgent(statePath, state);
  }

  /**
   * Loads an enrolled device from its state file (default DEFAULT_STATE_PATH), not yet started.
   * Throws StateFileMissingError when there is no file, an Error when it is not a state file.
   */
  static async load(options: { statePath?: string } = {}): Promise<DeviceAgent> {
    const statePath = resolveStatePath(options.statePath);
    return new DeviceAgent(statePath, await readStateFile(statePath));
  }

  /** A copy of the whole state: credentials, isLocked, applied command ids. */
  get state(): TAgentStateFile {
    return structuredClone(this.#state);
  }

  /** What the device reports in hello and ack events. */
  get reportedState(): TReportedState {
    return { isLocked: this.#state.isLocked, agentVersion: AGENT_VERSION };
  }

  get deviceId(): string {
    return this.#state.credentials.deviceId;
  }

  get isLocked(): boolean {
    return this.#state.isLocked;
  }

  /** True while the MQTT connection is up (connack received). */
  get isConnected(): boolean {
    return this.#isConnected;
  }

  /**
   * Connects to the broker in the credentials (mqtt://, mqtts://, ws:// or wss://) with
   * clientId = username = deviceId, password = deviceSecret, MQTT 3.1.1, clean session off, and
   * keeps reconnecting every RECONNECT_PERIOD_MS until stop(). On every connect it subscribes to
   * the command topic (QoS 1) and publishes hello.
   *
   * Resolves once the first connection is up and its hello was acknowledged by the broker. Rejects
   * if the broker refuses the credentials, or if stop() is called first. Throws if already started.
   */
  start(): Promise<void> {
    if (this.#client) return Promise.reject(new Error('agent already started'));
    const { credentials } = this.#state;
    const client = connect(credentials.mqttUrl, {
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
    this.#client = client;
    this.#reconnectAttempt = 0;

    // 'packetreceive' sees the CONNACK before any message queued in the session is handled (MQTT.js's
    // own 'connect' can come after them). A resumed session already holds the subscription, so the
    // device is reachable from here on: say 'connected' now, before the commands the session brings.
    // A new session is reachable only once subscribed: #onConnect says 'connected' after SUBACK.
    client.on('packetreceive', (packet) => {
      if (packet.cmd !== 'connack' || (packet.returnCode ?? 0) !== 0) return;
      this.#isConnected = true;
      this.#reconnectAttempt = 0;
      if (packet.sessionPresent)
        this.emit('connected', { mqttUrl: credentials.mqttUrl, isSessionPresent: true });
    });
    client.on('connect', (connack) => {
      void this.#onConnect(client, connack.sessionPresent);
    });
    // MQTT.js sends the PUBACK for a QoS 1 message when handleMessage calls back. Calling back
    // only after the command is handled (and saved) means a crash half-way leaves the message in
    // the broker's session, to be delivered again. Never await our own publishes in here: their
    // PUBACKs are queued behind this callback.
    client.handleMessage = (packet, callback) => {
      if (packet.topic !== credentials.cmdTopic) return callback();
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload.toString('utf8') : packet.payload;
      this.#queue = this.#queue
        .then(() => this.#handleCommand(payload))
        .catch((error: Error) => {
          this.emit('warning', error);
        });
      void this.#queue.then(() => callback());
    };
    client.on('close', () => {
      if (!this.#isConnected) return;
      this.#isConnected = false;
      this.emit('disconnected');
    });
    client.on('reconnect', () => {
      this.#reconnectAttempt += 1;
      this.emit('reconnecting', { attempt: this.#reconnectAttempt });
    });
    client.on('error', (error) => {
      const returnCode = (error as Error & { code?: unknown }).code;
      if (returnCode === 4 || returnCode === 5) {
        // Bad credentials or not authorised (e.g. the device was released or removed): retrying
        // cannot help. end() here, before MQTT.js schedules the retry, stops reconnecting.
        client.end(true);
        const refused = new Error(`broker refused device ${credentials.deviceId}: ${error.message}`);
        this.#pendingStart?.reject(refused);
        this.#pendingStart = undefined;
        this.emit('refused', refused);
        return;
      }
      this.emit('warning', error);
    });

    return new Promise<void>((resolve, reject) => {
      this.#pendingStart = { resolve, reject };
    });
  }

  /**
   * Finishes the command being handled, waits briefly (up to 2 s) for unacknowledged publishes, and
   * disconnects. The broker keeps the persistent session, so commands published while the agent is
   * stopped are delivered on the next start(). Safe to call twice or before start().
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop().finally(() => {
      this.#stopping = undefined;
    });
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this.#pendingStart?.reject(new Error('agent stopped before it connected'));
    this.#pendingStart = undefined;
    await this.#queue;
    // Let the broker acknowledge what we published (acks, hello). MQTT.js's own wait in end() has
    // no time limit and never ends if the connection drops meanwhile, so poll with a deadline.
    const hasOutgoing = () => Object.keys(client.outgoing).length > 0;
    const deadline = Date.now() + STOP_GRACE_MS;
    while (client.connected && hasOutgoing() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Graceful: DISCONNECT then close. Forced: close the socket; unacked acks are re-sent by the
    // server's re-send after the next hello, and answered again.
    await client.endAsync(!client.connected || hasOutgoing());
    this.#client = undefined;
    if (this.#isConnected) {
      this.#isConnected = false;
      this.emit('disconnected');
    }
  }

  /**
   * Resolves when the device is (or becomes) locked (`isLocked` true) or unlocked (false). Rejects
   * after `timeoutMs` (default 10 000 ms).
   */
  waitForLockState(isLocked: boolean, options: { timeoutMs?: number } = {}): Promise<void> {
    if (this.#state.isLocked === isLocked) return Promise.resolve();
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise<void>((resolve, reject) => {
      const onState = (state: TReportedState) => {
        if (state.isLocked !== isLocked) return;
        clearTimeout(timer);
        this.off('state', onState);
        resolve();
      };
      const timer = setTimeout(() => {
        this.off('state', onState);
        reject(new Error(`device did not become ${isLocked ? 'locked' : 'unlocked'} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.on('state', onState);
    });
  }

  /** Subscribes and says hello on every connect; settles start() after the first. */
  async #onConnect(client: MqttClient, isSessionPresent: boolean): Promise<void> {
    const { cmdTopic, evtTopic, mqttUrl } = this.#state.credentials;
    try {
      const granted = await client.subscribeAsync(cmdTopic, { qos: 1 });
      if (granted[0]?.qos === 128) throw new Error(`broker refused the subscription to ${cmdTopic}`);
      if (!isSessionPresent && client === this.#client) this.emit('connected', { mqttUrl, isSessionPresent });
      const hello: THelloEvent = {
        v: PROTOCOL_VERSION,
        type: 'hello',
        state: this.reportedState,
        at: new Date().toISOString(),
      };
      await client.publishAsync(evtTopic, JSON.stringify(hello), { qos: 1 });
    } catch (error) {
      // The connection dropped (or was refused) half-way; the next connect says hello again.
      if (client === this.#client) this.emit('warning', error as Error);
      return;
    }
    if (client !== this.#client) return;
    this.emit('hello', this.reportedState);
    this.#pendingStart?.resolve();
    this.#pendingStart = undefined;
  }

  /** Handles one message from the command topic (apply-once by id, save before acking done). */
  async #handleCommand(payload: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      this.emit('invalidMessage', { reason: 'not JSON', payload });
      return;
    }
    const parsed = ZCommandMessage.safeParse(json);
    if (!parsed.success) {
      const reason = parsed.error.issues
        .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
        .join('; ');
      this.emit('invalidMessage', { reason, payload });
      return;
    }
    const command = parsed.data;

    if (this.#state.appliedCommandIds.includes(command.id)) {
      this.#publishAck(command.id, 'done');
      this.emit('command', {
        id: command.id,
        name: command.name,
        result: 'duplicate',
        state: this.reportedState,
      });
      return;
    }

    this.#publishAck(command.id, 'received');
    const outcome = applyCommand(command, this.#state.isLocked);
    if ('error' in outcome) {
      // Not remembered as applied: a redelivery fails the same way and changes nothing.
      this.#fail(command, outcome.error);
      return;
    }

    const next: TAgentStateFile = {
      ...this.#state,
      isLocked: outcome.isLocked,
      appliedCommandIds: rememberCommandId(this.#state.appliedCommandIds, command.id),
    };
    try {
      await writeStateFile(this.statePath, next);
    } catch (error) {
      this.emit('warning', error as Error);
      this.#fail(command, `could not save state: ${(error as Error).message}`);
      return;
    }
    const hasChanged = next.isLocked !== this.#state.isLocked;
    this.#state = next;
    this.#publishAck(command.id, 'done');
    this.emit('command', { id: command.id, name: command.name, result: 'done', state: this.reportedState });
    if (hasChanged) this.emit('state', this.reportedState);
  }

  #fail(command: TCommandMessage, error: string): void {
    this.#publishAck(command.id, 'failed', error);
    this.emit('command', {
      id: command.id,
      name: command.name,
      result: 'failed',
      error,
      state: this.reportedState,
    });
  }

  /**
   * Publishes an ack (QoS 1) without waiting for the broker: MQTT.js queues it while disconnected,
   * and if it is lost anyway the server re-sends the command after the next hello and gets the ack
   * again.
   */
  #publishAck(commandId: string, status: TAckEvent['status'], error?: string): void {
    const client = this.#client;
    if (!client) return;
    const ack: TAckEvent = {
      v: PROTOCOL_VERSION,
      type: 'ack',
      commandId,
      status,
      ...(error ? { error } : {}),
      state: this.reportedState,
      at: new Date().toISOString(),
    };
    client.publish(this.#state.credentials.evtTopic, JSON.stringify(ack), { qos: 1 }, (publishError) => {
      if (publishError) this.emit('warning', publishError);
    });
  }
}

const fileExists = async (path: string): Promise<boolean> => {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
};
