import { EventEmitter } from 'node:events';
import { access } from 'node:fs/promises';
import { type TFieldError, ZFailure, zEnvelope } from '@kisht/domain/common/envelope';
import { ZEnrolDeviceRequest, ZEnrolDeviceResponse } from '@kisht/domain/devices/devices.schema';
import {
  PROTOCOL_VERSION,
  type TAckEvent,
  type TCommandMessage,
  type TDeviceEvent,
  type THelloEvent,
  type TLocationFix,
  type TReportEvent,
  type TReportedState,
  type TSimSlot,
  ZCommandMessage,
  ZLocationFix,
  ZSimSlot,
} from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { connect, type MqttClient } from 'mqtt';
import { z } from 'zod';
import packageJson from '../package.json' with { type: 'json' };
import { applyCommand, locationFixOf, normaliseSims, queryResultOf, reportedStateOf } from './commands';
import { readQrPayload } from './qr';
import {
  createAgentState,
  readStateFile,
  rememberCommandId,
  resolveStatePath,
  type TAgentStateFile,
  type TDeviceCredentials,
  writeStateFile,
  ZPosition,
} from './state';

/** Reported as `state.agentVersion` in every hello, ack and report. */
export const AGENT_VERSION: string = packageJson.version;

/** Delay between reconnect attempts, in milliseconds. */
export const RECONNECT_PERIOD_MS = 1000;
/** MQTT keepalive, in seconds. */
export const KEEPALIVE_SECONDS = 30;
/** How often the agent reports its position while the `tracking` toggle is on: 15 minutes, in milliseconds. */
export const DEFAULT_TRACKING_INTERVAL_MS = 15 * 60_000;
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
  /**
   * What a done command produced (the ack's `result`): location → TLocationFix, sim_info → { sims },
   * uninstall → { location: TLocationFix }.
   */
  output?: Record<string, unknown>;
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
  /** The reported state (lock, controls, SIMs) changed, after it was saved to the state file. */
  state: [TReportedState];
  /** A report event (SIM change, location) reached the broker. */
  report: [TReportEvent];
  /** An uninstall command was applied and acked: the agent has stopped and will not start again. */
  uninstalled: [];
  /** A command message was handled (see TCommandOutcome). */
  command: [TCommandOutcome];
  /** A message on the command topic was not a valid command message; it was ignored. */
  invalidMessage: [{ reason: string; payload: string }];
  /** The broker refused the credentials (MQTT CONNACK 4 or 5). The agent stops reconnecting. */
  refused: [Error];
  /** A problem the agent carries on after: transport errors, a failed publish, a failed save. */
  warning: [Error];
};

/** Options of the simulated phone, for DeviceAgent.enrol and DeviceAgent.load. */
export type TAgentOptions = {
  /**
   * Milliseconds between location reports while the `tracking` toggle is on (default
   * DEFAULT_TRACKING_INTERVAL_MS, 15 minutes). Tests shorten it.
   */
  trackingIntervalMs?: number;
};

