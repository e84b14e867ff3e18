import { createHash, type KeyObject } from 'node:crypto';
import { commandSpecByName } from '@kisht/domain/devices/command-catalogue';
import { devicePinProblem, unsealDevicePin } from '@kisht/domain/devices/device-pin';
import { isPolicyCommand, policyChanges } from '@kisht/domain/devices/device-policy';
import {
  INITIAL_POLICY,
  PROTOCOL_VERSION,
  type TCommandMessage,
  type TPolicy,
  type TPolicyVersion,
  type TSyncMessage,
} from '@kisht/domain/devices/protocol.schema';
import { openServerMessage, publicKeyOf } from '@kisht/domain/devices/server-message';
import { checkAdImage } from './ad-image';
import type { AgentCore } from './agent-core';
import type { AgentOffline } from './agent-offline';
import type { AgentReports } from './agent-reports';
import type { AgentSession } from './agent-session';
import { applyCommand, queryResultOf, type TApplied, UNSUPPORTED_COMMAND } from './commands';
import { rememberCommandId, type TAgentStateFile } from './state';

/** SHA-256 hex of "{deviceId}:{pin}": how the simulated phone keeps its screen-lock PIN. */
export const devicePinHash = (deviceId: string, pin: string): string =>
  createHash('sha256').update(`${deviceId}:${pin}`).digest('hex');

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

/**
 * What the server sends (device protocol §5–§7): refuses anything not signed with the server key
 * for this phone; holds everything until the sync answering this connection's hello; then applies
 * the newest policy version, the commands the server still has pending (each once, unless
 * cancelled or past notAfter), and cancels.
 */
export class AgentMessages {
  /** Server clock minus this clock, ms, from the last sync (judges notAfter and issuedAt). */
  #clockOffsetMs = 0;
  /** The server key as a KeyObject, made once. */
  #publicKey: { kid: string; publicKey: KeyObject } | undefined;

  constructor(
    private readonly core: AgentCore,
    private readonly parts: { session: AgentSession; reports: AgentReports; offline: AgentOffline },
  ) {}

  /** The policy version this phone holds (0 before its first). */
  get policyVersion(): number {
    return this.core.state.policy?.version ?? 0;
  }

  /** Handles one message from the command topic (queued with every other state change). */
  async handle(payload: string): Promise<void> {
    // An uninstalled agent is gone: it neither applies nor answers what is still in its session.
    if (this.core.state.uninstalled) return;
    const key = this.#serverKey();
    if (!key) {
      this.#refuse('unknown key: enrolled without a server key', payload);
      return;
    }
    const opened = openServerMessage(payload, key, this.core.deviceId);
    if ('refusal' in opened) {
      this.#refuse(`${opened.refusal}: ${opened.detail}`, payload);
      return;
    }
    const message = opened.message;
    const { connection } = this.core;
    const isHolding = connection.kind === 'connected' || connection.kind === 'awaiting_sync';
    if (message.type === 'sync') {
      if (message.connectionId !== this.core.connectionId) {
        // A sync answers one hello of one connection: an old one replayed says nothing about now.
        this.#refuse('replayed: a sync for another connection', payload);
        return;
      }
      // One sync per hello: another one (a duplicate, or a replay) changes nothing.
      if (!isHolding) return;
      if (message.helloSeq !== undefined && message.helloSeq !== this.parts.session.helloSeq) {
        this.#refuse('replayed: a sync for an earlier hello', payload);
        return;
      }
      await this.#applySync(message);
      return;
    }
    if (isHolding) {
      connection.held.push(message);
      return;
    }
    if (message.type === 'policy') await this.#applyPolicy(message);
    else if (message.type === 'cancel') await this.#applyCancel(message.id);
    // Issued under a policy this phone has not got yet: hold it and ask for a sync.
    else if (message.policyVersion > this.policyVersion) this.parts.session.resync([message]);
    else await this.#applyCommandMessage(message);
  }

