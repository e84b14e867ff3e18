import { createHash, type KeyObject, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { access } from 'node:fs/promises';
import { type TFieldError, ZFailure, zEnvelope } from '@kisht/domain/common/envelope';
import { commandSpecByName } from '@kisht/domain/devices/command-catalogue';
import { devicePinProblem, unsealDevicePin } from '@kisht/domain/devices/device-pin';
import { isPolicyCommand, policyChanges } from '@kisht/domain/devices/device-policy';
import { ZEnrolDeviceRequest, ZEnrolDeviceResponse } from '@kisht/domain/devices/devices.schema';
import {
  OFFLINE_CODE_ACTIONS,
  OFFLINE_CODE_DIGITS,
  OFFLINE_CODE_MAX_WRONG_TRIES,
  offlineCodeKey,
  type TOfflineCodeAction,
  verifyOfflineCode,
} from '@kisht/domain/devices/offline-code';
import {
  INITIAL_POLICY,
  PROTOCOL_VERSION,
  type TAckEvent,
  type TCommandMessage,
  type TDeviceEvent,
  type TGoneEvent,
  type THelloEvent,
  type TLocationFix,
  type TPolicy,
  type TPolicyVersion,
  type TReportEvent,
  type TReportedState,
  type TServerMessage,
  type TSimSlot,
  type TSyncMessage,
  ZLocationFix,
  ZSimSlot,
} from '@kisht/domain/devices/protocol.schema';
import { openServerMessage, publicKeyOf } from '@kisht/domain/devices/server-message';
import { paths } from '@kisht/domain/paths';
import { connect, type MqttClient } from 'mqtt';
import { z } from 'zod';
import packageJson from '../package.json' with { type: 'json' };
import {
  applyCommand,
  locationFixOf,
  normaliseSims,
  queryResultOf,
  reportedStateOf,
  type TApplied,
  UNSUPPORTED_COMMAND,
} from './commands';
import { readQrPayload } from './qr';
import {
  createAgentState,
  newOfflineChallenge,
  OFFLINE_EVENTS_LIMIT,
  offlineReportData,
  readStateFileInfo,
  rememberCommandId,
  resolveStatePath,
  type TAgentStateFile,
  type TDeviceCredentials,
  type TOfflineEvent,
  writeStateFile,
  ZPosition,
} from './state';

/**
 * set_offline_limit: the organisation's new offline limit (args.offlineLockAfterMs, a positive
 * number of ms, or null for none) kept with the credentials, where the limit given at enrolment
 * lives. Fails with "invalid args: …" for anything else.
 */
const applyOfflineLimit = (
  state: TAgentStateFile,
  args: Record<string, unknown>,
): TApplied | { error: string } => {
  const limit = args.offlineLockAfterMs;
  if (limit !== null && !(typeof limit === 'number' && Number.isInteger(limit) && limit > 0)) {
    return { error: 'invalid args: offlineLockAfterMs: a positive number of milliseconds, or null' };
  }
  return { state: { ...state, credentials: { ...state.credentials, offlineLockAfterMs: limit } } };
};

/** SHA-256 hex of "{deviceId}:{pin}": how the simulated phone keeps its screen-lock PIN. */
const devicePinHash = (deviceId: string, pin: string): string =>
  createHash('sha256').update(`${deviceId}:${pin}`).digest('hex');

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
/** The longest setTimeout delay Node honours (about 24.8 days); longer waits are re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long a connection waits for the sync answering its hello before saying hello again, ms. */
export const SYNC_WAIT_MS = 5000;

/**
 * The current connection in the sync handshake (device protocol §6): until the sync answering its
 * hello arrives, every message is held; after it, messages are applied as they come.
 */
type TLink = { kind: 'awaiting_sync'; held: TServerMessage[]; timer?: NodeJS.Timeout } | { kind: 'synced' };

/** What happened to an offline code (see DeviceAgent.enterOfflineCode). */
export type TOfflineCodeOutcome = {
  /**
   * `accepted`: the code answers the shown challenge for this action: the action is applied and
   * the challenge burnt (a new one is shown). `wrong`: refused; the challenge stays, `triesLeft`
   * wrong tries left. `challenge_changed`: refused, and it was the last wrong try
   * (OFFLINE_CODE_MAX_WRONG_TRIES): a new challenge replaces the old one.
   */
  result: 'accepted' | 'wrong' | 'challenge_changed';
  action: TOfflineCodeAction;
  /** The challenge the phone shows now. */
  challenge: string;
  /** Wrong codes left for `challenge` before it changes. */
  triesLeft: number;
  isLocked: boolean;
  /**
   * Accepted only: true when the 'offline_lock' report reached the broker now, false when it waits
   * for the next hello.
   */
  isReported?: boolean;
};

/** What happened to one command message. */
export type TCommandOutcome = {
  id: string;
  /** The command name as received (unknown names are answered with a failed ack). */
  name: string;
  /**
   * `done`: applied now and acked done. `failed`: not applied, acked failed with `error`.
   * `duplicate`: this id was applied before; nothing changed and done was acked again.
   * `dropped`: not applied, acked dropped: cancelled, past its notAfter, or no longer pending at
   * the sync.
   */
  result: 'done' | 'failed' | 'duplicate' | 'dropped';
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
  /** A report event (SIM change, location, offline lock) reached the broker. */
  report: [TReportEvent];
  /**
   * The device locked or unlocked itself offline, after saving: an offline code was accepted
   * (source offline_code, also when adopted from another process) or the offline limit passed
   * (source offline_limit). Its 'offline_lock' report follows when connected.
   */
  offline: [TOfflineEvent];
  /** An uninstall command was applied and acked: the agent has stopped and will not start again. */
  uninstalled: [];
  /** A command message was handled (see TCommandOutcome). */
  command: [TCommandOutcome];
  /**
   * A message on the command topic was refused and ignored (device protocol §5): not signed, signed
   * with another key or badly, not a valid message, for another device, or a replayed sync.
   */
  invalidMessage: [{ reason: string; payload: string }];
  /** The sync answering this connection's hello was applied (device protocol §6). */
  synced: [{ policyVersion: number; commandIds: string[] }];
  /** A newer policy version was applied. */
  policy: [{ version: number; policy: TPolicy }];
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
  /**
   * The organisation's offline limit (design §5): after this many milliseconds without a check-in
   * (see lastCheckInAt) a started agent locks itself and reports it (kind 'offline_lock', source
   * 'offline_limit') after the next hello. null or left out: never.
   */
  offlineLockAfterMs?: number | null;
  /**
   * The phone's FCM registration token, sent with every hello so the server can wake it with a
   * push when it is offline (device protocol §14). The reference agent gets no pushes itself.
   */
  pushToken?: string;
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
 * `tracking` toggle is on). Offline (design §5) it takes challenge–response codes
 * (offlineChallenge, enterOfflineCode) and, with offlineLockAfterMs, locks itself after that long
 * without a check-in; both are reported as 'offline_lock' reports after the next hello.
 *
 * Create one with DeviceAgent.enrol or DeviceAgent.load, then start() and later stop().
 */
export class DeviceAgent extends EventEmitter<TDeviceAgentEvents> {
  /** Absolute path of the state file this agent reads and writes. */
  readonly statePath: string;
  /** Milliseconds between location reports while tracking is on. */
  readonly trackingIntervalMs: number;
  /** The offline limit given as an option (tests, CLI); undefined: the organisation's, from the state. */
  readonly #offlineLimitOption: number | null | undefined;
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
  #offlineTimer: NodeJS.Timeout | undefined;
  /** The broker refused the credentials: the device is no longer Kisht's to lock for being offline. */
  #isRefused = false;
  /** The offline-code key (SHA-256 hex of the device secret), computed once. */
  #offlineKey: Promise<string> | undefined;
  /** Offline reports are published one flush at a time, in order. */
  #offlineFlush: Promise<unknown> = Promise.resolve();
  /** State changes (commands, setSims, setPosition) run one at a time, in arrival order. */
  #queue: Promise<void> = Promise.resolve();
  /** The seq of the last event published (protocol §4). */
  #lastSeq = 0;
  /** The id of the current (or next) MQTT connection: its hello and its `gone` will carry it. */
  #connectionId = randomUUID();
  /** Where the current connection is in the sync handshake (device protocol §6). */
  #link: TLink = { kind: 'awaiting_sync', held: [] };
  /** The seq of the latest hello: only the sync answering it is taken. */
  #helloSeq = 0;
  /** Server clock minus this clock, ms, from the last sync (judges notAfter and issuedAt). */
  #clockOffsetMs = 0;
  /** The FCM token the hello carries (TAgentOptions.pushToken). */
  readonly #pushToken: string | undefined;
  /** The server key as a KeyObject, made once. */
  #publicKey: { kid: string; publicKey: KeyObject } | undefined;

  private constructor(statePath: string, state: TAgentStateFile, options: TAgentOptions = {}) {
    super();
    this.statePath = statePath;
    this.#state = state;
    const interval = options.trackingIntervalMs ?? DEFAULT_TRACKING_INTERVAL_MS;
    if (!Number.isFinite(interval) || interval <= 0) {
      throw new Error(`trackingIntervalMs must be a positive number of milliseconds, not ${interval}`);
    }
    this.trackingIntervalMs = interval;
    const limit = options.offlineLockAfterMs;
    if (limit !== undefined && limit !== null && (!Number.isFinite(limit) || limit <= 0)) {
      throw new Error(`offlineLockAfterMs must be a positive number of milliseconds or null, not ${limit}`);
    }
    this.#offlineLimitOption = limit;
    this.#pushToken = options.pushToken;
  }

  /**
   * The offline limit in milliseconds, or null when the agent never locks itself for being offline:
   * the option when one was given (tests, CLI), else the organisation's, which the phone got at
   * enrolment and with every set_offline_limit command since.
   */
  get offlineLockAfterMs(): number | null {
    return this.#offlineLimitOption ?? this.#state.credentials.offlineLockAfterMs ?? null;
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
   * version-1 or version-2 file is migrated and saved at once (so its new offline challenge
   * stays; see readStateFileInfo). Throws StateFileMissingError when there is no file, an Error
   * when it is not a state file.
   */
  static async load(options: TAgentOptions & { statePath?: string } = {}): Promise<DeviceAgent> {
    const statePath = resolveStatePath(options.statePath);
    const { state, isMigrated } = await readStateFileInfo(statePath);
    if (isMigrated) await writeStateFile(statePath, state);
    return new DeviceAgent(statePath, state, options);
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

  /** The challenge the phone shows for offline codes (OFFLINE_CHALLENGE_DIGITS digits). */
  get offlineChallenge(): string {
    return this.#state.offlineChallenge;
  }

  /** Wrong offline codes left for the shown challenge before it changes. */
  get offlineTriesLeft(): number {
    return OFFLINE_CODE_MAX_WRONG_TRIES - this.#state.offlineWrongTries;
  }

  /**
   * The last check-in, ISO 8601 UTC: when the broker last acknowledged a hello, or when a
   * connection that had said hello closed (enrolment counts as the first). The offline limit counts
   * from it.
   */
  get lastCheckInAt(): string {
    return this.#state.lastCheckInAt;
  }

  /**
   * Connects to the broker in the credentials (mqtt://, mqtts://, ws:// or wss://) with
   * clientId = username = deviceId, password = deviceSecret, MQTT 3.1.1, clean session off, and
   * keeps reconnecting every RECONNECT_PERIOD_MS until stop(). On every connect it subscribes to
   * the command topic (QoS 1), publishes hello, saves the check-in, then publishes a pending SIM
   * report and pending 'offline_lock' reports if any. While the `tracking` toggle is on it reports
   * its position every trackingIntervalMs. With offlineLockAfterMs, while not checked in it locks
   * itself once the offline limit has run out (at once if it already has).
   *
   * Resolves once the first connection is up and its hello was acknowledged by the broker. Rejects
   * if the broker refuses the credentials, or if stop() is called first; with
   * DeviceUninstalledError after an uninstall command. Throws if already started.
   */
  start(): Promise<void> {
    if (this.#client) return Promise.reject(new Error('agent already started'));
    if (this.#state.uninstalled) return Promise.reject(new DeviceUninstalledError(this.deviceId));
    const { credentials } = this.#state;
    this.#connectionId = randomUUID();
    const client = connect(credentials.mqttUrl, {
      // The broker publishes it when this connection ends without DISCONNECT (protocol §4).
      will: this.#willFor(this.#connectionId),
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
    this.#newLink();
    this.#reconnectAttempt = 0;
    this.#isRefused = false;
    this.#hasSaidHello = false;
    this.#syncTracking();
    // A phone that was off past the offline limit locks before it gets through.
    this.#syncOfflineLock();

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
      const handled = this.#enqueue(() => this.#handleMessage(payload)).catch((error: Error) => {
        this.emit('warning', error);
      });
      void handled.then(() => {
        callback();
        if (this.#state.uninstalled) this.#uninstall();
      });
    };
    client.on('close', () => {
      const hadSaidHello = this.#hasSaidHello;
      this.#hasSaidHello = false;
      // In touch until now: the offline limit counts from here (#checkIn re-arms it).
      if (hadSaidHello && client === this.#client) this.#checkIn();
      else this.#syncOfflineLock();
      if (!this.#isConnected) return;
      this.#isConnected = false;
      this.emit('disconnected');
    });
    client.on('reconnect', () => {
      // A new connection, a new id: MQTT.js builds each CONNECT from client.options.
      this.#connectionId = randomUUID();
      client.options.will = this.#willFor(this.#connectionId);
      this.#newLink();
      this.#reconnectAttempt += 1;
      this.emit('reconnecting', { attempt: this.#reconnectAttempt });
    });
    client.on('error', (error) => {
      const returnCode = (error as Error & { code?: unknown }).code;
      if (returnCode === 4 || returnCode === 5) {
        // Bad credentials or not authorised (e.g. the device was released or removed): retrying
        // cannot help. end() here, before MQTT.js schedules the retry, stops reconnecting.
        this.#isRefused = true;
        // Kept across restarts: a released phone must never lock itself for being offline.
        this.#enqueue(() =>
          this.#commit({ ...this.#state, refusedAt: new Date().toISOString() }, true),
        ).catch((saveError: Error) => this.emit('warning', saveError));
        client.end(true);
        this.#stopTracking();
        this.#stopOfflineTimer();
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
    this.#stopOfflineTimer();
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
    // A clean DISCONNECT discards the will, so say `gone` ourselves first (best effort).
    if (client.connected && !hasOutgoing()) {
      const gone: TGoneEvent = {
        v: PROTOCOL_VERSION,
        type: 'gone',
        connectionId: this.#connectionId,
        at: new Date().toISOString(),
      };
      await Promise.race([
        this.#publishEvent(gone, client).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS)),
      ]);
    }
    // Graceful: DISCONNECT then close. Forced: close the socket; unacked acks are re-sent by the
    // server's re-send after the next hello, and answered again.
    await client.endAsync(!client.connected || hasOutgoing());
    this.#client = undefined;
    this.#hasSaidHello = false;
    this.#newLink();
    // The check-in saved when the connection closed.
    await this.#queue;
    this.#stopOfflineTimer();
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

  /**
   * Enters an offline code (design §5, docs/device-protocol.md §12) for the shown challenge, with
   * no network: the code must be verifyOfflineCode's response for this device, the challenge and
   * `action` (default unlock) in the current 30-minute slot or the one before. Spaces and dashes
   * are ignored.
   *
   * Accepted: applies the action to the state exactly as the lock/unlock command would, burns the
   * challenge (a new one is shown, so the code cannot be used twice), resets the wrong tries,
   * records an offline event and saves, then publishes a 'report' of kind 'offline_lock' with data
   * { action, challenge, at, source: 'offline_code' } when connected, or after the next hello
   * (also across restarts). Wrong: counted and saved; the OFFLINE_CODE_MAX_WRONG_TRIES-th wrong
   * code replaces the challenge and resets the count. Works started or not.
   *
   * Throws for a code that is not 8 digits (not counted), an unknown action, an uninstalled
   * device, or when the state cannot be saved.
   */
  async enterOfflineCode(code: string, action: TOfflineCodeAction = 'unlock'): Promise<TOfflineCodeOutcome> {
    if (!OFFLINE_CODE_ACTIONS.includes(action)) {
      throw new Error(`an offline code's action is ${OFFLINE_CODE_ACTIONS.join(' or ')}, not "${action}"`);
    }
    const digits = code.replace(/[\s-]/g, '');
    if (!new RegExp(`^\\d{${OFFLINE_CODE_DIGITS}}$`).test(digits)) {
      throw new Error(`an offline code is ${OFFLINE_CODE_DIGITS} digits`);
    }
    if (this.#state.uninstalled) throw new DeviceUninstalledError(this.deviceId);
    const keyHex = await this.#deviceKey();

    const { outcome, event } = await this.#enqueue(async () => {
      const state = this.#state;
      const isValid = await verifyOfflineCode({
        keyHex,
        deviceId: state.credentials.deviceId,
        challenge: state.offlineChallenge,
        action,
        code: digits,
        nowMs: Date.now(),
      });
      if (!isValid) {
        const tries = state.offlineWrongTries + 1;
        const isExhausted = tries >= OFFLINE_CODE_MAX_WRONG_TRIES;
        await this.#commit({
          ...state,
          offlineChallenge: isExhausted
            ? newOfflineChallenge(state.offlineChallenge)
            : state.offlineChallenge,
          offlineWrongTries: isExhausted ? 0 : tries,
        });
        return { outcome: this.#offlineOutcome(isExhausted ? 'challenge_changed' : 'wrong', action) };
      }
      const applied = applyCommand(state, { name: action, args: {} });
      if ('error' in applied) throw new Error(`cannot apply ${action}: ${applied.error}`);
      const accepted: TOfflineEvent = {
        id: randomUUID(),
        source: 'offline_code',
        action,
        at: new Date().toISOString(),
        challenge: state.offlineChallenge,
        isReportPending: true,
      };
      await this.#commit({
        ...applied.state,
        offlineChallenge: newOfflineChallenge(state.offlineChallenge),
        offlineWrongTries: 0,
        offlineEvents: rememberOfflineEvent(state.offlineEvents, accepted),
      });
      return { outcome: this.#offlineOutcome('accepted', action), event: accepted };
    });
    if (!event) return outcome;
    this.emit('offline', event);
    // An offline unlock restarts the offline clock.
    this.#syncOfflineLock();
    return { ...outcome, isReported: this.#hasSaidHello ? await this.#flushOfflineReports() : false };
  }

  /**
   * Takes the offline side of a state file another process saved (`kisht-agent offline-code` while
   * this agent runs): the challenge and wrong tries, and every offline event this agent does not
   * know, whose lock or unlock it applies as it happened there. Only a file newer than this
   * agent's state (higher `revision`) counts. Says 'offline' for each new event and reports the
   * pending ones when connected. Resolves whether anything was taken.
   */
  async adoptOfflineState(saved: TAgentStateFile): Promise<boolean> {
    const fresh = await this.#enqueue(async () => {
      const current = this.#state;
      if (saved.revision <= current.revision) return undefined;
      const known = new Set(current.offlineEvents.map((event) => event.id));
      const events = saved.offlineEvents.filter((event) => !known.has(event.id));
      if (
        events.length === 0 &&
        saved.offlineChallenge === current.offlineChallenge &&
        saved.offlineWrongTries === current.offlineWrongTries
      ) {
        return undefined;
      }
      let next: TAgentStateFile = {
        ...current,
        revision: saved.revision,
        offlineChallenge: saved.offlineChallenge,
        offlineWrongTries: saved.offlineWrongTries,
        offlineEvents: events.reduce(rememberOfflineEvent, current.offlineEvents),
      };
      for (const event of events) {
        const applied = applyCommand(next, { name: event.action, args: {} });
        if (!('error' in applied)) next = applied.state;
      }
      await this.#commit(next);
      return events;
    });
    if (!fresh) return false;
    for (const event of fresh) this.emit('offline', event);
    this.#syncOfflineLock();
    if (this.#hasSaidHello && fresh.some((event) => event.isReportPending)) await this.#flushOfflineReports();
    return true;
  }

  #offlineOutcome(result: TOfflineCodeOutcome['result'], action: TOfflineCodeAction): TOfflineCodeOutcome {
    return {
      result,
      action,
      challenge: this.#state.offlineChallenge,
      triesLeft: this.offlineTriesLeft,
      isLocked: this.#state.isLocked,
    };
  }

  /** Subscribes and says hello on every connect; settles start() after the first. */
  async #onConnect(client: MqttClient, isSessionPresent: boolean): Promise<void> {
    const { cmdTopic, mqttUrl } = this.#state.credentials;
    try {
      const granted = await client.subscribeAsync(cmdTopic, { qos: 1 });
      if (granted[0]?.qos === 128) throw new Error(`broker refused the subscription to ${cmdTopic}`);
      if (!isSessionPresent && client === this.#client) this.emit('connected', { mqttUrl, isSessionPresent });
      await this.#publishEvent(this.#helloEvent(), client);
    } catch (error) {
      // The connection dropped (or was refused) half-way; the next connect says hello again.
      if (client === this.#client) this.emit('warning', error as Error);
      return;
    }
    if (client !== this.#client) return;
    this.#hasSaidHello = true;
    this.#armSyncTimer();
    this.#stopOfflineTimer();
    if (this.#state.refusedAt) {
      // The broker takes the credentials again: the phone is Kisht's to look after once more.
      const { refusedAt: _accepted, ...accepted } = this.#state;
      this.#enqueue(() => this.#commit(accepted, true)).catch((error: Error) => this.emit('warning', error));
    }
    this.#checkIn();
    this.emit('hello', this.reportedState);
    this.#pendingStart?.resolve();
    this.#pendingStart = undefined;
    if (this.#state.isSimReportPending) void this.#flushSimReport();
    if (this.#state.offlineEvents.some((event) => event.isReportPending)) void this.#flushOfflineReports();
  }

  /**
   * Handles one message from the command topic (device protocol §5–§7): refuses anything not signed
   * with the server key for this device; until this connection's sync arrives, holds every message;
   * then applies the newest policy and the commands the server still has pending.
   */
  async #handleMessage(payload: string): Promise<void> {
    // An uninstalled agent is gone: it neither applies nor answers what is still in its session.
    if (this.#state.uninstalled) return;
    const key = this.#serverKey();
    if (!key) {
      this.emit('invalidMessage', { reason: 'unknown key: enrolled without a server key', payload });
      return;
    }
    const opened = openServerMessage(payload, key, this.deviceId);
    if ('refusal' in opened) {
      this.emit('invalidMessage', { reason: `${opened.refusal}: ${opened.detail}`, payload });
      return;
    }
    const message = opened.message;
    if (message.type === 'sync') {
      if (message.connectionId !== this.#connectionId) {
        // A sync answers one hello of one connection: an old one replayed says nothing about now.
        this.emit('invalidMessage', { reason: 'replayed: a sync for another connection', payload });
        return;
      }
      // One sync per hello: another one (a duplicate, or a replay) changes nothing.
      if (this.#link.kind !== 'awaiting_sync') return;
      if (message.helloSeq !== undefined && message.helloSeq !== this.#helloSeq) {
        this.emit('invalidMessage', { reason: 'replayed: a sync for an earlier hello', payload });
        return;
      }
      await this.#applySync(message);
      return;
    }
    if (this.#link.kind === 'awaiting_sync') {
      this.#link.held.push(message);
      return;
    }
    if (message.type === 'policy') await this.#applyPolicy(message);
    else if (message.type === 'cancel') await this.#applyCancel(message.id);
    else if (message.policyVersion > this.#policyVersion) {
      // Issued under a policy this phone has not got yet: hold it and ask for a sync.
      this.#awaitSync([message]);
      this.#sayHelloAgain();
    } else await this.#applyCommandMessage(message);
  }

  /** The policy version this phone holds (0 before its first policy). */
  get #policyVersion(): number {
    return this.#state.policy?.version ?? 0;
  }

  /**
   * A sync for this connection: the clock offset from the server's time, then the newest policy of
   * the sync and of the messages held since the connection opened, then the cancels. The commands
   * the sync lists as pending follow it and are applied as they come; a held command it does not
   * list was cancelled, expired or finished meanwhile: acked done again if this phone applied it,
   * else dropped.
   */
  async #applySync(sync: TSyncMessage): Promise<void> {
    const held = this.#link.kind === 'awaiting_sync' ? this.#link.held : [];
    clearTimeout(this.#link.kind === 'awaiting_sync' ? this.#link.timer : undefined);
    this.#link = { kind: 'synced' };
    const serverTime = Date.parse(sync.serverTime);
    if (!Number.isNaN(serverTime)) this.#clockOffsetMs = serverTime - Date.now();
    let newest: TPolicyVersion = sync.policy;
    for (const message of held) {
      if (message.type === 'policy' && message.version > newest.version) newest = message;
    }
    await this.#applyPolicy(newest);
    for (const message of held) if (message.type === 'cancel') await this.#applyCancel(message.id);
    // The commands the sync lists follow it, in order: the held copies of those wait for them. One
    // it does not list is left alone (cancelled, expired or finished meanwhile; or written after
    // the list was read, and then sent again by the server's re-send), acked again if applied.
    const pending = new Set(sync.commandIds);
    for (const message of held) {
      if (message.type !== 'command' || pending.has(message.id)) continue;
      if (this.#state.appliedCommandIds.includes(message.id)) await this.#applyCommandMessage(message);
    }
    this.emit('synced', { policyVersion: this.#policyVersion, commandIds: sync.commandIds });
  }

  /**
   * Applies a policy version (device protocol §6) if it is newer than the one held: runs the
   * commands that move each feature from the held policy to this one (the lock from the phone's
   * actual lock state; an offline code or offline lock made after this version was issued keeps
   * its lock state), saves, and acks each command the version carries (received, then done, or
   * failed for a feature that could not be applied). The version held already: its commands are
   * acked done again. An older version changes nothing.
   */
  async #applyPolicy(version: TPolicyVersion): Promise<void> {
    if (version.version < this.#policyVersion) return;
    if (version.version === this.#policyVersion) {
      // The version held, again (its acks were lost): each command gets the answer it got then.
      const failures = this.#state.policy?.failures ?? {};
      for (const command of version.commands) {
        const feature = commandSpecByName(command.name)?.spec.feature;
        const failure = feature === undefined ? UNSUPPORTED_COMMAND : failures[feature];
        if (failure) this.#fail(command, failure);
        else {
          this.#publishAck(command.id, 'done');
          this.emit('command', {
            id: command.id,
            name: command.name,
            result: 'duplicate',
            state: this.reportedState,
          });
        }
      }
      return;
    }
    const heldPolicy = this.#state.policy?.policy ?? INITIAL_POLICY;
    const issuedAt = Date.parse(version.issuedAt) - this.#clockOffsetMs;
    const isLockOverridden = this.#state.offlineEvents.some((event) => Date.parse(event.at) > issuedAt);
    const wanted: TPolicy = isLockOverridden
      ? { ...version.policy, locked: this.#state.isLocked }
      : version.policy;
    // The lock is compared with the phone's actual lock state (an offline code may have changed it).
    const changes = policyChanges({ ...heldPolicy, locked: this.#state.isLocked }, wanted);
    for (const command of version.commands) this.#publishAck(command.id, 'received');
    let state = this.#state;
    const failures = new Map<string, string>();
    for (const change of changes) {
      const applied = applyCommand(state, change);
      if ('error' in applied) failures.set(change.feature, applied.error);
      else state = applied.state;
    }
    const wasTracking = this.#state.controls.tracking === true;
    // What this phone now holds: the version, with the features it could not apply as they were,
    // so the same edit sent again is tried again.
    const applied: TPolicy = { locked: state.isLocked, controls: { ...version.policy.controls } };
    for (const feature of failures.keys()) {
      const before = heldPolicy.controls[feature];
      if (before) applied.controls[feature] = before;
      else delete applied.controls[feature];
    }
    let hasChanged: boolean;
    try {
      hasChanged = await this.#commit(
        {
          ...state,
          policy: {
            version: version.version,
            policy: applied,
            issuedAt: version.issuedAt,
            ...(failures.size > 0 ? { failures: Object.fromEntries(failures) } : {}),
          },
        },
        true,
      );
    } catch (error) {
      this.emit('warning', error as Error);
      for (const command of version.commands) {
        this.#fail(command, `could not save state: ${(error as Error).message}`);
      }
      return;
    }
    for (const command of version.commands) {
      const feature = commandSpecByName(command.name)?.spec.feature;
      const failure = feature === undefined ? UNSUPPORTED_COMMAND : failures.get(feature);
      if (failure) this.#fail(command, failure);
      else {
        this.#publishAck(command.id, 'done');
        this.emit('command', {
          id: command.id,
          name: command.name,
          result: 'done',
          state: this.reportedState,
        });
      }
    }
    this.#publishEvent({
      v: PROTOCOL_VERSION,
      type: 'applied',
      version: version.version,
      ...(failures.size > 0 ? { failures: Object.fromEntries(failures) } : {}),
      state: this.reportedState,
      at: new Date().toISOString(),
      seq: this.#nextSeq(),
      connectionId: this.#connectionId,
    }).catch((error: Error) => this.emit('warning', error));
    if (hasChanged) this.emit('state', this.reportedState);
    this.emit('policy', { version: version.version, policy: version.policy });
    const isTracking = this.#state.controls.tracking === true;
    if (isTracking !== wasTracking) {
      this.#syncTracking();
      // Tracking just turned on: the first position now, the next ones every interval.
      if (isTracking) this.#reportPositionInBackground();
    }
  }

  /**
   * A cancel from the server: remembers the id, so the command is never applied, and acks dropped
   * unless this phone had applied it already.
   */
  async #applyCancel(id: string): Promise<void> {
    const cancelled = this.#state.cancelledCommandIds ?? [];
    if (!cancelled.includes(id)) {
      await this.#commit({ ...this.#state, cancelledCommandIds: rememberCommandId(cancelled, id) }, true);
    }
    if (!this.#state.appliedCommandIds.includes(id)) this.#publishAck(id, 'dropped', { error: 'cancelled' });
    // Too late: it ran. Say so again, so the history shows it ran.
    else this.#publishAck(id, 'done');
  }

  /** Acks a command dropped (not applied) with the reason, and says so. */
  #drop(command: { id: string; name: string }, reason: string): void {
    this.#publishAck(command.id, 'dropped', { error: reason });
    this.emit('command', {
      id: command.id,
      name: command.name,
      result: 'dropped',
      error: reason,
      state: this.reportedState,
    });
  }

  /**
   * One-shot command (device protocol §7): applied once per id, saved before acking done. Dropped
   * when cancelled or past notAfter by the server-corrected clock; a lock or toggle name is refused
   * (they travel as policies).
   */
  async #applyCommandMessage(command: TCommandMessage): Promise<void> {
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
    if (this.#state.cancelledCommandIds?.includes(command.id)) {
      this.#drop(command, 'cancelled');
      return;
    }
    if (Date.now() + this.#clockOffsetMs > Date.parse(command.notAfter)) {
      this.#drop(command, `past notAfter ${command.notAfter}`);
      return;
    }
    if (isPolicyCommand(command.name)) {
      this.#fail(command, `${command.name} is a policy change, not a command`);
      return;
    }

    this.#publishAck(command.id, 'received');
    const applied =
      command.name === 'change_pin'
        ? await this.#applyPinChange(command)
        : command.name === 'set_offline_limit'
          ? applyOfflineLimit(this.#state, command.args)
          : applyCommand(this.#state, command);
    if ('error' in applied) {
      // Not remembered as applied: a redelivery fails the same way and changes nothing.
      this.#fail(command, applied.error);
      return;
    }

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
    if (command.name === 'set_offline_limit') this.#syncOfflineLock();
  }

  /** The server key from enrolment as a KeyObject, or undefined without one (computed once). */
  #serverKey(): { kid: string; publicKey: KeyObject } | undefined {
    const stored = this.#state.credentials.serverKey;
    if (!stored) return undefined;
    this.#publicKey ??= { kid: stored.kid, publicKey: publicKeyOf(stored) };
    return this.#publicKey;
  }

  /**
   * Holds what arrives from now until a sync for this connection (device protocol §6), with
   * `held` first; says hello again if none comes within SYNC_WAIT_MS.
   */
  #awaitSync(held: TServerMessage[] = []): void {
    if (this.#link.kind === 'awaiting_sync') this.#link.held.push(...held);
    else this.#link = { kind: 'awaiting_sync', held };
  }

  /** A new connection: nothing it brings is applied before its sync; earlier held messages go. */
  #newLink(): void {
    if (this.#link.kind === 'awaiting_sync') clearTimeout(this.#link.timer);
    this.#link = { kind: 'awaiting_sync', held: [] };
  }

  /** (Re)arms the wait for the sync: hello again after SYNC_WAIT_MS without one. */
  #armSyncTimer(): void {
    if (this.#link.kind !== 'awaiting_sync') return;
    clearTimeout(this.#link.timer);
    this.#link.timer = setTimeout(() => this.#sayHelloAgain(), SYNC_WAIT_MS);
    this.#link.timer.unref();
  }

  /** Asks for a sync on the current connection: a fresh hello (after a silence, or an unknown policy). */
  #sayHelloAgain(): void {
    const client = this.#client;
    if (!client || !this.#isConnected || !this.#hasSaidHello) return;
    this.#awaitSync();
    this.#armSyncTimer();
    void this.#publishEvent(this.#helloEvent(), client).catch((error: Error) => this.emit('warning', error));
  }

  /** The hello of the current connection, with the state now. */
  #helloEvent(): THelloEvent {
    this.#helloSeq = this.#nextSeq();
    return {
      v: PROTOCOL_VERSION,
      type: 'hello',
      state: this.reportedState,
      at: new Date().toISOString(),
      seq: this.#helloSeq,
      connectionId: this.#connectionId,
      ...(this.#pushToken ? { pushToken: this.#pushToken } : {}),
    };
  }

  /**
   * change_pin (change_device_pinV1): opens the sealed PIN with the key derived from the device
   * secret (devices/device-pin.ts) and sets it as the screen-lock PIN. Fails with "invalid args: …"
   * without a sealedPin, "sealed PIN does not open" when it was not sealed for this phone and
   * command, or the PIN rule's message for a PIN the rules refuse.
   */
  async #applyPinChange(command: TCommandMessage): Promise<TApplied | { error: string }> {
    const sealed = command.args.sealedPin;
    if (typeof sealed !== 'string' || sealed === '') return { error: 'invalid args: sealedPin: Required' };
    let pin: string;
    try {
      pin = await unsealDevicePin({
        keyHex: await this.#deviceKey(),
        deviceId: this.deviceId,
        commandId: command.id,
        sealed,
      });
    } catch (error) {
      return { error: (error as Error).message };
    }
    const problem = devicePinProblem(pin);
    if (problem) return { error: problem };
    const now = new Date().toISOString();
    return {
      state: {
        ...this.#state,
        devicePin: { hash: devicePinHash(this.deviceId, pin), changedAt: now },
        actionsAppliedAt: { ...this.#state.actionsAppliedAt, change_pin: now },
      },
    };
  }

  /** True when `pin` is the screen-lock PIN the last change_pin set (false before any). */
  checkDevicePin(pin: string): boolean {
    const stored = this.#state.devicePin?.hash;
    return stored !== undefined && stored === devicePinHash(this.deviceId, pin);
  }

  /** The offline-code key (SHA-256 hex of the device secret), which also keys the sealed PIN; computed once. */
  #deviceKey(): Promise<string> {
    this.#offlineKey ??= offlineCodeKey(this.#state.credentials.deviceSecret);
    return this.#offlineKey;
  }

  #fail(command: { id: string; name: string }, error: string): void {
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
    const saved = { ...next, revision: Math.max(this.#state.revision, next.revision) + 1 };
    await writeStateFile(this.statePath, saved);
    this.#state = saved;
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

  /** Saves now as the last check-in (in touch with the broker), then re-arms the offline limit. */
  #checkIn(): void {
    const at = new Date().toISOString();
    this.#enqueue(() => this.#commit({ ...this.#state, lastCheckInAt: at }))
      .catch((error: Error) => this.emit('warning', error))
      .finally(() => this.#syncOfflineLock());
  }

  /**
   * When the offline limit runs out: offlineLockAfterMs after the later of the last check-in and
   * the last accepted offline unlock code (which starts the clock again). Undefined without a limit.
   */
  #offlineLockDueAt(): number | undefined {
    if (this.offlineLockAfterMs === null) return undefined;
    let from = Date.parse(this.#state.lastCheckInAt);
    // An unreadable check-in is long ago: lock.
    if (Number.isNaN(from)) from = 0;
    for (const event of this.#state.offlineEvents) {
      if (event.source === 'offline_code' && event.action === 'unlock') {
        from = Math.max(from, Date.parse(event.at) || 0);
      }
    }
    return from + this.offlineLockAfterMs;
  }

  /**
   * While started and not checked in (no hello on this connection), arms a timer for the offline
   * limit, or locks now if it has run out and the device is unlocked.
   */
  #syncOfflineLock(): void {
    this.#stopOfflineTimer();
    const dueAt = this.#offlineLockDueAt();
    if (dueAt === undefined || !this.#client || this.#stopping || this.#hasSaidHello) return;
    if (this.#state.uninstalled || this.#isRefused || this.#state.refusedAt) return;
    const wait = dueAt - Date.now();
    if (wait > 0) {
      this.#offlineTimer = setTimeout(() => this.#syncOfflineLock(), Math.min(wait, MAX_TIMER_MS));
      this.#offlineTimer.unref();
      return;
    }
    if (this.#state.isLocked) return;
    this.#enqueue(() => this.#lockForOfflineLimit()).catch((error: Error) => this.emit('warning', error));
  }

  #stopOfflineTimer(): void {
    clearTimeout(this.#offlineTimer);
    this.#offlineTimer = undefined;
  }

  /** The offline auto-lock (queued): locks as the lock command would, saves, records the event. */
  async #lockForOfflineLimit(): Promise<void> {
    const state = this.#state;
    const dueAt = this.#offlineLockDueAt();
    // Checked in meanwhile, already locked, or stopped: nothing to do.
    if (
      dueAt === undefined ||
      Date.now() < dueAt ||
      state.isLocked ||
      this.#hasSaidHello ||
      !this.#client ||
      this.#isRefused ||
      state.refusedAt
    ) {
      return;
    }
    const applied = applyCommand(state, { name: 'lock', args: {} });
    if ('error' in applied) throw new Error(`cannot lock: ${applied.error}`);
    const event: TOfflineEvent = {
      id: randomUUID(),
      source: 'offline_limit',
      action: 'lock',
      at: new Date().toISOString(),
      lastCheckInAt: state.lastCheckInAt,
      isReportPending: true,
    };
    await this.#commit({ ...applied.state, offlineEvents: rememberOfflineEvent(state.offlineEvents, event) });
    this.emit('offline', event);
  }

  /**
   * Publishes the pending 'offline_lock' reports, oldest first, each marked sent once the broker
   * has it. Resolves true when none is left pending.
   */
  #flushOfflineReports(): Promise<boolean> {
    const run = this.#offlineFlush.then(() => this.#publishOfflineReports());
    this.#offlineFlush = run.catch(() => undefined);
    return run;
  }

  async #publishOfflineReports(): Promise<boolean> {
    for (const event of this.#state.offlineEvents.filter((candidate) => candidate.isReportPending)) {
      if (!this.#hasSaidHello) return false;
      try {
        await this.#publishReport('offline_lock', offlineReportData(event));
      } catch (error) {
        // Still pending: the next hello tries again.
        this.emit('warning', error as Error);
        return false;
      }
      try {
        await this.#enqueue(() =>
          this.#commit({
            ...this.#state,
            offlineEvents: this.#state.offlineEvents.map((candidate) =>
              candidate.id === event.id ? { ...candidate, isReportPending: false } : candidate,
            ),
          }),
        );
      } catch (error) {
        // Sent but not saved as sent: the server may get it twice, which it must tolerate.
        this.emit('warning', error as Error);
        return false;
      }
    }
    return true;
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
      seq: this.#nextSeq(),
      connectionId: this.#connectionId,
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
  /**
   * The next event seq (protocol §4): microseconds since the epoch, or one more than the last when
   * the clock has not moved on, so it keeps increasing across restarts of a phone whose clock does.
   */
  #nextSeq(): number {
    this.#lastSeq = Math.max(this.#lastSeq + 1, Date.now() * 1000);
    return this.#lastSeq;
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
      topic: this.#state.credentials.evtTopic,
      payload: Buffer.from(JSON.stringify(gone)),
      qos: 1 as const,
      retain: false,
    };
  }

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
      seq: this.#nextSeq(),
      connectionId: this.#connectionId,
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

/** `events` with `event` appended, dropping the oldest beyond OFFLINE_EVENTS_LIMIT. */
const rememberOfflineEvent = (events: readonly TOfflineEvent[], event: TOfflineEvent): TOfflineEvent[] =>
  [...events, event].slice(-OFFLINE_EVENTS_LIMIT);
