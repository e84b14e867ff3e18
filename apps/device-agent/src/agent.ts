import { EventEmitter } from 'node:events';
import { access } from 'node:fs/promises';
import { type TFieldError, ZFailure, zEnvelope } from '@kisht/domain/common/envelope';
import { ZEnrolDeviceRequest, ZEnrolDeviceResponse } from '@kisht/domain/devices/devices.schema';
import type { TOfflineCodeAction } from '@kisht/domain/devices/offline-code';
import { paidThroughCountdown } from '@kisht/domain/devices/paid-through';
import {
  type TAppRemovedData,
  type TLocationFix,
  type TReportedState,
  type TSimSlot,
  ZLocationFix,
  ZSimSlot,
} from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import pRetry from 'p-retry';
import { z } from 'zod';
import { AgentCore, type TDeviceAgentEvents, type TOfflineCodeOutcome } from './agent-core';
import { AgentMessages, devicePinHash } from './agent-messages';
import { AgentOffline, DeviceUninstalledError } from './agent-offline';
import { AgentReports } from './agent-reports';
import { AgentSession, SYNC_WAIT_MS } from './agent-session';
import { locationFixOf, normaliseSims } from './commands';
import { exchangeEnrolmentCode, LinkEnrolmentError, readDeepLink, type TEnrolmentSource } from './link';
import { lockScreenOf, type TLockScreenView } from './lock-screen';
import { readQrPayload } from './qr';
import {
  createAgentState,
  readStateFileInfo,
  resolveStatePath,
  type TAgentStateFile,
  type TDeviceCredentials,
  writeStateFile,
  ZPosition,
} from './state';

export {
  AGENT_VERSION,
  type TCommandOutcome,
  type TDeviceAgentEvents,
  type TOfflineCodeOutcome,
} from './agent-core';
export { DeviceUninstalledError } from './agent-offline';
export { KEEPALIVE_SECONDS, RECONNECT_PERIOD_MS, SYNC_WAIT_MAX_MS, SYNC_WAIT_MS } from './agent-session';
export type { TLockScreenView } from './lock-screen';

/** Retries of the enrol call after a network error or a server error (device protocol §1). */
const ENROL_RETRIES = 3;
/** The first wait before an enrol retry, ms; it doubles with each. */
const ENROL_RETRY_MIN_MS = 500;
/** How long one enrol call may take before it counts as lost, ms. */
const ENROL_CALL_TIMEOUT_MS = 15_000;

/** How often the agent reports its position while the `tracking` toggle is on: 15 minutes, in milliseconds. */
export const DEFAULT_TRACKING_INTERVAL_MS = 15 * 60_000;

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
  /**
   * Milliseconds a connection waits for the sync answering its hello before saying hello again
   * (default SYNC_WAIT_MS); each later wait doubles, up to SYNC_WAIT_MAX_MS. Tests shorten it.
   */
  syncWaitMs?: number;
};

/**
 * Options of DeviceAgent.enrol. Exactly one of `qr` (the device policy controller's provisioning
 * QR), `link` (the link-based app's deep link) or `code` (the link-based app's typed code) says
 * where the enrolment token comes from.
 */
