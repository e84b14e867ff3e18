import { COMMAND_CATALOGUE, type TCommandSpec } from '@kisht/domain/devices/command-catalogue';
import { sealDevicePin } from '@kisht/domain/devices/device-pin';
import {
  OFFLINE_CHALLENGE_DIGITS,
  OFFLINE_CODE_MAX_WRONG_TRIES,
  offlineCodeFor,
  offlineCodeKey,
  offlineCodeSlot,
  type TOfflineCodeAction,
} from '@kisht/domain/devices/offline-code';
import {
  type TAckEvent,
  type THelloEvent,
  type TPolicyMessage,
  type TReportEvent,
  type TReportedState,
  type TServerMessage,
  type TSimSlot,
  ZLocationFix,
  ZOfflineLockData,
  ZSimSlot,
} from '@kisht/domain/devices/protocol.schema';
import { generateServerKey, privateKeyOf, signServerMessage } from '@kisht/domain/devices/server-message';
import { z } from 'zod';
import {
  CONFORMANCE_LOCK_SCREEN,
  commandMessage,
  startConformanceBroker,
  type TConformanceBroker,
  type TConformanceCredentials,
  type TEventRecord,
  uuidV7,
} from './harness';

/**
 * The device protocol conformance suite (docs/device-protocol.md, protocol version 2): plays the
 * server's role against any device implementation over MQTT and checks that it says hello, acks,
 * applies every command of COMMAND_CATALOGUE once, takes only messages signed for it, applies the
 * newest policy version and nothing held before its sync, drops stale and cancelled commands,
 * survives restarts with its state, and publishes only valid events.
 */

export type { TConformanceCredentials } from './harness';

/**
 * How the suite drives the device under test. The suite calls start() once with new credentials,
 * then stop() and restart() around the offline checks, and stop() at the end. Only start() is
 * required: a check that needs a hook the adapter lacks is reported skipped.
 */
export type TDeviceAdapter = {
  /**
   * Starts the device as if it had just enrolled with these credentials (a fresh device: its state
   * is its own business, the suite reads it from hello). May resolve before the device connects.
   */
  start: (credentials: TConformanceCredentials) => Promise<void>;
  /**
   * Stops the device (closes its MQTT connection), keeping its durable state. Safe to call twice.
   * Optional: without it the checks that take the device offline (and restart it) are skipped, as
   * for a phone the suite does not control.
   */
  stop?: () => Promise<void>;
  /**
   * Starts the device again after stop(), from its durable state (a reboot). Default: start() with
   * the same credentials, which must then resume from the durable state too.
   */
  restart?: () => Promise<void>;
  /**
   * Changes the SIM cards of the device (the user swaps a SIM), running or stopped. Optional: the
   * SIM report checks are skipped without it.
   */
  setSims?: (sims: TSimSlot[]) => Promise<void>;
  /**
   * The offline challenge the device shows now (OFFLINE_CHALLENGE_DIGITS digits), running or
   * stopped. Optional, with enterOfflineCode: the offline code checks are skipped without both.
   */
  offlineChallenge?: () => Promise<string>;
  /**
   * Enters an offline code on the device (the user types it; no network needed), running or
   * stopped, and says what the device made of it: `accepted` (applied, challenge burnt), `wrong`,
   * or `challenge_changed` (wrong, and the last try for that challenge).
   */
  enterOfflineCode?: (
    code: string,
    action: TOfflineCodeAction,
  ) => Promise<'accepted' | 'wrong' | 'challenge_changed'>;
  /**
   * True when `pin` opens the device's screen lock now (after change_pin). Optional: without it the
   * change_pin checks only check the acks.
   */
  checkDevicePin?: (pin: string) => Promise<boolean>;
  /**
   * What the device's lock screen shows now (device protocol §9.2): its text, and whether an
   * emergency call can be made from it; null while no lock screen shows (unlocked). Optional: the
   * lock screen check is skipped without it.
   */
  lockScreen?: () => Promise<{ text: string; isEmergencyCallAllowed: boolean } | null>;
};

/** Options of runConformanceChecks. */
export type TConformanceOptions = {
  /** How long to wait for each expected event, in milliseconds. Default 10 000. */
  timeoutMs?: number;
  /** How long to watch for unexpected extra acks after a command ends, in milliseconds. Default 300. */
  settleMs?: number;
  /** Broker transport: 'tcp' (mqtt://) or 'ws' (ws://…/mqtt, as the API server serves it). Default 'tcp'. */
  transport?: 'tcp' | 'ws';
  /** Run the uninstall check (last: the device stops for good). Default true. */
  includeUninstall?: boolean;
  /**
   * When set, tracking_on must bring at least two location reports within this many milliseconds,
   * and tracking_off must stop them. Default: the tracking report check is skipped (a real device's
   * interval is minutes).
   */
  trackingReportWithinMs?: number;
  /** Skip every check after the first failure. Default false. */
  stopOnFailure?: boolean;
  /**
   * Runs only the checks whose name it accepts (the others are reported skipped). The first check
   * (connect) always runs: it starts the device.
   */
  filter?: (name: string) => boolean;
  /** Called with each result as soon as its check ends (progress output). */
  onResult?: (result: TConformanceCheckResult) => void;
  /**
   * A broker the caller started (startConformanceBroker), e.g. to hand its credentials to a device
   * before the suite runs; the suite then neither starts nor closes one, and ignores `transport`.
   */
  broker?: TConformanceBroker;
};

/** The outcome of one named check. */
export type TConformanceCheckResult = {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it failed or was skipped. */
  error?: string;
  durationMs: number;
};

/** Thrown by a check that cannot run against this adapter or these options: reported as skipped. */
class SkipCheck extends Error {}

/** Thrown by a check when the device does not conform. */
class CheckFailure extends Error {}

const fail = (message: string): never => {
  throw new CheckFailure(message);
};

/** Arguments the suite sends with each `on` command that takes some (valid per the catalogue). */
export const SAMPLE_ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  app_lock: { packages: ['com.whatsapp', 'com.instagram.android'] },
  app_hide_unhide: { packages: ['com.android.chrome'] },
  wallpaper: { text: 'Your EMI of Rs 2,500 is due on 5 March' },
  lost_mode: { message: 'This phone is financed by Kisht. Please call.', phone: '+919876543210' },
  antitheft_lost_mode: { message: 'Lost phone: please return it', phone: '9876543210' },
  emi_alert: {
    amountPaise: 250_000,
    dueDate: '2026-03-05',
    overduePaise: 0,
    message: 'Your EMI is due soon',
  },
  customer_message: { title: 'EMI received', text: 'Thank you, your EMI is received.', from: 'Ravi Mobiles' },
  advertisement: {
    advertisementId: 7,
    title: 'Diwali offer',
    text: 'Earbuds at half price with every phone this week.',
    from: 'Ravi Mobiles',
  },
};

/** SIM cards the SIM checks put in the phone. */
const SIMS_A: TSimSlot[] = [
  { slot: 1, iccid: '89914509000012345678', operator: 'Airtel' },
  { slot: 2, iccid: null, operator: null },
];
const SIMS_B: TSimSlot[] = [
  { slot: 1, iccid: '89911000000098765432', operator: 'Vi' },
  { slot: 2, iccid: '8991200000000000001', operator: 'BSNL' },
];

const ZSimInfoResult = z.object({ sims: z.array(ZSimSlot) });

const isFinal = (ack: TAckEvent) => ack.status !== 'received';

/** A one-shot command with no effect on the state: the suite's probe that the device keeps working. */
const PROBE_COMMAND = 'miui_permission';

/** How far in the past a stale command's notAfter is, ms. */
const STALE_BY_MS = 60_000;

/** What a check can do: send commands, read and wait for events, stop and restart the device. */
class CheckContext {
  isRunning = false;

  constructor(
    readonly broker: TConformanceBroker,
    readonly adapter: TDeviceAdapter,
    readonly timeoutMs: number,
    readonly settleMs: number,
  ) {}

  get credentials(): TConformanceCredentials {
    return this.broker.credentials;
  }

  get deviceId(): string {
    return this.broker.credentials.deviceId;
  }