/** Options of DeviceAgent.enrol. */
export type TEnrolOptions = TAgentOptions & {
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

/** Thrown by DeviceAgent.start when an uninstall command removed the agent from this device. */
export class DeviceUninstalledError extends Error {
  constructor(readonly deviceId: string) {
    super(`device ${deviceId} was uninstalled by an uninstall command; enrol again to use it`);
    this.name = 'DeviceUninstalledError';
  }
}

const ZSimSlots = z.array(ZSimSlot).max(4);
/** A new position: WGS 84 degrees; accuracy in metres, unchanged when left out. */
export type TPositionInput = { latitude: number; longitude: number; accuracyM?: number };

/**
 * A simulated financed Android phone (the reference device of design §5 and
 * docs/device-protocol.md). It enrols from the enrolment QR, holds a persistent MQTT session,
 * applies every command of COMMAND_CATALOGUE at most once per id, saves its state before
 * acknowledging, and says hello on every (re)connect so the server re-sends what is pending. It
 * also reports SIM changes (setSims) and its position (reportLocation, and periodically while the
 * `tracking` toggle is on).
 *
 * Create one with DeviceAgent.enrol or DeviceAgent.load, then start() and later stop().
 */
export class DeviceAgent extends EventEmitter<TDeviceAgentEvents> {
  /** Absolute path of the state file this agent reads and writes. */
  readonly statePath: string;
  /** Milliseconds between location reports while tracking is on. */
  readonly trackingIntervalMs: number;
  #state: TAgentStateFile;
  #client: MqttClient | undefined;
  #isConnected = false;
  /** True once this connection's hello reached the broker: reports may follow. */
  #hasSaidHello = false;
  #reconnectAttempt = 0;
  #pendingStart: { resolve: () => void; reject: (error: Error) => void } | undefined;
  #stopping: Promise<void> | undefined;
  #isUninstalling = false;
  #trackingTimer: NodeJS.Timeout | undefined;
  /** State changes (commands, setSims, setPosition) run one at a time, in arrival order. */
  #queue: Promise<void> = Promise.resolve();

  private constructor(statePath: string, state: TAgentStateFile, options: TAgentOptions = {}) {
    super();
    this.statePath = statePath;
    this.#state = state;
    const interval = options.trackingIntervalMs ?? DEFAULT_TRACKING_INTERVAL_MS;
    if (!Number.isFinite(interval) || interval <= 0) {
      throw new Error(`trackingIntervalMs must be a positive number of milliseconds, not ${interval}`);
    }
    this.trackingIntervalMs = interval;
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
    return new DeviceAgent(statePath, state, options);
  }

  /**
   * Loads an enrolled device from its state file (default DEFAULT_STATE_PATH), not yet started. A
   * version-1 file is migrated (see readStateFile). Throws StateFileMissingError when there is no
   * file, an Error when it is not a state file.
   */
  static async load(options: TAgentOptions & { statePath?: string } = {}): Promise<DeviceAgent> {
    const statePath = resolveStatePath(options.statePath);
    return new DeviceAgent(statePath, await readStateFile(statePath), options);
  }

  /**
   * A copy of the whole state: credentials, lock state, controls, SIMs, position, wallpaper, lost
   * mode, app lists, last EMI alert, boot count, uninstalled flag and applied command ids.
   */
  get state(): TAgentStateFile {
    return structuredClone(this.#state);
  }

  /** What the device reports in hello, ack and report events (see reportedStateOf). */
  get reportedState(): TReportedState {
    return reportedStateOf(this.#state, AGENT_VERSION);
  }

  get deviceId(): string {
    return this.#state.credentials.deviceId;
  }

  get isLocked(): boolean {
    return this.#state.isLocked;
  }

  /** True once an uninstall command was applied: start() refuses from then on. */
  get isUninstalled(): boolean {
    return this.#state.uninstalled;
  }

  /** True while the MQTT connection is up (connack received). */
  get isConnected(): boolean {
    return this.#isConnected;
  }

  /**
   * Connects to the broker in the credentials (mqtt://, mqtts://, ws:// or wss://) with
   * clientId = username = deviceId, password = deviceSecret, MQTT 3.1.1, clean session off, and
   * keeps reconnecting every RECONNECT_PERIOD_MS until stop(). On every connect it subscribes to
   * the command topic (QoS 1), publishes hello, then a pending SIM report if any. While the
   * `tracking` toggle is on it reports its position every trackingIntervalMs.
   *
   * Resolves once the first connection is up and its hello was acknowledged by the broker. Rejects
   * if the broker refuses the credentials, or if stop() is called first; with
   * DeviceUninstalledError after an uninstall command. Throws if already started.
   */
  start(): Promise<void> {
    if (this.#client) return Promise.reject(new Error('agent already started'));
    if (this.#state.uninstalled) return Promise.reject(new DeviceUninstalledError(this.deviceId));
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
    this.#hasSaidHello = false;
    this.#syncTracking();

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
      const handled = this.#enqueue(() => this.#handleCommand(payload)).catch((error: Error) => {
        this.emit('warning', error);
      });
      void handled.then(() => {
        callback();
        if (this.#state.uninstalled) this.#uninstall();
      });
    };
    client.on('close', () => {
      this.#hasSaidHello = false;
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
        this.#stopTracking();
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
    this.#stopTracking();
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
    this.#hasSaidHello = false;
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
    return this.waitForState((state) => state.isLocked === isLocked, {
      ...options,
      what: isLocked ? 'locked' : 'unlocked',
    });
  }

  /**
   * Resolves when `matches` holds for the reported state, now or after a later change. Rejects
   * after `timeoutMs` (default 10 000 ms) with an error saying the device did not become `what`.
   */
  waitForState(
    matches: (state: TReportedState) => boolean,
    options: { timeoutMs?: number; what?: string } = {},
  ): Promise<void> {
    if (matches(this.reportedState)) return Promise.resolve();
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise<void>((resolve, reject) => {
      const onState = (state: TReportedState) => {
        if (!matches(state)) return;
        clearTimeout(timer);
        this.off('state', onState);
        resolve();
      };
      const timer = setTimeout(() => {
        this.off('state', onState);
        reject(new Error(`device did not become ${options.what ?? 'as expected'} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.on('state', onState);
    });
  }

  /**
   * Replaces the SIM slots (1–4 slots, each ZSimSlot: 1-based slot, ICCID of 18–22 digits or null
   * for an empty slot, operator or null), saves them, and publishes a 'report' event of kind 'sim'
   * with data { sims }. When the device is not connected (or has not said hello yet) the report is
   * kept pending in the state file and published after the next hello, also across restarts.
   *
   * Resolves true when the report reached the broker now, false when it waits for the next hello.
   * Throws when a slot is invalid or given twice, or the state cannot be saved.
   */
  async setSims(slots: readonly TSimSlot[]): Promise<boolean> {
    const parsed = ZSimSlots.safeParse(slots);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => {
        const [index, ...field] = issue.path;
        const slot =
          typeof index === 'number' ? (slots[index] as { slot?: unknown } | undefined)?.slot : undefined;
        return `${slot === undefined ? '' : `slot ${String(slot)} `}${field.join('.') || '(slots)'}: ${issue.message}`;
      });
      throw new Error(`invalid SIM slots: ${issues.join('; ')}`);
    }
    const sims = normaliseSims(parsed.data);
    await this.#enqueue(() => this.#commit({ ...this.#state, sims, isSimReportPending: true }));
    return this.#hasSaidHello ? this.#flushSimReport() : false;
  }

  /**
   * Moves the simulated phone (WGS 84 degrees; accuracy in metres, unchanged when left out) and
   * saves it. The next location result or report uses it. Throws for coordinates out of range.
   */
  async setPosition(position: TPositionInput): Promise<void> {
    const parsed = ZPosition.safeParse({ accuracyM: this.#state.position.accuracyM, ...position });
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      throw new Error(`invalid position: ${issues.join('; ')}`);
    }
    await this.#enqueue(() => this.#commit({ ...this.#state, position: parsed.data }));
  }

  /**
   * Publishes a 'report' event of kind 'location' with `fix` (a ZLocationFix; default: a fix of the
   * simulated position taken now) and resolves with it once the broker has it. Rejects when the
   * device is not connected (a location is not worth sending late) or the fix is invalid.
   */
  async reportLocation(fix?: TLocationFix): Promise<TLocationFix> {
    const data = fix ? ZLocationFix.parse(fix) : locationFixOf(this.#state.position);
    if (!this.#hasSaidHello) throw new Error('cannot report a location: not connected');
    await this.#publishReport('location', data);
    return data;
  }

  /** Subscribes and says hello on every connect; settles start() after the first. */
  async #onConnect(client: MqttClient, isSessionPresent: boolean): Promise<void> {
    const { cmdTopic, mqttUrl } = this.#state.credentials;
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
      await this.#publishEvent(hello, client);
    } catch (error) {
      // The connection dropped (or was refused) half-way; the next connect says hello again.
      if (client === this.#client) this.emit('warning', error as Error);
      return;
    }
    if (client !== this.#client) return;
    this.#hasSaidHello = true;
    this.emit('hello', this.reportedState);
    this.#pendingStart?.resolve();
    this.#pendingStart = undefined;
    if (this.#state.isSimReportPending) void this.#flushSimReport();
  }

  /** Handles one message from the command topic (apply-once by id, save before acking done). */
  async #handleCommand(payload: string): Promise<void> {
    // An uninstalled agent is gone: it neither applies nor answers what is still in its session.
    if (this.#state.uninstalled) return;
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
      // Nothing is applied again; a query (location, sim_info) answers from the current state, so a
      // server whose first done ack was lost still gets a result.
      const output = queryResultOf(command.name, this.#state);
      this.#publishAck(command.id, 'done', { result: output });
      this.emit('command', {
        id: command.id,
        name: command.name,
        result: 'duplicate',
        ...(output ? { output } : {}),
        state: this.reportedState,
      });
      return;
    }

    this.#publishAck(command.id, 'received');
    const applied = applyCommand(this.#state, command);
    if ('error' in applied) {
      // Not remembered as applied: a redelivery fails the same way and changes nothing.
      this.#fail(command, applied.error);
      return;
    }

    const wasTracking = this.#state.controls.tracking === true;
    let hasChanged: boolean;
    try {
      hasChanged = await this.#commit(
        { ...applied.state, appliedCommandIds: rememberCommandId(this.#state.appliedCommandIds, command.id) },
        true,
      );
    } catch (error) {
      this.emit('warning', error as Error);
      this.#fail(command, `could not save state: ${(error as Error).message}`);
      return;
    }
    this.#publishAck(command.id, 'done', { result: applied.result });
    this.emit('command', {
      id: command.id,
      name: command.name,
      result: 'done',
      ...(applied.result ? { output: applied.result } : {}),
      state: this.reportedState,
    });
    if (hasChanged) this.emit('state', this.reportedState);
    const isTracking = this.#state.controls.tracking === true;
    if (isTracking !== wasTracking) {
      this.#syncTracking();
      // Tracking just turned on: the first position now, the next ones every interval.
      if (isTracking) this.#reportPositionInBackground();
    }
  }

  #fail(command: TCommandMessage, error: string): void {
    this.#publishAck(command.id, 'failed', { error });
    this.emit('command', {
      id: command.id,
      name: command.name,
      result: 'failed',
      error,
      state: this.reportedState,
    });
  }

  /** Runs `task` after every state change queued before it; the queue carries on if it fails. */
  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Saves `next` and makes it the state. Says 'state' when the reported state changed, unless
   * `isQuiet` (the caller says it later); returns whether it changed.
   */
  async #commit(next: TAgentStateFile, isQuiet = false): Promise<boolean> {
    const before = JSON.stringify(this.reportedState);
    await writeStateFile(this.statePath, next);
    this.#state = next;
    const hasChanged = JSON.stringify(this.reportedState) !== before;
    if (hasChanged && !isQuiet) this.emit('state', this.reportedState);
    return hasChanged;
  }

  /** Publishes the pending SIM report; clears the pending flag once the broker has it. */
  async #flushSimReport(): Promise<boolean> {
    const sims = this.#state.sims;
    try {
      await this.#publishReport('sim', { sims });
    } catch (error) {
      // Still pending: the next hello tries again.
      this.emit('warning', error as Error);
      return false;
    }
    await this.#enqueue(async () => {
      // A newer change that came meanwhile stays pending (and is reported by its own setSims).
      if (this.#state.sims === sims && this.#state.isSimReportPending) {
        await this.#commit({ ...this.#state, isSimReportPending: false });
      }
    });
    return true;
  }

  /** Starts or stops the tracking timer to match the `tracking` toggle (only while started). */
  #syncTracking(): void {
    const shouldTrack = this.#client !== undefined && this.#state.controls.tracking === true;
    if (!shouldTrack) {
      this.#stopTracking();
      return;
    }
    if (this.#trackingTimer) return;
    this.#trackingTimer = setInterval(() => this.#reportPositionInBackground(), this.trackingIntervalMs);
    this.#trackingTimer.unref();
  }

  #stopTracking(): void {
    clearInterval(this.#trackingTimer);
    this.#trackingTimer = undefined;
  }

  /** A location report of the current position if connected; skipped (not queued) otherwise. */
  #reportPositionInBackground(): void {
    if (!this.#hasSaidHello) return;
    this.#publishReport('location', locationFixOf(this.#state.position)).catch((error: Error) =>
      this.emit('warning', error),
    );
  }

  async #publishReport(kind: TReportEvent['kind'], data: Record<string, unknown>): Promise<void> {
    const report: TReportEvent = {
      v: PROTOCOL_VERSION,
      type: 'report',
      kind,
      data,
      state: this.reportedState,
      at: new Date().toISOString(),
    };
    await this.#publishEvent(report);
    this.emit('report', report);
  }

  /** Stops for good after an uninstall command was acked; says 'uninstalled' once stopped. */
  #uninstall(): void {
    if (this.#isUninstalling) return;
    this.#isUninstalling = true;
    this.stop()
      .catch((error: Error) => this.emit('warning', error))
      .finally(() => this.emit('uninstalled'));
  }

  /** Publishes an event (QoS 1); resolves on the broker's PUBACK. Rejects when not started. */
  #publishEvent(event: TDeviceEvent, client: MqttClient | undefined = this.#client): Promise<void> {
    if (!client) return Promise.reject(new Error('agent not started'));
    return client
      .publishAsync(this.#state.credentials.evtTopic, JSON.stringify(event), { qos: 1 })
      .then(() => undefined);
  }

  /**
   * Publishes an ack (QoS 1) without waiting for the broker: MQTT.js queues it while disconnected,
   * and if it is lost anyway the server re-sends the command after the next hello and gets the ack
   * again.
   */
  #publishAck(
    commandId: string,
    status: TAckEvent['status'],
    extra: { error?: string; result?: Record<string, unknown> } = {},
  ): void {
    const client = this.#client;
    if (!client) return;
    const ack: TAckEvent = {
      v: PROTOCOL_VERSION,
      type: 'ack',
      commandId,
      status,
      ...(extra.error ? { error: extra.error } : {}),
      ...(extra.result ? { result: extra.result } : {}),
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