export type TEnrolOptions = TAgentOptions & {
  /** The enrolment QR: the provisioning JSON text, or a path to a PNG of the QR (see readQrPayload). */
  qr?: string;
  /**
   * The link-based app's deep link (issue 15): `https://…/emm/l?org=…&token=…` or
   * `kisht://enrol?server=…&org=…&token=…` (see readDeepLink).
   */
  link?: string;
  /**
   * The link-based app's enrolment code (issue 15), exchanged at the server's /emm/generate_code
   * for a token: the server URL, the organisation of the app, and the code as typed.
   */
  code?: { serverUrl: string; orgId: number; code: string };
  /** 15-digit IMEIs with a valid Luhn check digit; the server checks them against the customer. */
  imei1: string;
  imei2: string;
  /** State file to create; defaults to DEFAULT_STATE_PATH under the working directory. */
  statePath?: string;
  /** Replaces an existing state file (the device forgets its old enrolment). Default false. */
  canOverwrite?: boolean;
  /** fetch to call the server with; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Retries after a network or server error (default 3, waits of 0.5 s doubling); 0: none. */
  retries?: number;
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

const ZSimSlots = z.array(ZSimSlot).max(4);
/** A new position: WGS 84 degrees; accuracy in metres, unchanged when left out. */
export type TPositionInput = { latitude: number; longitude: number; accuracyM?: number };

/**
 * A simulated financed Android phone (the reference device of design §5 and
 * docs/device-protocol.md). It enrols from the enrolment QR, holds a persistent MQTT session,
 * obeys the newest signed policy version and applies every one-shot command at most once per id,
 * saves its state before acknowledging, and says hello on every (re)connect, applying nothing
 * before the server's sync. It also reports SIM changes (setSims) and its position
 * (reportLocation, and periodically while the `tracking` toggle is on). Offline (design §5) it
 * takes challenge–response codes (offlineChallenge, enterOfflineCode) and, with
 * offlineLockAfterMs, locks itself after that long without a check-in; both are reported as
 * 'offline_lock' reports after the next hello.
 *
 * It is composed of parts sharing one AgentCore (agent-core.ts): the MQTT session
 * (agent-session.ts), the server's messages (agent-messages.ts), the offline side
 * (agent-offline.ts) and reports (agent-reports.ts). Create one with DeviceAgent.enrol or
 * DeviceAgent.load, then start() and later stop().
 */
export class DeviceAgent extends EventEmitter<TDeviceAgentEvents> {
  /** Absolute path of the state file this agent reads and writes. */
  readonly statePath: string;
  /** Milliseconds between location reports while tracking is on. */
  readonly trackingIntervalMs: number;
  readonly #core: AgentCore;
  readonly #session: AgentSession;
  readonly #messages: AgentMessages;
  readonly #offline: AgentOffline;
  readonly #reports: AgentReports;
  /** start() waiting for its first hello. */
  #pendingStart: { resolve: () => void; reject: (error: Error) => void } | undefined;
  #stopping: Promise<void> | undefined;
  #isUninstalling = false;

  private constructor(statePath: string, state: TAgentStateFile, options: TAgentOptions = {}) {
    super();
    this.statePath = statePath;
    const interval = options.trackingIntervalMs ?? DEFAULT_TRACKING_INTERVAL_MS;
    if (!Number.isFinite(interval) || interval <= 0) {
      throw new Error(`trackingIntervalMs must be a positive number of milliseconds, not ${interval}`);
    }
    this.trackingIntervalMs = interval;
    const limit = options.offlineLockAfterMs;
    if (limit !== undefined && limit !== null && (!Number.isFinite(limit) || limit <= 0)) {
      throw new Error(`offlineLockAfterMs must be a positive number of milliseconds or null, not ${limit}`);
    }
    const core = new AgentCore(statePath, state, this);
    this.#core = core;
    this.#reports = new AgentReports(core, interval);
    this.#offline = new AgentOffline(core, this.#reports, limit, () => this.#stopping !== undefined);
    const parts = { reports: this.#reports, offline: this.#offline } as ConstructorParameters<
      typeof AgentMessages
    >[1];
    this.#messages = new AgentMessages(core, parts);
    this.#session = new AgentSession(
      core,
      {
        onMessage: (payload) => core.enqueue(() => this.#messages.handle(payload)),
        onHandled: () => {
          if (core.state.uninstalled) this.#uninstall();
        },
        onReachable: (isSessionPresent) =>
          this.emit('connected', { mqttUrl: core.state.credentials.mqttUrl, isSessionPresent }),
        onHello: () => this.#onHello(),
        onClose: ({ hadSaidHello, wasConnected }) => {
          // In touch until now: the offline limit counts from here (checkIn re-arms it).
          if (hadSaidHello) this.#offline.checkIn();
          else this.#offline.sync();
          if (wasConnected) this.emit('disconnected');
        },
        onReconnecting: (attempt) => this.emit('reconnecting', { attempt }),
        onRefused: (refused) => {
          // Kept across restarts: a released phone must never lock itself for being offline.
          core
            .enqueue(() => core.commit({ ...core.state, refusedAt: new Date().toISOString() }, true))
            .catch((error: Error) => core.warn(error));
          this.#reports.stopTracking();
          this.#offline.stop();
          this.#pendingStart?.reject(refused);
          this.#pendingStart = undefined;
          this.emit('refused', refused);
        },
      },
      { pushToken: options.pushToken, syncWaitMs: options.syncWaitMs ?? SYNC_WAIT_MS },
    );
    parts.session = this.#session;
  }

  /**
   * The offline limit in milliseconds, or null when the agent never locks itself for being offline:
   * the option when one was given (tests, CLI), else the organisation's, which the phone got at
   * enrolment and with every set_offline_limit command since.
   */
  get offlineLockAfterMs(): number | null {
    return this.#offline.lockAfterMs;
  }

  /**
   * Enrols a new device: reads the QR (or the deep link, or exchanges the typed code), POSTs `{ token, imei1, imei2 }` to
   * `${serverUrl}${paths.devices.enrol}`, saves the credentials to the state file (unlocked, no
   * commands applied) and returns the agent, not yet started.
   *
   * Throws QrPayloadError for an unreadable QR; EnrolmentError (BAD_LINK, BAD_CODE, or the server's
   * NOT_FOUND 'Code not found') for a deep link or code it cannot use; an Error when not exactly one
   * of qr, link and code is given, when an IMEI is invalid or the state file
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

    const qr = await enrolmentSourceOf(options);
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
      // A response lost on the way (the server enrolled the phone, the answer never came) is
      // retried with the same token: the server answers a retry within its window with the same
      // device and a new secret (device protocol §1). Server errors are retried too; any other
      // answer is final.
      response = await pRetry(
        async () => {
          const answer = await fetchFn(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify(request.data),
            signal: AbortSignal.timeout(ENROL_CALL_TIMEOUT_MS),
          });
          if (answer.status >= 500) throw new Error(`HTTP ${answer.status}`);
          return answer;
        },
        { retries: options.retries ?? ENROL_RETRIES, minTimeout: ENROL_RETRY_MIN_MS },
      );
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
   * mode, app lists, last EMI alert, boot count, uninstalled flag, policy and applied command ids.
   */
  get state(): TAgentStateFile {
    return structuredClone(this.#core.state);
  }

  /** What the device reports in hello, ack and report events (see reportedStateOf). */
  get reportedState(): TReportedState {
    return this.#core.reportedState;
  }

  get deviceId(): string {
    return this.#core.deviceId;
  }

  get isLocked(): boolean {
    return this.#core.state.isLocked;
  }

  /**
   * What the lock screen shows now (device protocol §9.2): retailer, amount overdue, how to pay
   * (from the newest policy's lockScreen, else from enrolment and the last EMI alert), the offline
   * challenge, and emergency calls always 'allowed'; null while the phone is unlocked.
   */
  get lockScreen(): TLockScreenView | null {
    return lockScreenOf(this.#core.state);
  }

  /**
   * The paid-through date of the policy the phone holds (device protocol §12.5), ISO 8601 UTC, or
   * null when it has none (a paid-up loan, an older server).
   */
  get paidThrough(): string | null {
    return this.#core.state.policy?.policy.paidThrough ?? null;
  }

  /**
   * The countdown the phone shows before it locks itself for its paid-through date (§12.5): when,
   * ISO 8601 UTC, and the ms left, from PAID_THROUGH_COUNTDOWN_MS before; null otherwise (no date,
   * further away, passed, or a version that does not lock for it).
   */
  get paidThroughCountdown(): { lockAt: string; msLeft: number } | null {
    const lockAt = this.#offline.paidThroughLockAt;
    const countdown = paidThroughCountdown(lockAt, Date.now());
    return countdown && lockAt !== null ? { lockAt: new Date(lockAt).toISOString(), ...countdown } : null;
  }

  /** True once an uninstall command was applied: start() refuses from then on. */
  get isUninstalled(): boolean {
    return this.#core.state.uninstalled;
  }

  /** True while the MQTT connection is up (connack received). */
  get isConnected(): boolean {
    return this.#core.isConnected;
  }

  /**
   * True once this connection's sync has arrived (device protocol §6.4): from then on the phone
   * applies what the server sends; a message that arrived on the connection before it is not.
   */
  get isSynced(): boolean {
    return this.#core.connection.kind === 'synced';
  }

  /** The challenge the phone shows for offline codes (OFFLINE_CHALLENGE_DIGITS digits). */
  get offlineChallenge(): string {
    return this.#core.state.offlineChallenge;
  }

  /** Wrong offline codes left for the shown challenge before it changes. */
  get offlineTriesLeft(): number {
    return this.#offline.triesLeft;
  }

  /**
   * The last check-in, ISO 8601 UTC: when the broker last acknowledged a hello, or when a
   * connection that had said hello closed (enrolment counts as the first). The offline limit counts
   * from it.
   */
  get lastCheckInAt(): string {
    return this.#core.state.lastCheckInAt;
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
    if (this.#core.client) return Promise.reject(new Error('agent already started'));
    if (this.#core.state.uninstalled) return Promise.reject(new DeviceUninstalledError(this.deviceId));
    const started = new Promise<void>((resolve, reject) => {
      this.#pendingStart = { resolve, reject };
    });
    this.#session.start();
    this.#reports.syncTracking();
    // A phone that was off past the offline limit locks before it gets through.
    this.#offline.sync();
    return started;
  }

  /** The broker has this connection's hello: checked in; what waited for a hello goes out. */
  #onHello(): void {
    const core = this.#core;
    this.#offline.stop();
    if (core.state.refusedAt) {
      // The broker takes the credentials again: the phone is Kisht's to look after once more.
      const { refusedAt: _accepted, ...accepted } = core.state;
      core.enqueue(() => core.commit(accepted, true)).catch((error: Error) => core.warn(error));
    }
    this.#offline.checkIn();
    this.emit('hello', core.reportedState);
    this.#pendingStart?.resolve();
    this.#pendingStart = undefined;
    this.#reports.flushPending();
  }

  /**
   * Finishes the message being handled, waits briefly (up to 2 s) for unacknowledged publishes, and
   * disconnects. The broker keeps the persistent session, so what is published while the agent is
   * stopped is delivered on the next start(). Safe to call twice or before start().
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop().finally(() => {
      this.#stopping = undefined;
    });
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    const core = this.#core;
    if (!core.client) {
      if (core.connection.kind === 'refused') core.connection = { kind: 'stopped' };
      // A refused connect saves refusedAt on its own: stop() resolves once that is on disk.
      await core.settled();
      return;
    }
    this.#reports.stopTracking();
    this.#offline.stop();
    this.#pendingStart?.reject(new Error('agent stopped before it connected'));
    this.#pendingStart = undefined;
    await core.settled();
    await this.#session.stop();
    core.connection = { kind: 'stopped' };
    // The check-in saved when the connection closed.
    await core.settled();
    this.#offline.stop();
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
    const core = this.#core;
    await core.enqueue(() => core.commit({ ...core.state, sims, isSimReportPending: true }));
    return core.hasSaidHello ? this.#reports.flushSimReport() : false;
  }

  /**
   * Moves the simulated phone (WGS 84 degrees; accuracy in metres, unchanged when left out) and
   * saves it. The next location result or report uses it. Throws for coordinates out of range.
   */
  async setPosition(position: TPositionInput): Promise<void> {
    const core = this.#core;
    const parsed = ZPosition.safeParse({ accuracyM: core.state.position.accuracyM, ...position });
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      throw new Error(`invalid position: ${issues.join('; ')}`);
    }
    await core.enqueue(() => core.commit({ ...core.state, position: parsed.data }));
  }

  /**
   * Publishes a 'report' event of kind 'location' with `fix` (a ZLocationFix; default: a fix of the
   * simulated position taken now) and resolves with it once the broker has it. Rejects when the
   * device is not connected (a location is not worth sending late) or the fix is invalid.
   */
  async reportLocation(fix?: TLocationFix): Promise<TLocationFix> {
    const data = fix ? ZLocationFix.parse(fix) : locationFixOf(this.#core.state.position);
    if (!this.#core.hasSaidHello) throw new Error('cannot report a location: not connected');
    await this.#reports.publishReport('location', data);
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
  enterOfflineCode(code: string, action: TOfflineCodeAction = 'unlock'): Promise<TOfflineCodeOutcome> {
    return this.#offline.enterCode(code, action);
  }

  /**
   * Takes the offline side of a state file another process saved (`kisht-agent offline-code` while
   * this agent runs): the challenge and wrong tries, and every offline event this agent does not
   * know, whose lock or unlock it applies as it happened there. Only a file newer than this
   * agent's state (higher `revision`) counts. Says 'offline' for each new event and reports the
   * pending ones when connected. Resolves whether anything was taken.
   */
  adoptOfflineState(saved: TAgentStateFile): Promise<boolean> {
    return this.#offline.adopt(saved);
  }

  /** True when `pin` is the screen-lock PIN the last change_pin set (false before any). */
  checkDevicePin(pin: string): boolean {
    const stored = this.#core.state.devicePin?.hash;
    return stored !== undefined && stored === devicePinHash(this.deviceId, pin);
  }

  /**
   * The link-based app is being removed from the phone (issue 15; spec §3 uninstall location): it
   * publishes a 'report' of kind 'app_removed' with where the phone is (the simulated position, or
   * both coordinates 'Bypassed' when `hasFix` is false, spec §5), and once the broker has it marks
   * itself uninstalled, stops and says 'uninstalled' (start() refuses from then on). The server
   * records the location, revokes the credentials and moves the customer to uninstall (3).
   * Resolves with the data sent, after the agent stopped. Rejects when not connected (nothing is
   * changed then) or already uninstalled.
   */
  async reportAppRemoved(options: { hasFix?: boolean } = {}): Promise<TAppRemovedData> {
    const core = this.#core;
    if (core.state.uninstalled) throw new DeviceUninstalledError(this.deviceId);
    if (!core.hasSaidHello) throw new Error('cannot report the removal: not connected');
    const fix = locationFixOf(core.state.position);
    const data: TAppRemovedData =
      options.hasFix === false
        ? { latitude: 'Bypassed', longitude: 'Bypassed', at: fix.at }
        : { latitude: fix.latitude, longitude: fix.longitude, accuracyM: fix.accuracyM, at: fix.at };
    await this.#reports.publishReport('app_removed', data);
    await core.enqueue(() => core.commit({ ...core.state, uninstalled: true }, true));
    const stopped = new Promise<void>((resolve) => this.once('uninstalled', resolve));
    this.#uninstall();
    await stopped;
    return data;
  }

  /** Stops for good after an uninstall command was acked; says 'uninstalled' once stopped. */
  #uninstall(): void {
    if (this.#isUninstalling) return;
    this.#isUninstalling = true;
    this.stop()
      .catch((error: Error) => this.emit('warning', error))
      .finally(() => this.emit('uninstalled'));
  }
}

/**
 * Where an enrolment's token and server come from: the QR, the deep link, or the typed code
 * exchanged at the server (exactly one must be given). Link and code problems become EnrolmentError.
 */
const enrolmentSourceOf = async (options: TEnrolOptions): Promise<TEnrolmentSource> => {
  const given = [options.qr, options.link, options.code].filter((value) => value !== undefined);
  if (given.length !== 1) throw new Error('cannot enrol: give exactly one of a QR, a deep link or a code');
  if (options.qr !== undefined) return readQrPayload(options.qr);
  try {
    if (options.link !== undefined) return readDeepLink(options.link);
    return await exchangeEnrolmentCode({
      ...options.code!,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  } catch (error) {
    if (error instanceof LinkEnrolmentError)
      throw new EnrolmentError(error.message, error.code, error.status);
    throw error;
  }
};

const fileExists = async (path: string): Promise<boolean> => {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
};