  /** The server's side (policy, commands, cancels, syncs). */
  get server() {
    return this.broker.server;
  }

  /** How many times each command id reached the device in a signed message (see TConformanceBroker). */
  get deliveries(): ReadonlyMap<string, number> {
    return this.broker.deliveries;
  }

  /** Sequence number of the newest event so far (0 before any). */
  get seq(): number {
    return this.broker.events.length;
  }

  /** Valid events after `afterSeq`. */
  eventsAfter(afterSeq: number): (TEventRecord & { event: NonNullable<TEventRecord['event']> })[] {
    return this.broker.events.filter(
      (record): record is TEventRecord & { event: NonNullable<TEventRecord['event']> } =>
        record.seq > afterSeq && record.event !== undefined,
    );
  }

  /** The state of the newest valid event that carries one (all but a `gone` will), or undefined before any. */
  latestState(): TReportedState | undefined {
    const newest = this.eventsAfter(0).findLast(({ event }) => event.type !== 'gone')?.event;
    return newest && newest.type !== 'gone' ? newest.state : undefined;
  }

  /** Acks of command `id` after `afterSeq`, in arrival order. */
  acksOf(id: string, afterSeq = 0): TAckEvent[] {
    return this.eventsAfter(afterSeq).flatMap(({ event }) =>
      event.type === 'ack' && event.commandId === id ? [event] : [],
    );
  }

  hellosAfter(afterSeq: number): THelloEvent[] {
    return this.eventsAfter(afterSeq).flatMap(({ event }) => (event.type === 'hello' ? [event] : []));
  }

  reportsAfter(afterSeq: number, kind: TReportEvent['kind']): (TReportEvent & { seq: number })[] {
    return this.eventsAfter(afterSeq).flatMap(({ seq, event }) =>
      event.type === 'report' && event.kind === kind ? [{ ...event, seq }] : [],
    );
  }

  /** Polls `check` every 10 ms until it returns a value; fails the check after timeoutMs. */
  async waitFor<T>(check: () => T | undefined, what: string, timeoutMs = this.timeoutMs): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) return fail(`no ${what} within ${timeoutMs} ms`);
      await sleep(10);
    }
  }

  /**
   * Sends a command as the server does (a lock/unlock or toggle as a new policy version carrying
   * it, anything else as a signed command message, QoS 1); returns its id.
   */
  async send(
    name: string,
    args: Record<string, unknown> = {},
    id = uuidV7(),
    notAfter?: string,
  ): Promise<string> {
    await this.broker.publishCommand({
      ...commandMessage(name, args, id),
      ...(notAfter ? { notAfter } : {}),
    });
    return id;
  }

  /** Waits until the server no longer has policy command `id` pending (it took its final ack). */
  async waitUntilServerForgot(id: string): Promise<void> {
    await this.waitFor(
      () =>
        this.server.policyOf(this.deviceId).commands.some((command) => command.id === id) ? undefined : true,
      `server taking the final ack of ${id}`,
    );
  }

  /** Publishes a raw payload on the device's cmd topic (a replay, a forgery). */
  async publish(payload: string): Promise<void> {
    await this.broker.publishCommand(payload);
  }

  /** The signed policy message that carried command `id` (the newest), as sent. Fails if none. */
  policySent(id: string): { payload: string; message: TPolicyMessage } {
    const found = this.broker.sent.findLast(
      (record) =>
        record.message?.type === 'policy' && record.message.commands.some((command) => command.id === id),
    );
    if (!found) return fail(`the suite sent no policy carrying command ${id}`);
    return { payload: found.payload, message: found.message as TPolicyMessage };
  }

  /**
   * The signed payload of a probe command `id` the server never sent through its own bookkeeping
   * (applicable for an hour, under `policyVersion`), to publish straight to the device.
   */
  signedProbe(id: string, policyVersion: number, issuedAt = new Date().toISOString()): string {
    return this.sign({
      type: 'command',
      deviceId: this.deviceId,
      id,
      name: PROBE_COMMAND,
      args: {},
      issuedAt,
      notAfter: new Date(Date.now() + 3_600_000).toISOString(),
      policyVersion,
    });
  }

  /** Signs `message` with the server key (a message the server never sent, e.g. one to replay). */
  sign(message: TServerMessage): string {
    return this.server.sign(message);
  }

  /** Statuses of the acks of `id` after `afterSeq`, in arrival order. */
  statusesOf(id: string, afterSeq = 0): TAckEvent['status'][] {
    return this.acksOf(id, afterSeq).map((ack) => ack.status);
  }

  /** The first valid event after `afterSeq` whose state says locked. */
  lockedAfter(afterSeq: number): TEventRecord | undefined {
    return this.eventsAfter(afterSeq).find(({ event }) => event.type !== 'gone' && event.state.isLocked);
  }

  /**
   * Applies the probe command (a one-shot with no effect) and waits for its done ack: the device
   * still works, and has handled everything sent before it.
   */
  async probe(): Promise<void> {
    await this.apply(PROBE_COMMAND);
  }

  /**
   * Waits for the first hello after `afterSeq` and the sync the server published for its
   * connection (messages published from now on reach the device after that sync). Returns the hello.
   */
  async waitForSync(afterSeq: number): Promise<THelloEvent> {
    const hello = await this.waitFor(() => this.hellosAfter(afterSeq)[0], 'hello');
    await this.waitFor(
      () =>
        this.broker.sent.some(
          ({ message }) => message?.type === 'sync' && message.connectionId === hello.connectionId,
        )
          ? true
          : undefined,
      'sync answering the hello',
    );
    return hello;
  }

  /** Waits for the `count`-th final ack (done or failed) of `id` after `afterSeq`. */
  waitForFinal(id: string, what: string, afterSeq = 0, count = 1): Promise<TAckEvent> {
    return this.waitFor(() => this.acksOf(id, afterSeq).filter(isFinal)[count - 1], `final ack of ${what}`);
  }

  /**
   * Sends a command the device should apply and checks it acks `received`, then `done` (and
   * nothing else, when `isSettled`). Returns the done ack.
   */
  async apply(name: string, args: Record<string, unknown> = {}, isSettled = false): Promise<TAckEvent> {
    const afterSeq = this.seq;
    const id = await this.send(name, args);
    const final = await this.waitForFinal(id, `${name} (${id})`, afterSeq);
    if (final.status !== 'done')
      fail(`${name} was acked ${final.status}: ${final.error ?? 'no error given'}`);
    if (isSettled) await sleep(this.settleMs);
    const acks = this.acksOf(id, afterSeq).map((ack) => ack.status);
    if (acks[0] !== 'received' || acks[1] !== 'done' || (isSettled && acks.length !== 2)) {
      fail(`${name} was acked [${acks.join(', ')}], expected [received, done]${isSettled ? '' : ' first'}`);
    }
    return final;
  }

  /** Waits until the broker sees the device connected (e.g. after a reboot or a dropped connection). */
  async waitUntilConnected(): Promise<void> {
    await this.waitFor(() => (this.broker.isConnected() ? true : undefined), 'connection of the device');
  }

  /** The adapter's stop(); skips the check when it has none (call before changing anything). */
  requireStop(): void {
    if (!this.adapter.stop) throw new SkipCheck('the adapter cannot stop and restart the device (no stop)');
  }

  /** Stops the device and waits until the broker has seen it go. */
  async stopDevice(): Promise<void> {
    this.requireStop();
    await this.adapter.stop!();
    this.isRunning = false;
    await this.waitFor(() => (this.broker.isConnected() ? undefined : true), 'disconnect after stop()');
  }

  /** Starts the device again from its durable state; returns the seq before it did. */
  async restartDevice(): Promise<number> {
    const afterSeq = this.seq;
    if (this.adapter.restart) await this.adapter.restart();
    else await this.adapter.start(this.credentials);
    this.isRunning = true;
    return afterSeq;
  }

  /** After a check that may have stopped the device: start it again so the next checks can run. */
  async ensureRunning(): Promise<void> {
    if (!this.isRunning) await this.restartDevice();
  }

  /** The adapter's offline code hooks; skips the check when it has not both. */
  offlineHooks(): Required<Pick<TDeviceAdapter, 'offlineChallenge' | 'enterOfflineCode'>> {
    const { offlineChallenge, enterOfflineCode } = this.adapter;
    if (!offlineChallenge || !enterOfflineCode) {
      throw new SkipCheck('the adapter has no offlineChallenge and enterOfflineCode');
    }
    return { offlineChallenge, enterOfflineCode };
  }

  /** The challenge the device shows; fails unless it is OFFLINE_CHALLENGE_DIGITS digits. */
  async challenge(): Promise<string> {
    const challenge = await this.offlineHooks().offlineChallenge();
    if (!new RegExp(`^\\d{${OFFLINE_CHALLENGE_DIGITS}}$`).test(challenge)) {
      fail(`the offline challenge "${challenge}" is not ${OFFLINE_CHALLENGE_DIGITS} digits`);
    }
    return challenge;
  }

  /** The code the server would issue now for `challenge` and `action` (key: SHA-256 of the secret). */
  async offlineCode(challenge: string, action: TOfflineCodeAction): Promise<string> {
    return offlineCodeFor({
      keyHex: await offlineCodeKey(this.credentials.deviceSecret),
      deviceId: this.credentials.deviceId,
      challenge,
      action,
      slot: offlineCodeSlot(Date.now()),
    });
  }

  /** Enters a valid code for the shown challenge; fails unless accepted. Returns the challenge and code. */
  async acceptOfflineCode(action: TOfflineCodeAction): Promise<{ challenge: string; code: string }> {
    const challenge = await this.challenge();
    const code = await this.offlineCode(challenge, action);
    const result = await this.offlineHooks().enterOfflineCode(code, action);
    if (result !== 'accepted')
      fail(`a valid ${action} code for challenge ${challenge} was answered ${result}`);
    return { challenge, code };
  }

  /** The 'offline_lock' report of the code accepted for `challenge`, after `afterSeq`. */
  offlineCodeReport(afterSeq: number, challenge: string): (TReportEvent & { seq: number }) | undefined {
    return this.reportsAfter(afterSeq, 'offline_lock').find(
      (report) => report.data.source === 'offline_code' && report.data.challenge === challenge,
    );
  }

  /** Fails when an 'offline_lock' report after `afterSeq` was published but is not a valid event. */
  failOnInvalidOfflineReport(afterSeq: number): void {
    const invalid = this.broker.events.find(
      (record) => record.seq > afterSeq && record.error && record.payload.includes('offline_lock'),
    );
    if (invalid)
      fail(`an offline_lock report is not a valid ZDeviceEvent (${invalid.error}): ${invalid.payload}`);
  }
}