  #refuse(reason: string, payload: string): void {
    this.core.emitter.emit('invalidMessage', { reason, payload });
  }

  /**
   * A sync for this connection: the clock offset from the server's time, then the newest policy of
   * the sync and of the messages held since the connection opened, then the cancels. The commands
   * the sync lists follow it and are applied as they come; a held command it does not list is left
   * alone (cancelled, expired or finished meanwhile; or written after the list was read, and then
   * sent again by the server's re-send), acked again if applied.
   */
  async #applySync(sync: TSyncMessage): Promise<void> {
    const held = this.parts.session.takeHeld();
    const serverTime = Date.parse(sync.serverTime);
    if (!Number.isNaN(serverTime)) this.#clockOffsetMs = serverTime - Date.now();
    let newest: TPolicyVersion = sync.policy;
    for (const message of held) {
      if (message.type === 'policy' && message.version > newest.version) newest = message;
    }
    await this.#applyPolicy(newest);
    for (const message of held) if (message.type === 'cancel') await this.#applyCancel(message.id);
    const pending = new Set(sync.commandIds);
    for (const message of held) {
      if (message.type !== 'command' || pending.has(message.id)) continue;
      if (this.core.state.appliedCommandIds.includes(message.id)) await this.#applyCommandMessage(message);
    }
    this.core.emitter.emit('synced', { policyVersion: this.policyVersion, commandIds: sync.commandIds });
  }

  /**
   * Applies a policy version (device protocol §6) if it is newer than the one held: takes its
   * offline limit, paid-through date (§12.5) and lock screen, runs the commands that move each feature from the held policy
   * to this one (the lock from the phone's actual lock state; an offline code or offline lock made after this
   * version was issued keeps its lock state), saves, acks each command the version carries
   * (received, then done, or failed for a feature that could not be applied, which keeps its held
   * entry so the same edit is tried again), and reports the version applied. The version held again: each of its commands gets the
   * answer it got then. An older version changes nothing.
   */
  async #applyPolicy(version: TPolicyVersion): Promise<void> {
    const { core } = this;
    if (version.version < this.policyVersion) return;
    if (version.version === this.policyVersion) {
      this.#answerCommands(version.commands, core.state.policy?.failures ?? {}, 'duplicate');
      return;
    }
    const heldPolicy = core.state.policy?.policy ?? INITIAL_POLICY;
    const issuedAt = Date.parse(version.issuedAt) - this.#clockOffsetMs;
    const isLockOverridden = core.state.offlineEvents.some((event) => Date.parse(event.at) > issuedAt);
    const wanted: TPolicy = isLockOverridden
      ? { ...version.policy, locked: core.state.isLocked }
      : version.policy;
    // The lock is compared with the phone's actual lock state (an offline code may have changed it).
    const changes = policyChanges({ ...heldPolicy, locked: core.state.isLocked }, wanted);
    for (const command of version.commands) core.publishAck(command.id, 'received');
    let state = core.state;
    const failures = new Map<string, string>();
    for (const change of changes) {
      const applied = applyCommand(state, change);
      if ('error' in applied) failures.set(change.feature, applied.error);
      else state = applied.state;
    }
    // The offline limit the version carries (left out: keep the one from enrolment).
    const limit = version.policy.offlineLockAfterMs;
    const isLimitChanged = limit !== undefined && limit !== (state.credentials.offlineLockAfterMs ?? null);
    if (isLimitChanged)
      state = { ...state, credentials: { ...state.credentials, offlineLockAfterMs: limit } };
    const wasTracking = core.state.controls.tracking === true;
    // The lock screen the version carries (§9.2; left out: keep the one held). It always allows
    // emergency calls: the schema takes nothing else, so no version can turn them off.
    const lockScreen =
      version.policy.lockScreen === undefined ? heldPolicy.lockScreen : version.policy.lockScreen;
    // What this phone now holds: the version, with the features it could not apply as they were.
    const applied: TPolicy = {
      locked: state.isLocked,
      controls: { ...version.policy.controls },
      ...(limit === undefined ? {} : { offlineLockAfterMs: limit }),
      // The paid-through date (§12.5) is the version's own: left out, the version has none.
      ...(version.policy.paidThrough ? { paidThrough: version.policy.paidThrough } : {}),
      ...(lockScreen === undefined ? {} : { lockScreen }),
    };
    for (const feature of failures.keys()) {
      const before = heldPolicy.controls[feature];
      if (before) applied.controls[feature] = before;
      else delete applied.controls[feature];
    }
    let hasChanged: boolean;
    try {
      hasChanged = await core.commit(
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
      core.warn(error as Error);
      for (const command of version.commands)
        core.fail(command, `could not save state: ${(error as Error).message}`);
      return;
    }
    this.#answerCommands(version.commands, Object.fromEntries(failures), 'done');
    core
      .publishEvent({
        v: PROTOCOL_VERSION,
        type: 'applied',
        version: version.version,
        ...(failures.size > 0 ? { failures: Object.fromEntries(failures) } : {}),
        state: core.reportedState,
        at: new Date().toISOString(),
        seq: core.nextSeq(),
        connectionId: core.connectionId,
      })
      .catch((error: Error) => core.warn(error));
    if (hasChanged) core.emitter.emit('state', core.reportedState);
    core.emitter.emit('policy', { version: version.version, policy: version.policy });
    this.#followTracking(wasTracking);
    // The version may carry a new limit or paid-through date (§12.2, §12.5): re-arm both.
    this.parts.offline.sync();
  }

  /**
   * Acks the commands a policy version carries: failed with the reason for a feature in
   * `failures` (or an unknown name), else done, said as `result` (done now, or a duplicate of the
   * version held).
   */
  #answerCommands(
    commands: { id: string; name: string }[],
    failures: Record<string, string>,
    result: 'done' | 'duplicate',
  ): void {
    const { core } = this;
    for (const command of commands) {
      const feature = commandSpecByName(command.name)?.spec.feature;
      const failure = feature === undefined ? UNSUPPORTED_COMMAND : failures[feature];
      if (failure) core.fail(command, failure);
      else {
        core.publishAck(command.id, 'done');
        core.emitter.emit('command', {
          id: command.id,
          name: command.name,
          result,
          state: core.reportedState,
        });
      }
    }
  }

  /** Tracking just turned on or off: the timer follows; turned on, the first position goes now. */
  #followTracking(wasTracking: boolean): void {
    const isTracking = this.core.state.controls.tracking === true;
    if (isTracking === wasTracking) return;
    this.parts.reports.syncTracking();
    if (isTracking) this.parts.reports.reportPositionInBackground();
  }

  /**
   * A cancel from the server: remembers the id, so the command is never applied, and acks dropped;
   * if this phone had applied it already, acks done again (so the history shows it ran).
   */
  async #applyCancel(id: string): Promise<void> {
    const cancelled = this.core.state.cancelledCommandIds ?? [];
    if (!cancelled.includes(id)) {
      await this.core.commit(
        { ...this.core.state, cancelledCommandIds: rememberCommandId(cancelled, id) },
        true,
      );
    }
    if (!this.core.state.appliedCommandIds.includes(id))
      this.core.publishAck(id, 'dropped', { error: 'cancelled' });
    else this.core.publishAck(id, 'done');
  }

  /** Acks a command dropped (not applied) with the reason, and says so. */
  #drop(command: { id: string; name: string }, reason: string): void {
    this.core.publishAck(command.id, 'dropped', { error: reason });
    this.core.emitter.emit('command', {
      id: command.id,
      name: command.name,
      result: 'dropped',
      error: reason,
      state: this.core.reportedState,
    });
  }

  /**
   * One-shot command (device protocol §7): applied once per id, saved before acking done. Dropped
   * when cancelled or past notAfter by the server-corrected clock; a lock or toggle name is refused
   * (they travel as policies).
   */
  async #applyCommandMessage(command: TCommandMessage): Promise<void> {
    const { core } = this;
    if (core.state.appliedCommandIds.includes(command.id)) {
      // Nothing is applied again; a query (location, sim_info) answers from the current state, so a
      // server whose first done ack was lost still gets a result.
      const output = queryResultOf(command.name, core.state);
      core.publishAck(command.id, 'done', { result: output });
      core.emitter.emit('command', {
        id: command.id,
        name: command.name,
        result: 'duplicate',
        ...(output ? { output } : {}),
        state: core.reportedState,
      });
      return;
    }
    if (core.state.cancelledCommandIds?.includes(command.id)) {
      this.#drop(command, 'cancelled');
      return;
    }
    if (Date.now() + this.#clockOffsetMs > Date.parse(command.notAfter)) {
      this.#drop(command, `past notAfter ${command.notAfter}`);
      return;
    }
    if (isPolicyCommand(command.name)) {
      core.fail(command, `${command.name} is a policy change, not a command`);
      return;
    }

    core.publishAck(command.id, 'received');
    // An ad's image is fetched and its digest checked before the ad is shown (device protocol, show_ad).
    const imageError = command.name === 'show_ad' ? await checkAdImage(command.args) : null;
    const applied = imageError
      ? { error: imageError }
      : command.name === 'change_pin'
        ? await this.#applyPinChange(command)
        : command.name === 'set_offline_limit'
          ? applyOfflineLimit(core.state, command.args)
          : applyCommand(core.state, command);
    if ('error' in applied) {
      // Not remembered as applied: a redelivery fails the same way and changes nothing.
      core.fail(command, applied.error);
      return;
    }

    let hasChanged: boolean;
    try {
      hasChanged = await core.commit(
        { ...applied.state, appliedCommandIds: rememberCommandId(core.state.appliedCommandIds, command.id) },
        true,
      );
    } catch (error) {
      core.warn(error as Error);
      core.fail(command, `could not save state: ${(error as Error).message}`);
      return;
    }
    core.publishAck(command.id, 'done', { result: applied.result });
    core.emitter.emit('command', {
      id: command.id,
      name: command.name,
      result: 'done',
      ...(applied.result ? { output: applied.result } : {}),
      state: core.reportedState,
    });
    if (hasChanged) core.emitter.emit('state', core.reportedState);
    if (command.name === 'set_offline_limit') this.parts.offline.sync();
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
        keyHex: await this.core.deviceKey(),
        deviceId: this.core.deviceId,
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
        ...this.core.state,
        devicePin: { hash: devicePinHash(this.core.deviceId, pin), changedAt: now },
        actionsAppliedAt: { ...this.core.state.actionsAppliedAt, change_pin: now },
      },
    };
  }

  /** The server key from enrolment as a KeyObject, or undefined without one (computed once). */
  #serverKey(): { kid: string; publicKey: KeyObject } | undefined {
    const stored = this.core.state.credentials.serverKey;
    if (!stored) return undefined;
    this.#publicKey ??= { kid: stored.kid, publicKey: publicKeyOf(stored) };
    return this.#publicKey;
  }
}
