import type { EventEmitter } from 'node:events';
import { offlineCodeKey, type TOfflineCodeAction } from '@kisht/domain/devices/offline-code';
import {
  PROTOCOL_VERSION,
  type TAckEvent,
  type TDeviceEvent,
  type TPolicy,
  type TReportEvent,
  type TReportedState,
  type TServerMessage,
} from '@kisht/domain/devices/protocol.schema';
import type { MqttClient } from 'mqtt';
import packageJson from '../package.json' with { type: 'json' };
import { reportedStateOf } from './commands';
import type { TAgentStateFile, TOfflineEvent } from './state';
import { saveSharedState } from './state-sharing';

/**
 * What the parts of the reference agent share (agent.ts composes them): the state and how it is
 * saved, the connection, and how events go out. The parts are the session (agent-session.ts),
 * the server's messages (agent-messages.ts: policies, commands, cancels, syncs), the offline side
 * (agent-offline.ts: codes and the offline limit) and reports (agent-reports.ts).
 */

/** Reported as `state.agentVersion` in every hello, ack and report. */
export const AGENT_VERSION: string = packageJson.version;

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

/** What happened to one command message (or one command a policy version carried). */
export type TCommandOutcome = {
  id: string;
  /** The command name as received (unknown names are answered with a failed ack). */
  name: string;
  /**
   * `done`: applied now and acked done. `failed`: not applied, acked failed with `error`.
   * `duplicate`: this id was applied before; nothing changed and done was acked again.
   * `dropped`: not applied, acked dropped: cancelled or past its notAfter.
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

/**
 * The agent's connection, one state at a time (device protocol §2, §6):
 * - `stopped`: not started, or stopped.
 * - `connecting`: a CONNECT is under way (`attempt` counts retries since the last connection).
 * - `connected`: CONNACK came; subscribing and saying hello. Messages from the session are held.
 * - `awaiting_sync`: the broker has the hello; messages are held until the sync for it arrives,
 *   and the hello is repeated without one (`timer`): after SYNC_WAIT_MS, then each wait twice as
 *   long up to SYNC_WAIT_MAX_MS.
 * - `synced`: messages are applied as they come.
 * - `refused`: the broker refused the credentials (released or removed): no more attempts.
 */
export type TConnection =
  | { kind: 'stopped' }
  | { kind: 'connecting'; client: MqttClient; attempt: number }
  | { kind: 'connected'; client: MqttClient; held: TServerMessage[] }
  | { kind: 'awaiting_sync'; client: MqttClient; held: TServerMessage[]; timer?: NodeJS.Timeout }
  | { kind: 'synced'; client: MqttClient }
  | { kind: 'refused'; error: Error };

/** The shared internals of one agent (see the module comment). */
export class AgentCore {
  #state: TAgentStateFile;
  /** State changes (messages, setSims, setPosition, offline codes) run one at a time, in order. */
  #queue: Promise<void> = Promise.resolve();
  /** The seq of the last event published (protocol §4). */
  #lastSeq = 0;
  /** The offline-code key (SHA-256 hex of the device secret), computed once. */
  #deviceKey: Promise<string> | undefined;
  /** The connection (see TConnection). */
  connection: TConnection = { kind: 'stopped' };
  /** The id of the current (or next) MQTT connection: its hello, events and `gone` will carry it. */
  connectionId = '';

  constructor(
    readonly statePath: string,
    state: TAgentStateFile,
    readonly emitter: EventEmitter<TDeviceAgentEvents>,
  ) {
    this.#state = state;
  }

  get state(): TAgentStateFile {
    return this.#state;
  }

  get deviceId(): string {
    return this.#state.credentials.deviceId;
  }

  /** What the device reports in hello, ack and report events (see reportedStateOf). */
  get reportedState(): TReportedState {
    return reportedStateOf(this.#state, AGENT_VERSION);
  }

  /** The MQTT client of the current connection attempt or connection, if any. */
  get client(): MqttClient | undefined {
    const { connection } = this;
    return 'client' in connection ? connection.client : undefined;
  }

  /** True from CONNACK until the connection closes. */
  get isConnected(): boolean {
    return ['connected', 'awaiting_sync', 'synced'].includes(this.connection.kind);
  }

  /** True once this connection's hello reached the broker: reports may follow. */
  get hasSaidHello(): boolean {
    return this.connection.kind === 'awaiting_sync' || this.connection.kind === 'synced';
  }

  /** Runs `task` after every state change queued before it; the queue carries on if it fails. */
  enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Resolves once everything queued so far has run. */
  settled(): Promise<void> {
    return this.#queue;
  }

  /**
   * Saves `next` (merged with what another writer saved meanwhile; see saveSharedState) and makes
   * it the state. Says 'state' when the reported state changed, unless `isQuiet` (the caller says it
   * later); returns whether it changed.
   */
  async commit(next: TAgentStateFile, isQuiet = false): Promise<boolean> {
    const before = JSON.stringify(this.reportedState);
    this.#state = await saveSharedState(this.statePath, this.#state, next);
    const hasChanged = JSON.stringify(this.reportedState) !== before;
    if (hasChanged && !isQuiet) this.emitter.emit('state', this.reportedState);
    return hasChanged;
  }

  /** A warning the agent carries on after. */
  warn(error: Error): void {
    this.emitter.emit('warning', error);
  }

  /** The offline-code key (SHA-256 hex of the device secret), which also keys the sealed PIN. */
  deviceKey(): Promise<string> {
    this.#deviceKey ??= offlineCodeKey(this.#state.credentials.deviceSecret);
    return this.#deviceKey;
  }

  /**
   * The next event seq (protocol §4): microseconds since the epoch, or one more than the last when
   * the clock has not moved on, so it keeps increasing across restarts of a phone whose clock does.
   */
  nextSeq(): number {
    this.#lastSeq = Math.max(this.#lastSeq + 1, Date.now() * 1000);
    return this.#lastSeq;
  }

  /** Publishes an event (QoS 1); resolves on the broker's PUBACK. Rejects when not started. */
  publishEvent(event: TDeviceEvent, client: MqttClient | undefined = this.client): Promise<void> {
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
  publishAck(
    commandId: string,
    status: TAckEvent['status'],
    extra: { error?: string; result?: Record<string, unknown> | undefined } = {},
  ): void {
    const client = this.client;
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
      seq: this.nextSeq(),
      connectionId: this.connectionId,
    };
    client.publish(this.#state.credentials.evtTopic, JSON.stringify(ack), { qos: 1 }, (publishError) => {
      if (publishError) this.warn(publishError);
    });
  }

  /** Acks a command failed with `error` and says so. */
  fail(command: { id: string; name: string }, error: string): void {
    this.publishAck(command.id, 'failed', { error });
    this.emitter.emit('command', {
      id: command.id,
      name: command.name,
      result: 'failed',
      error,
      state: this.reportedState,
    });
  }
}