/**
 * Fails unless `report` (found by its data.source and data.challenge, see offlineCodeReport) is the
 * offline_lock report of an accepted `action` code: its action, a valid `at`, and the state after.
 */
const checkOfflineCodeReport = (report: TReportEvent, action: TOfflineCodeAction): void => {
  const { data } = report;
  if (data.action !== action)
    fail(`the offline_lock report says action ${String(data.action)}, not ${action}`);
  if (typeof data.at !== 'string' || Number.isNaN(Date.parse(data.at))) {
    fail(`the offline_lock report has no valid data.at: ${JSON.stringify(data)}`);
  }
  if (report.state.isLocked !== (action === 'lock')) {
    fail(`the offline_lock report of an accepted ${action} code carries isLocked ${report.state.isLocked}`);
  }
};

/** A code that is surely wrong for `code`: its last digit changed. */
const wrongCodeFor = (code: string): string => `${code.slice(0, -1)}${(Number(code.at(-1)) + 1) % 10}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The on/off state a toggle's feature has in `state` (lock: isLocked), or undefined if not reported. */
const toggleStateOf = (spec: TCommandSpec, state: TReportedState): boolean | undefined =>
  spec.feature === 'lock' ? state.isLocked : state.controls?.[spec.feature];

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Sorted by slot, for comparing SIM lists. */
const bySlot = (sims: readonly TSimSlot[]) => [...sims].sort((a, b) => a.slot - b.slot);

type TCheck = { name: string; run: (ctx: CheckContext) => Promise<void> };

/** The args the suite sends with `spec`'s on command; fails if the suite has none that are valid. */
const sampleArgsFor = (spec: TCommandSpec): Record<string, unknown> => {
  const args = SAMPLE_ARGS[spec.feature] ?? {};
  if (!spec.args.safeParse(args).success) {
    fail(`the suite has no valid sample args for ${spec.on}: add them to SAMPLE_ARGS`);
  }
  return args;
};

const catalogueCheck = (spec: TCommandSpec): TCheck => ({
  name: spec.off ? `catalogue: ${spec.on} / ${spec.off}` : `catalogue: ${spec.on}`,
  run: async (ctx) => {
    const args = sampleArgsFor(spec);
    if (spec.kind === 'toggle') {
      const on = await ctx.apply(spec.on, args);
      if (toggleStateOf(spec, on.state) !== true) {
        fail(
          `after ${spec.on} the done ack reports ${spec.feature} = ${toggleStateOf(spec, on.state)}, not true`,
        );
      }
      const off = await ctx.apply(spec.off!);
      if (toggleStateOf(spec, off.state) !== false) {
        fail(
          `after ${spec.off} the done ack reports ${spec.feature} = ${toggleStateOf(spec, off.state)}, not false`,
        );
      }
      return;
    }
    const before = ctx.latestState();
    const done = await ctx.apply(spec.on, args);
    if (before && done.state.isLocked !== before.isLocked) fail(`${spec.on} changed isLocked`);
    if (spec.on === 'location') {
      const fix = ZLocationFix.safeParse(done.result);
      if (!fix.success) fail(`location result is not a location fix: ${JSON.stringify(done.result)}`);
      const latitude = Number(fix.data?.latitude);
      const longitude = Number(fix.data?.longitude);
      if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) {
        fail(`location result has no valid coordinates: ${JSON.stringify(done.result)}`);
      }
    }
    if (spec.on === 'sim_info') {
      const info = ZSimInfoResult.safeParse(done.result);
      if (!info.success) fail(`sim_info result is not { sims }: ${JSON.stringify(done.result)}`);
      if (done.state.sims && !sameJson(bySlot(info.data!.sims), bySlot(done.state.sims))) {
        fail('sim_info result and the reported state disagree about the SIMs');
      }
    }
    // A reboot may take the device away for a moment.
    await ctx.waitUntilConnected();
  },
});

/** Specs whose on command needs args: sending none must fail. */
const invalidArgsCheck = (spec: TCommandSpec): TCheck => ({
  name: `invalid args: ${spec.on} without its args fails and is not remembered`,
  run: async (ctx) => {
    const before = ctx.latestState();
    const afterSeq = ctx.seq;
    const id = await ctx.send(spec.on, {});
    const final = await ctx.waitForFinal(id, `${spec.on} without args`, afterSeq);
    if (final.status !== 'failed') fail(`${spec.on} without its args was acked ${final.status}, not failed`);
    if (!final.error) fail('the failed ack gives no error');
    if (
      before &&
      spec.kind === 'toggle' &&
      toggleStateOf(spec, final.state) !== toggleStateOf(spec, before)
    ) {
      fail(`${spec.on} without its args changed ${spec.feature} anyway`);
    }
    if (spec.kind === 'toggle') {
      // The same policy version again (as after lost acks): still failed, never turned into done.
      const version = ctx.broker.sent.findLast(
        ({ message }) => message?.type === 'policy' && message.commands.some((command) => command.id === id),
      );
      if (!version) return fail(`no policy version carrying ${spec.on} was sent`);
      const replaySeq = ctx.seq;
      await ctx.broker.publishCommand(version.payload);
      const replayed = await ctx.waitForFinal(id, `${spec.on} in the same version again`, replaySeq);
      if (replayed.status !== 'failed') {
        fail(
          `the same policy version again, ${spec.on} was acked ${replayed.status}: a failed edit turned done`,
        );
      }
    }
    // A failed command is not remembered: the same id fails again rather than being "already done".
    // A toggle's edit is sent again as a new policy version, once the server has taken the failure.
    if (spec.kind === 'toggle') await ctx.waitUntilServerForgot(id);
    await ctx.send(spec.on, {}, id);
    const again = await ctx.waitForFinal(
      id,
      `re-delivered ${spec.on} without args`,
      afterSeq,
      spec.kind === 'toggle' ? 3 : 2,
    );
    if (again.status !== 'failed')
      fail(`re-delivered, it was acked ${again.status}: a failed id must not be remembered`);
  },
});

/** Every check, in the order they run. */
const buildChecks = (
  options: Required<Pick<TConformanceOptions, 'includeUninstall'>> & TConformanceOptions,
) => {
  const checks: TCheck[] = [
    {
      name: 'connect: persistent session, subscribed to its cmd topic with QoS 1, says hello',
      run: async (ctx) => {
        await ctx.adapter.start(ctx.credentials);
        ctx.isRunning = true;
        const hello = await ctx.waitFor(() => ctx.hellosAfter(0)[0], 'hello after connecting');
        // The checks start once the server answered that hello (a sync published before a check's
        // first command, so the sync cannot carry that command a second time).
        await ctx.waitFor(
          () =>
            ctx.broker.sent.some(
              ({ message }) => message?.type === 'sync' && message.connectionId === hello.connectionId,
            )
              ? true
              : undefined,
          'the sync answering the hello',
        );
        await sleep(ctx.settleMs);
        const connection = ctx.broker.connections[0];
        if (!connection) return fail('no connection recorded');
        if (connection.isCleanSession)
          fail('connected with clean session on: commands sent while offline would be lost');
        if (connection.protocolVersion !== 4)
          fail(`MQTT protocol level ${connection.protocolVersion}, not 4 (3.1.1)`);
        const subscription = ctx.broker.subscriptions.find((s) => s.topic === ctx.credentials.cmdTopic);
        if (!subscription) fail('said hello without subscribing to its cmd topic');
        if (subscription!.qos !== 1) fail(`subscribed with QoS ${subscription!.qos}, not 1`);
        if (typeof hello.state.isLocked !== 'boolean') fail('hello has no isLocked');
      },
    },
    {
      name: 'lock: acks received, then done with isLocked true, nothing more',
      run: async (ctx) => {
        const done = await ctx.apply('lock', {}, true);
        if (!done.state.isLocked) fail('the done ack of lock reports isLocked false');
      },
    },
    {
      name: 'unlock: acks done with isLocked false',
      run: async (ctx) => {
        const done = await ctx.apply('unlock');
        if (done.state.isLocked) fail('the done ack of unlock reports isLocked true');
      },
    },
    {
      name: "emergency calls: a locked phone shows its policy's lock screen (retailer, how to pay) and allows emergency calls",
      run: async (ctx) => {
        const { lockScreen } = ctx.adapter;
        if (!lockScreen) throw new SkipCheck('the adapter has no lockScreen');
        await ctx.apply('lock');
        const shown = await lockScreen();
        if (!shown) return fail('a locked phone shows no lock screen');
        if (!shown.isEmergencyCallAllowed) fail('the lock screen does not allow emergency calls');
        const { retailerName, retailerPhone, howToPay } = CONFORMANCE_LOCK_SCREEN;
        for (const part of [retailerName, retailerPhone, ...(howToPay ?? '').split('\n')]) {
          if (!shown.text.includes(part))
            fail(`the lock screen does not show "${part}" of the policy's lockScreen`);
        }
        await ctx.apply('unlock');
        if ((await lockScreen()) !== null) fail('the phone still shows the lock screen once unlocked');
      },
    },
    {
      name: 'apply-once: a re-delivered policy version or command id is acked done once and not applied again',
      run: async (ctx) => {
        // A policy version: the same version again (the server did not hear the done ack) re-acks
        // its commands done and changes nothing.
        const afterSeq = ctx.seq;
        const lockId = await ctx.send('lock');
        const locked = await ctx.waitForFinal(lockId, 'lock', afterSeq);
        if (locked.status !== 'done' || !locked.state.isLocked) fail('lock was not applied');
        const beforePolicy = ctx.seq;
        await ctx.publish(ctx.policySent(lockId).payload);
        const policyAgain = await ctx.waitForFinal(
          lockId,
          'lock of the re-delivered policy version',
          beforePolicy,
        );
        await sleep(ctx.settleMs);
        const policyAcks = ctx.statusesOf(lockId, beforePolicy);
        if (policyAgain.status !== 'done')
          fail(`the lock of a re-delivered policy version was acked ${policyAgain.status}, not done`);
        if (policyAcks.length !== 1) {
          fail(
            `the lock of a re-delivered policy version was acked [${policyAcks.join(', ')}], expected [done] only${policyAcks.includes('received') ? ': the version was applied again' : ''}`,
          );
        }
        // A one-shot command id: applied once, re-acked done when it comes again.
        const oneShotSeq = ctx.seq;
        const id = await ctx.send(PROBE_COMMAND);
        const first = await ctx.waitForFinal(id, PROBE_COMMAND, oneShotSeq);
        if (first.status !== 'done')
          fail(`${PROBE_COMMAND} was acked ${first.status}: ${first.error ?? 'no error given'}`);
        const beforeRedelivery = ctx.seq;
        await ctx.send(PROBE_COMMAND, {}, id);
        const again = await ctx.waitForFinal(id, `re-delivered ${PROBE_COMMAND}`, beforeRedelivery);
        await sleep(ctx.settleMs);
        const acks = ctx.statusesOf(id, beforeRedelivery);
        if (acks.includes('received')) {
          fail(
            `the re-delivered ${PROBE_COMMAND} was applied again (acked [${acks.join(', ')}]), expected [done] only`,
          );
        }
        if (again.status !== 'done')
          fail(`the re-delivered ${PROBE_COMMAND} was acked ${again.status}, not done`);
        if (acks.length !== 1)
          fail(`the re-delivered ${PROBE_COMMAND} was acked [${acks.join(', ')}], expected [done] only`);
        await ctx.apply('unlock');
      },
    },
    {
      name: 'unknown command: acks failed with an error, state unchanged',
      run: async (ctx) => {
        const before = ctx.latestState();
        const afterSeq = ctx.seq;
        const id = await ctx.send('conformance_no_such_command');
        const final = await ctx.waitForFinal(id, 'an unknown command', afterSeq);
        if (final.status !== 'failed') fail(`an unknown command was acked ${final.status}, not failed`);
        if (!final.error) fail('the failed ack gives no error');
        if (before && final.state.isLocked !== before.isLocked) fail('an unknown command changed isLocked');
      },
    },
    {
      name: 'change_pin: a PIN sealed for this device and command is set; one sealed for another command fails',
      run: async (ctx) => {
        const keyHex = await offlineCodeKey(ctx.credentials.deviceSecret);
        const deviceId = ctx.credentials.deviceId;
        const id = uuidV7();
        const sealedPin = await sealDevicePin({ keyHex, deviceId, commandId: id, pin: '582047' });
        const afterSeq = ctx.seq;
        await ctx.send('change_pin', { sealedPin }, id);
        const done = await ctx.waitForFinal(id, 'change_pin', afterSeq);
        if (done.status !== 'done') fail(`change_pin was acked ${done.status}: ${done.error ?? 'no error'}`);
        const { checkDevicePin } = ctx.adapter;
        if (checkDevicePin && !(await checkDevicePin('582047'))) fail('the new PIN does not open the phone');

        // The same sealed PIN replayed under another command id must not open.
        const replayId = uuidV7();
        const replaySeq = ctx.seq;
        await ctx.send(
          'change_pin',
          { sealedPin: await sealDevicePin({ keyHex, deviceId, commandId: id, pin: '903318' }) },
          replayId,
        );
        const replay = await ctx.waitForFinal(replayId, 'replayed change_pin', replaySeq);
        if (replay.status !== 'failed') fail(`a PIN sealed for another command was acked ${replay.status}`);
        if (checkDevicePin && (await checkDevicePin('903318'))) fail('a replayed sealed PIN was set');
      },
    },
    {
      name: 'set_offline_limit: a positive limit or null is acked done; anything else fails',
      run: async (ctx) => {
        await ctx.apply('set_offline_limit', { offlineLockAfterMs: 86_400_000 });
        await ctx.apply('set_offline_limit', { offlineLockAfterMs: null });
        const afterSeq = ctx.seq;
        const id = await ctx.send('set_offline_limit', { offlineLockAfterMs: -5 });
        const final = await ctx.waitForFinal(id, 'set_offline_limit with a negative limit', afterSeq);
        if (final.status !== 'failed') fail(`a negative offline limit was acked ${final.status}`);
      },
    },
    {
      name: 'paid-through: the date passing locks the phone by itself and reports offline_lock (source paid_through)',
      run: async (ctx) => {
        await ctx.waitUntilConnected();
        await ctx.apply('unlock');
        const afterSeq = ctx.seq;
        const paidThrough = new Date(Date.now() + 1_000).toISOString();
        await ctx.server.setPaidThrough(ctx.deviceId, paidThrough);
        const report = await ctx.waitFor(
          () => ctx.reportsAfter(afterSeq, 'offline_lock').find((r) => r.data.source === 'paid_through'),
          'offline_lock report (source paid_through) once the date passed',
        );
        const parsed = ZOfflineLockData.safeParse(report.data);
        const data = parsed.success && parsed.data.source === 'paid_through' ? parsed.data : undefined;
        if (!data) fail(`the paid-through report has data ${JSON.stringify(report.data)}`);
        else if (data.paidThrough !== paidThrough)
          fail(`the report names the date ${data.paidThrough}, not ${paidThrough}`);
        if (report.state.isLocked !== true)
          fail('the phone reports itself unlocked after its paid-through lock');
        // A version issued after the date (the server's unlock) frees it, and it stays free.
        await ctx.server.setPaidThrough(ctx.deviceId, null);
        await ctx.apply('unlock');
        await sleep(ctx.settleMs);
        if (ctx.latestState()?.isLocked !== false) fail('the phone did not stay unlocked after the unlock');
      },
    },
    {
      name: 'paid-through: no date (paid up), or a version issued after its own date, never locks the phone',
      run: async (ctx) => {
        await ctx.waitUntilConnected();
        await ctx.apply('unlock');
        const afterSeq = ctx.seq;
        // Issued now, for a date already past: the server left the phone unlocked on purpose.
        await ctx.server.setPaidThrough(ctx.deviceId, new Date(Date.now() - 60_000).toISOString());
        await sleep(Math.max(ctx.settleMs, 1_000));
        // No date at all (a paid-up loan), past a moment the phone would otherwise have locked.
        await ctx.server.setPaidThrough(ctx.deviceId, null);
        await sleep(Math.max(ctx.settleMs, 1_000));
        const selfLock = ctx
          .reportsAfter(afterSeq, 'offline_lock')
          .find((r) => r.data.source === 'paid_through');
        if (selfLock) fail(`the phone locked itself with no date due: ${JSON.stringify(selfLock.data)}`);
        if (ctx.latestState()?.isLocked !== false) fail('the phone is locked with no date due');
      },
    },
    {
      name: 'invalid messages: ignored without an ack, the device keeps working',
      run: async (ctx) => {
        const afterSeq = ctx.seq;
        await ctx.broker.publishCommand('this is not JSON');
        await ctx.broker.publishCommand(JSON.stringify({ v: 1, id: 'not-a-uuid', name: 'lock' }));
        await ctx.apply('unlock');
        const stray = ctx
          .eventsAfter(afterSeq)
          .filter(({ event }) => event.type === 'ack' && !ctx.deliveries.has(event.commandId));
        if (stray.length > 0) fail(`acked something it should have ignored: ${stray[0]!.payload}`);
      },
    },
    {
      name: 'signatures: unsigned, tampered, foreign-key and misdirected messages are ignored without an ack; the device keeps working',
      run: async (ctx) => {
        await ctx.waitUntilConnected();
        await ctx.apply('unlock');
        const { deviceId } = ctx;
        const now = new Date().toISOString();
        // Each would lock the phone at a version far above the current one, if it were taken.
        const forgedVersion = ctx.server.policyOf(deviceId).version + 1000;
        const lockPolicy = (id: string, locked = true): TPolicyMessage => ({
          type: 'policy',
          deviceId,
          version: forgedVersion,
          policy: { locked, controls: {} },
          commands: [{ id, name: 'lock' }],
          issuedAt: now,
        });
        const otherKey = generateServerKey();
        const tamperedId = uuidV7();
        const signedUnlocked = JSON.parse(ctx.sign(lockPolicy(tamperedId, false))) as { body: string };
        const forgeries: { what: string; id: string; payload: (id: string) => string }[] = [
          {
            what: 'an unsigned v1 lock command',
            id: uuidV7(),
            payload: (id) => JSON.stringify({ v: 1, id, name: 'lock', args: {}, issuedAt: now }),
          },
          {
            what: 'an unsigned policy (a ZPolicyMessage without the envelope)',
            id: uuidV7(),
            payload: (id) => JSON.stringify(lockPolicy(id)),
          },
          {
            what: 'a policy whose body was changed after it was signed',
            id: tamperedId,
            payload: () =>
              JSON.stringify({
                ...signedUnlocked,
                body: signedUnlocked.body.replace('"locked":false', '"locked":true'),
              }),
          },
          {
            what: "a policy signed with another key under the server's key id",
            id: uuidV7(),
            payload: (id) =>
              signServerMessage(
                { kid: ctx.server.key.kid, privateKey: privateKeyOf(otherKey) },
                lockPolicy(id),
              ),
          },
          {
            what: 'a policy signed for another device',
            id: uuidV7(),
            payload: (id) => ctx.sign({ ...lockPolicy(id), deviceId: uuidV7() }),
          },
        ];
        const afterSeq = ctx.seq;
        for (const forgery of forgeries) await ctx.publish(forgery.payload(forgery.id));
        // The probe comes after them: once it is done, the device has handled them all.
        await ctx.probe();
        await sleep(ctx.settleMs);
        for (const forgery of forgeries) {
          const acks = ctx.statusesOf(forgery.id, afterSeq);
          if (acks.length > 0) fail(`${forgery.what} was acked [${acks.join(', ')}]: it must be ignored`);
        }
        const locked = ctx.lockedAfter(afterSeq);
        if (locked)
          fail(
            `a forged lock was applied: the device reported isLocked true: ${locked.payload.slice(0, 200)}`,
          );
        const version = ctx.latestState()?.policyVersion;
        if (version !== undefined && version >= forgedVersion) {
          fail(`the device reports policyVersion ${version}, the version of a forged policy`);
        }
      },
    },
    ...COMMAND_CATALOGUE.filter((spec) => spec.on !== 'uninstall').map(catalogueCheck),
    ...COMMAND_CATALOGUE.filter((spec) => !spec.args.safeParse({}).success).map(invalidArgsCheck),
    {
      name: 'reconnect: says hello again after the broker drops the connection',
      run: async (ctx) => {
        await ctx.waitUntilConnected();
        const afterSeq = ctx.seq;
        ctx.broker.dropConnection();
        await ctx.waitFor(() => ctx.hellosAfter(afterSeq)[0], 'hello after the dropped connection');
      },
    },
    {
      name: 'offline: a command sent while the device is stopped is applied once after restart',
      run: async (ctx) => {
        const before = ctx.latestState()?.isLocked ?? false;
        const name = before ? 'unlock' : 'lock';
        await ctx.stopDevice();
        try {
          const afterSeq = ctx.seq;
          const id = await ctx.send(name);
          await ctx.restartDevice();
          await ctx.waitFor(() => ctx.hellosAfter(afterSeq)[0], 'hello after restart');
          const final = await ctx.waitForFinal(id, `${name} sent while stopped`, afterSeq);
          await sleep(ctx.settleMs);
          const acks = ctx.acksOf(id, afterSeq).map((ack) => ack.status);
          if (final.status !== 'done') fail(`${name} was acked ${final.status}: ${final.error ?? ''}`);
          if (final.state.isLocked === before) fail(`${name} was acked done but isLocked is still ${before}`);
          if (acks.filter((status) => status === 'done').length !== 1) {
            fail(`${name} was acked [${acks.join(', ')}]: applied more than once, or done twice`);
          }
        } finally {
          await ctx.ensureRunning();
        }
      },
    },
    {
      name: 'restart: hello carries the persisted state and policy version; the applied version and ids are remembered',
      run: async (ctx) => {
        ctx.requireStop();
        await ctx.apply('lock');
        const cameraSeq = ctx.seq;
        const cameraId = await ctx.send('camera_lock');
        const expected = await ctx.waitForFinal(cameraId, 'camera_lock', cameraSeq);
        if (expected.status !== 'done') fail(`camera_lock was acked ${expected.status}`);
        // camera_lock's version is the newest: the phone holds it when it comes back.
        const cameraPolicy = ctx.policySent(cameraId).payload;
        const oneShotSeq = ctx.seq;
        const oneShotId = await ctx.send(PROBE_COMMAND);
        const oneShot = await ctx.waitForFinal(oneShotId, PROBE_COMMAND, oneShotSeq);
        if (oneShot.status !== 'done') fail(`${PROBE_COMMAND} was acked ${oneShot.status}`);
        await ctx.stopDevice();
        let afterSeq: number;
        try {
          afterSeq = await ctx.restartDevice();
        } finally {
          await ctx.ensureRunning();
        }
        const hello = await ctx.waitForSync(afterSeq);
        if (hello.state.isLocked !== true)
          fail('after a restart hello reports isLocked false; it was locked');
        if (
          expected.state.controls &&
          !sameJson(sortKeys(hello.state.controls), sortKeys(expected.state.controls))
        ) {
          fail(
            `after a restart hello reports controls ${JSON.stringify(hello.state.controls)}, before it was ${JSON.stringify(expected.state.controls)}`,
          );
        }
        if (expected.state.sims && !sameJson(bySlot(hello.state.sims ?? []), bySlot(expected.state.sims))) {
          fail('after a restart hello reports other SIMs');
        }
        if (
          expected.state.policyVersion !== undefined &&
          hello.state.policyVersion !== expected.state.policyVersion
        ) {
          fail(
            `after a restart hello reports policyVersion ${hello.state.policyVersion}, before it was ${expected.state.policyVersion}`,
          );
        }
        const beforeRedelivery = ctx.seq;
        await ctx.publish(cameraPolicy);
        await ctx.send(PROBE_COMMAND, {}, oneShotId);
        await ctx.waitForFinal(cameraId, 're-delivered camera_lock policy', beforeRedelivery);
        await ctx.waitForFinal(oneShotId, `re-delivered ${PROBE_COMMAND}`, beforeRedelivery);
        await sleep(ctx.settleMs);
        const cameraAcks = ctx.statusesOf(cameraId, beforeRedelivery);
        if (cameraAcks.join() !== 'done') {
          fail(
            `after a restart the policy version it held was acked [${cameraAcks.join(', ')}] (camera_lock), expected [done]: the applied version was forgotten`,
          );
        }
        const acks = ctx.statusesOf(oneShotId, beforeRedelivery);
        if (acks.join() !== 'done') {
          fail(
            `after a restart a re-delivered id was acked [${acks.join(', ')}], expected [done]: the applied ids were forgotten`,
          );
        }
        await ctx.apply('camera_unlock');
        await ctx.apply('unlock');
      },
    },
    {
      name: 'stale: a command past its notAfter is acked dropped and not applied',
      run: async (ctx) => {
        await ctx.waitUntilConnected();
        const afterSeq = ctx.seq;
        const notAfter = new Date(Date.now() - STALE_BY_MS).toISOString();
        const id = await ctx.send(PROBE_COMMAND, {}, uuidV7(), notAfter);
        await ctx.waitForFinal(id, `${PROBE_COMMAND} past its notAfter`, afterSeq);
        await sleep(ctx.settleMs);
        const acks = ctx.statusesOf(id, afterSeq);
        if (acks.join() !== 'dropped') {
          fail(
            `a command ${STALE_BY_MS / 1000} s past its notAfter was acked [${acks.join(', ')}], expected [dropped]`,
          );
        }
      },
    },
    {
      name: 'stale: a lock superseded by an unlock while the device was offline is never applied',
      run: async (ctx) => {
        ctx.requireStop();
        await ctx.apply('unlock');
        await ctx.stopDevice();
        let afterSeq: number;
        let lockId: string;
        let unlockId: string;
        try {
          afterSeq = ctx.seq;
          // Both wait in the broker's session; the unlock's version supersedes the lock's.
          lockId = await ctx.send('lock');
          unlockId = await ctx.send('unlock');
          await ctx.restartDevice();
        } finally {
          await ctx.ensureRunning();
        }
        const final = await ctx.waitForFinal(unlockId, 'unlock sent while offline', afterSeq);
        if (final.status !== 'done')
          fail(`the unlock was acked ${final.status}: ${final.error ?? 'no error given'}`);
        await ctx.probe();
        await sleep(ctx.settleMs);
        const locked = ctx.lockedAfter(afterSeq);
        if (locked) {
          fail(
            `a lock superseded while the device was offline was applied: it reported isLocked true after the restart: ${locked.payload.slice(0, 200)}`,
          );
        }
        const lockAcks = ctx.statusesOf(lockId, afterSeq);
        if (lockAcks.includes('done'))
          fail(`the superseded lock was acked [${lockAcks.join(', ')}]: it was applied`);
      },
    },
    {
      name: 'cancel: a command whose cancel came first is never applied',
      run: async (ctx) => {
        await ctx.waitUntilConnected();
        const afterSeq = ctx.seq;
        const id = uuidV7();
        // The server cancelled it; a copy sent before the cancel still comes after it.
        await ctx.server.cancel(ctx.deviceId, id);
        await ctx.publish(ctx.signedProbe(id, ctx.server.policyOf(ctx.deviceId).version));
        await ctx.probe();
        await sleep(ctx.settleMs);
        const acks = ctx.statusesOf(id, afterSeq);
        if (acks.includes('received') || acks.includes('done')) {
          fail(`a command whose cancel came first was acked [${acks.join(', ')}]: the cancel was ignored`);
        }
      },
    },
    {
      name: 'cancel: a lock and a command cancelled while the device was offline are never applied',
      run: async (ctx) => {
        ctx.requireStop();
        await ctx.apply('unlock');
        await ctx.stopDevice();
        let afterSeq: number;
        let lockId: string;
        let commandId: string;
        try {
          afterSeq = ctx.seq;
          // Cancelling a lock is a new policy version without it; a command gets a cancel message.
          lockId = await ctx.send('lock');
          await ctx.server.cancel(ctx.deviceId, lockId);
          commandId = await ctx.send(PROBE_COMMAND);
          await ctx.server.cancel(ctx.deviceId, commandId);
          await ctx.restartDevice();
        } finally {
          await ctx.ensureRunning();
        }
        await ctx.waitForSync(afterSeq);
        await ctx.probe();
        await sleep(ctx.settleMs);
        const locked = ctx.lockedAfter(afterSeq);
        if (locked) {
          fail(
            `a lock cancelled while the device was offline was applied: it reported isLocked true: ${locked.payload.slice(0, 200)}`,
          );
        }
        const lockAcks = ctx.statusesOf(lockId, afterSeq);
        if (lockAcks.includes('done'))
          fail(`the cancelled lock was acked [${lockAcks.join(', ')}]: it was applied`);
        const acks = ctx.statusesOf(commandId, afterSeq);
        if (acks.includes('received') || acks.includes('done')) {
          fail(
            `a command cancelled while the device was offline was acked [${acks.join(', ')}]: it was applied`,
          );
        }
      },
    },
    {
      name: 'sync: nothing that arrives before the sync for this connection is applied; then the newest policy and only the commands it lists',
      run: async (ctx) => {
        ctx.requireStop();
        await ctx.apply('unlock');
        const earlier = ctx.hellosAfter(0).at(-1);
        if (!earlier) return fail('no hello so far');
        const heldPolicy = ctx.server.policyOf(ctx.deviceId);
        await ctx.stopDevice();
        ctx.server.pauseSyncs();
        let afterSeq: number;
        let lockId: string;
        const strayId = uuidV7();
        try {
          afterSeq = ctx.seq;
          lockId = await ctx.send('lock');
          // A command the server no longer has pending (finished or cancelled, its cancel lost)…
          const now = new Date().toISOString();
          await ctx.publish(ctx.signedProbe(strayId, heldPolicy.version, now));
          // …and a sync for an earlier connection that lists it (a replay).
          await ctx.publish(
            ctx.sign({
              type: 'sync',
              deviceId: ctx.deviceId,
              connectionId: earlier.connectionId,
              serverTime: now,
              policy: heldPolicy,
              commandIds: [strayId],
            }),
          );
          await ctx.restartDevice();
          await ctx.waitFor(() => ctx.hellosAfter(afterSeq)[0], 'hello after restart');
          // The server is slow to answer: the device must wait for its sync.
          await sleep(ctx.settleMs);
          const early = ctx
            .eventsAfter(afterSeq)
            .find(
              ({ event }) =>
                (event.type === 'ack' && (event.commandId === lockId || event.commandId === strayId)) ||
                (event.type !== 'gone' && event.state.isLocked),
            );
          if (early) {
            fail(
              `the device applied a message before the sync answering its hello (a sync for an earlier connection does not count): ${early.payload.slice(0, 200)}`,
            );
          }
        } finally {
          await ctx.server.resumeSyncs();
          await ctx.ensureRunning();
        }
        const locked = await ctx.waitForFinal(lockId, 'lock after the sync', afterSeq);
        if (locked.status !== 'done' || !locked.state.isLocked) {
          fail(`after the sync the lock was acked ${locked.status} with isLocked ${locked.state.isLocked}`);
        }
        await ctx.probe();
        await sleep(ctx.settleMs);
        const acks = ctx.statusesOf(strayId, afterSeq);
        if (acks.includes('received') || acks.includes('done')) {
          fail(`a held command the sync did not list was acked [${acks.join(', ')}]: it was applied`);
        }
        await ctx.apply('unlock');
      },
    },
    {
      name: 'policy versions: state.policyVersion never goes back, and an older signed policy replayed is not applied',
      run: async (ctx) => {
        await ctx.waitUntilConnected();
        const afterSeq = ctx.seq;
        const lockId = await ctx.send('lock');
        const locked = await ctx.waitForFinal(lockId, 'lock', afterSeq);
        const { payload, message } = ctx.policySent(lockId);
        if (locked.state.policyVersion === undefined)
          fail('the done ack of a policy command reports no state.policyVersion');
        if (locked.state.policyVersion! < message.version) {
          fail(
            `the done ack of version ${message.version}'s lock reports policyVersion ${locked.state.policyVersion}`,
          );
        }
        await ctx.apply('unlock');
        const replaySeq = ctx.seq;
        await ctx.publish(payload);
        await ctx.probe();
        await sleep(ctx.settleMs);
        const acks = ctx.statusesOf(lockId, replaySeq);
        if (acks.length > 0) {
          fail(
            `the lock of an older policy version (${message.version}) replayed was acked [${acks.join(', ')}]: it must be ignored`,
          );
        }
        const relocked = ctx.lockedAfter(replaySeq);
        if (relocked) {
          fail(
            `an older policy version (${message.version}) replayed was applied: the device reported isLocked true after the unlock`,
          );
        }
        // Over everything the device said so far, in its own order when it numbers its events.
        const reported = ctx
          .eventsAfter(0)
          .flatMap(({ seq, event }) =>
            event.type === 'gone' || event.state.policyVersion === undefined
              ? []
              : [{ seq, order: event.seq, version: event.state.policyVersion }],
          );
        const isNumbered = reported.every(({ order }) => order !== undefined);
        if (isNumbered) reported.sort((a, b) => a.order! - b.order!);
        let highest: { version: number; seq: number } | undefined;
        for (const { seq, version } of reported) {
          if (highest && version < highest.version) {
            fail(
              `state.policyVersion went back from ${highest.version} (event ${highest.seq}) to ${version} (event ${seq})`,
            );
          }
          if (!highest || version > highest.version) highest = { version, seq };
        }
      },
    },
    {
      name: 'sim report: a SIM change is reported (kind sim) and sim_info agrees',
      run: async (ctx) => {
        if (!ctx.adapter.setSims) throw new SkipCheck('the adapter has no setSims');
        const afterSeq = ctx.seq;
        await ctx.adapter.setSims(SIMS_A);
        const report = await ctx.waitFor(
          () => ctx.reportsAfter(afterSeq, 'sim').find((r) => sameJson(bySlot(simsOf(r)), SIMS_A)),
          'sim report with the new SIMs',
        );
        if (!sameJson(bySlot(report.state.sims ?? []), SIMS_A))
          fail('the sim report state.sims is not the new SIMs');
        const info = await ctx.apply('sim_info');
        if (!sameJson(bySlot(ZSimInfoResult.parse(info.result).sims), SIMS_A))
          fail('sim_info does not give the new SIMs');
      },
    },
    {
      name: 'sim report: a SIM change while stopped is reported after the next hello',
      run: async (ctx) => {
        if (!ctx.adapter.setSims) throw new SkipCheck('the adapter has no setSims');
        await ctx.stopDevice();
        let afterSeq: number;
        try {
          await ctx.adapter.setSims(SIMS_B);
          afterSeq = await ctx.restartDevice();
        } finally {
          await ctx.ensureRunning();
        }
        const report = await ctx.waitFor(
          () => ctx.reportsAfter(afterSeq, 'sim').find((r) => sameJson(bySlot(simsOf(r)), SIMS_B)),
          'sim report after restart',
        );
        const helloSeq = ctx.eventsAfter(afterSeq).find(({ event }) => event.type === 'hello')?.seq;
        if (helloSeq === undefined || helloSeq > report.seq) fail('the sim report came before hello');
      },
    },
    {
      name: 'offline code: a valid code for the shown challenge is accepted, applied and reported',
      run: async (ctx) => {
        ctx.offlineHooks();
        await ctx.waitUntilConnected();
        await ctx.apply('lock');
        const afterSeq = ctx.seq;
        const { challenge } = await ctx.acceptOfflineCode('unlock');
        const report = await ctx.waitFor(() => {
          ctx.failOnInvalidOfflineReport(afterSeq);
          return ctx.offlineCodeReport(afterSeq, challenge);
        }, 'offline_lock report (source offline_code) of the accepted code');
        checkOfflineCodeReport(report, 'unlock');
      },
    },
    {
      name: 'offline code: a used code is refused, its challenge burnt and replaced',
      run: async (ctx) => {
        const { enterOfflineCode } = ctx.offlineHooks();
        const { challenge, code } = await ctx.acceptOfflineCode('lock');
        const next = await ctx.challenge();
        if (next === challenge)
          fail(`the challenge ${challenge} was not replaced after its code was accepted`);
        const again = await enterOfflineCode(code, 'lock');
        if (again === 'accepted') fail('a code was accepted twice: the challenge was not burnt');
        await ctx.apply('unlock');
      },
    },
    {
      name: `offline code: wrong codes are refused and change nothing; the challenge changes after ${OFFLINE_CODE_MAX_WRONG_TRIES} wrong tries`,
      run: async (ctx) => {
        const { enterOfflineCode } = ctx.offlineHooks();
        await ctx.waitUntilConnected();
        // Start from a fresh challenge with no wrong tries: accept a code (lock, on a locked device).
        await ctx.apply('lock');
        const beforeReset = ctx.seq;
        const reset = await ctx.acceptOfflineCode('lock');
        await ctx.waitFor(
          () => ctx.offlineCodeReport(beforeReset, reset.challenge),
          'offline_lock report of the accepted code',
        );
        const challenge = await ctx.challenge();
        const afterSeq = ctx.seq;
        const right = await ctx.offlineCode(challenge, 'unlock');
        const wrong = wrongCodeFor(right);
        for (let attempt = 1; attempt < OFFLINE_CODE_MAX_WRONG_TRIES; attempt += 1) {
          const result = await enterOfflineCode(wrong, 'unlock');
          if (result !== 'wrong') fail(`wrong code ${attempt} was answered ${result}, not wrong`);
          if ((await ctx.challenge()) !== challenge)
            fail(`the challenge changed after ${attempt} wrong tries`);
        }
        // The code for the other action is wrong too.
        const last = await enterOfflineCode(await ctx.offlineCode(challenge, 'lock'), 'unlock');
        if (last !== 'challenge_changed') {
          fail(`wrong code ${OFFLINE_CODE_MAX_WRONG_TRIES} was answered ${last}, not challenge_changed`);
        }
        if ((await ctx.challenge()) === challenge) {
          fail(`the challenge did not change after ${OFFLINE_CODE_MAX_WRONG_TRIES} wrong tries`);
        }
        const stale = await enterOfflineCode(right, 'unlock');
        if (stale === 'accepted') fail('a code for the replaced challenge was accepted');
        await sleep(ctx.settleMs);
        const unlocked = ctx
          .eventsAfter(afterSeq)
          .find(({ event }) => event.type !== 'gone' && !event.state.isLocked);
        if (unlocked) fail(`after wrong codes the device reported isLocked false: ${unlocked.payload}`);
        if (ctx.reportsAfter(afterSeq, 'offline_lock').length > 0)
          fail('a wrong code was reported as applied');
        await ctx.apply('unlock');
      },
    },
    {
      name: 'offline code: accepted while stopped, its offline_lock report is a valid event after the next hello',
      run: async (ctx) => {
        ctx.offlineHooks();
        await ctx.waitUntilConnected();
        await ctx.apply('unlock');
        await ctx.stopDevice();
        let afterSeq: number;
        let challenge: string;
        try {
          ({ challenge } = await ctx.acceptOfflineCode('lock'));
          afterSeq = await ctx.restartDevice();
        } finally {
          await ctx.ensureRunning();
        }
        const report = await ctx.waitFor(() => {
          ctx.failOnInvalidOfflineReport(afterSeq);
          return ctx.offlineCodeReport(afterSeq, challenge);
        }, 'offline_lock report after the next hello');
        const helloSeq = ctx.eventsAfter(afterSeq).find(({ event }) => event.type === 'hello')?.seq;
        if (helloSeq === undefined || helloSeq > report.seq)
          fail('the offline_lock report came before hello');
        checkOfflineCodeReport(report, 'lock');
        await ctx.apply('unlock');
      },
    },
    {
      name: 'tracking: location reports while tracking is on, none after tracking_off',
      run: async (ctx) => {
        const within = options.trackingReportWithinMs;
        if (within === undefined) throw new SkipCheck('trackingReportWithinMs not set');
        const onSeq = ctx.seq;
        await ctx.apply('tracking_on');
        const reports = await ctx.waitFor(
          () => {
            const found = ctx.reportsAfter(onSeq, 'location');
            return found.length >= 2 ? found : undefined;
          },
          'two location reports while tracking',
          within,
        );
        for (const report of reports) {
          if (!ZLocationFix.safeParse(report.data).success)
            fail(`a location report has data ${JSON.stringify(report.data)}`);
          if (report.state.controls?.tracking !== true) fail('a location report says tracking is off');
        }
        await ctx.apply('tracking_off');
        const offSeq = ctx.seq;
        await sleep(within);
        if (ctx.reportsAfter(offSeq, 'location').length > 0)
          fail('location reports go on after tracking_off');
      },
    },
  ];
  if (options.includeUninstall) {
    checks.push({
      name: 'uninstall: acks done, then leaves the broker for good',
      run: async (ctx) => {
        await ctx.waitUntilConnected();
        const done = await ctx.apply('uninstall');
        if (done.result?.location !== undefined && !ZLocationFix.safeParse(done.result.location).success) {
          fail(`uninstall result.location is not a location fix: ${JSON.stringify(done.result.location)}`);
        }
        await ctx.waitFor(() => (ctx.broker.isConnected() ? undefined : true), 'disconnect after uninstall');
        ctx.isRunning = false;
        await sleep(Math.max(1500, ctx.settleMs));
        if (ctx.broker.isConnected()) fail('connected again after uninstall');
      },
    });
  }
  checks.push({
    name: 'events: every event is a valid ZDeviceEvent on its evt topic, one final ack per delivery',
    run: async (ctx) => {
      await sleep(ctx.settleMs);
      const problems = [...ctx.broker.violations];
      for (const record of ctx.broker.events) {
        if (record.error)
          problems.push(`event ${record.seq} is invalid (${record.error}): ${record.payload.slice(0, 200)}`);
      }
      const finals = new Map<string, number>();
      for (const { event } of ctx.eventsAfter(0)) {
        if (event.type !== 'ack') continue;
        if (!ctx.deliveries.has(event.commandId))
          problems.push(`ack for a command never sent: ${event.commandId}`);
        if (event.status !== 'received') finals.set(event.commandId, (finals.get(event.commandId) ?? 0) + 1);
      }
      for (const [id, count] of finals) {
        const deliveries = ctx.deliveries.get(id) ?? 0;
        if (count > deliveries)
          problems.push(`command ${id} got ${count} final acks for ${deliveries} deliveries`);
      }
      if (problems.length > 0) fail(problems.slice(0, 10).join('\n'));
    },
  });
  return checks;
};

const simsOf = (report: TReportEvent): TSimSlot[] => {
  const parsed = ZSimInfoResult.safeParse(report.data);
  return parsed.success ? parsed.data.sims : [];
};

const sortKeys = (record: Record<string, boolean> | undefined) =>
  Object.fromEntries(Object.entries(record ?? {}).sort(([a], [b]) => a.localeCompare(b)));

/** The names of the checks runConformanceChecks runs with these options, in order. */
export const conformanceCheckNames = (options: TConformanceOptions = {}): string[] =>
  buildChecks({ ...options, includeUninstall: options.includeUninstall ?? true }).map((check) => check.name);

/**
 * Runs the protocol conformance suite against the device behind `adapter`: starts an embedded
 * broker on an ephemeral port of 127.0.0.1 with fresh credentials (or uses `options.broker`), calls
 * adapter.start(credentials), runs every check in order (see conformanceCheckNames) against one
 * device, stops it and closes the broker it started. Each check waits at most `timeoutMs` per
 * expected event.
 *
 * Resolves with one result per check (passed, failed with the reason, or skipped); never rejects
 * for a non-conforming device. Rejects only if the broker cannot start.
 */
export const runConformanceChecks = async (
  adapter: TDeviceAdapter,
  options: TConformanceOptions = {},
): Promise<TConformanceCheckResult[]> => {
  const checks = buildChecks({ ...options, includeUninstall: options.includeUninstall ?? true });
  const broker = options.broker ?? (await startConformanceBroker({ transport: options.transport ?? 'tcp' }));
  const ctx = new CheckContext(broker, adapter, options.timeoutMs ?? 10_000, options.settleMs ?? 300);
  const results: TConformanceCheckResult[] = [];
  let hasFailed = false;
  try {
    for (const check of checks) {
      const started = Date.now();
      let result: TConformanceCheckResult;
      if (options.filter && !options.filter(check.name) && !check.name.startsWith('connect:')) {
        result = { name: check.name, status: 'skipped', error: 'filtered out', durationMs: 0 };
      } else if (hasFailed && options.stopOnFailure) {
        result = { name: check.name, status: 'skipped', error: 'an earlier check failed', durationMs: 0 };
      } else {
        try {
          await check.run(ctx);
          result = { name: check.name, status: 'passed', durationMs: Date.now() - started };
        } catch (error) {
          const isSkip = error instanceof SkipCheck;
          hasFailed ||= !isSkip;
          result = {
            name: check.name,
            status: isSkip ? 'skipped' : 'failed',
            error:
              error instanceof CheckFailure || isSkip
                ? error.message
                : `check crashed: ${(error as Error).stack}`,
            durationMs: Date.now() - started,
          };
        }
      }
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    await adapter.stop?.().catch(() => undefined);
    if (!options.broker) await broker.close();
  }
  return results;
};

/** One line per check ("PASS name", "FAIL name: why", "SKIP name: why"), for logs and test output. */
export const formatConformanceResults = (results: readonly TConformanceCheckResult[]): string =>
  results
    .map((result) => {
      const label = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' }[result.status];
      return `${label} ${result.name}${result.error ? `: ${result.error}` : ''}`;
    })
    .join('\n');
