import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { istDate } from '@kisht/domain/common/time';
import { commandSpecByName } from '@kisht/domain/devices/command-catalogue';
import {
  commandRuleOf,
  judgeCommand,
  statusRefusalOf,
  type TCommandRefusal,
  type TGateCommand,
  type TReasonInput,
} from '@kisht/domain/devices/command-rules';
import { controlAvailability } from '@kisht/domain/devices/control-availability';
import {
  COMMAND_STALE_AFTER_MS,
  editPolicy,
  isPolicyCommand,
  isSameControl,
} from '@kisht/domain/devices/device-policy';
import { lockScreenFor } from '@kisht/domain/devices/devices.rules';
import { lostModeMessage, type TLockReason } from '@kisht/domain/devices/lock-reasons';
import { paidThroughFor, paidThroughGraceDaysOf } from '@kisht/domain/devices/paid-through';
import { INITIAL_POLICY } from '@kisht/domain/devices/protocol.schema';
import { v7 as uuidv7 } from 'uuid';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import type { insertAudit } from '../audit/audit.repository';
import { scopeOf } from '../scope/scope.service';
import { type CommandRow, findNewestDoneCommand } from './commands.repository';
import type { CommandDispatcher } from './device-outbox.service';
import type { DeviceRow } from './devices.repository';
import * as gateRepo from './gate.repository';
import { findCommandTargets, type TCommandTargetRow, type TTargetSelection } from './targets.repository';

/*
 * The command gate (issue 25, design §2 and §5): the one place through which every intent that
 * changes what a phone may do or shows passes, as Fleet's MDM commander is for Apple commands:
 * single and scheduled commands, bulk, the auto-lock ladder, payoff, offline codes, PIN changes,
 * every control toggle of spec §6, lost modes, wallpaper, messages and ads, the offline limit,
 * release, and (through the outbox's bridges) their Apple and Android-Management translations.
 * It judges each order by the domain's rules (command-rules judgeCommand: customer status, device
 * family, reason category; then enrolment and spec §6 availability), and writes the accepted ones
 * in the caller's transaction: superseded commands ended, command rows, policy edits with their
 * lock screens, audit entries. No other code inserts a command row or edits a policy
 * (gate.repository, which only this file imports). The caller hands the outcome to the outbox
 * after commit (dispatchOutcome).
 */

/** A customer's phone as the gate judges it (targets.repository), read once per request. */
export type TCommandTarget = TCommandTargetRow;

/**
 * The targets of a selection with everything the gate judges by (status, family, retailer, what is
 * overdue today, the organisation's settings, the device), in one read. With an `actor`, only the
 * actor's customers (its organisation and retailer subtree; another tenant's answer nothing, so
 * the caller answers 404).
 */
export const loadTargets = async (
  db: DbOrTx,
  who: { actor: TActor } | { orgId: number } | 'system',
  selection: Omit<TTargetSelection, 'orgId' | 'retailerIds'>,
  today: string = istDate(),
): Promise<TCommandTarget[]> => {
  if (who === 'system') return findCommandTargets(db, selection, today);
  const scope = 'actor' in who ? await scopeOf(db, who.actor) : { orgId: who.orgId, retailerIds: undefined };
  return findCommandTargets(db, { ...selection, orgId: scope.orgId, retailerIds: scope.retailerIds }, today);
};

/** loadTargets by device id (a job's devices, any organisation), as a map by device id. */
export const loadTargetsOfDevices = async (
  db: DbOrTx,
  deviceIds: string[],
  today: string = istDate(),
): Promise<Map<string, TCommandTarget>> =>
  deviceIds.length === 0
    ? new Map()
    : new Map(
        (await loadTargets(db, 'system', { deviceIds: [...new Set(deviceIds)] }, today)).map((t) => [
          t.device.id,
          t,
        ]),
      );

/** One thing the gate is asked to write for one target (judged first). */
export type TOrder = {
  target: TCommandTarget;
  /** The command or gate-only intent (domain COMMAND_RULES) the rules judge. */
  name: TGateCommand;
  /** The reason a person gave (category and note); a system order names its category here too. */
  reason?: TReasonInput | undefined;
  /** A command row to write; absent for a gate-only intent (an offline code, a policy-only edit). */
  row?:
    | {
        /** The row's id when the intent needs it first (a PIN is sealed to its command id); else a new UUIDv7. */
        id?: string | undefined;
        args: Record<string, unknown>;
        createdBy: number | null;
        /** A scheduled command: it waits, queued, until then; judged again when due. */
        runAt?: Date | null | undefined;
        batchId?: string | null | undefined;
        /** Pending commands of these names are ended as superseded (a lock ends a pending unlock). */
        supersedes?: readonly string[] | undefined;
        /** The error a superseded command ends with; default `superseded by <name>`. */
        supersededBecause?: string | undefined;
        /** notAfter given by the intent (a bulk message shares one); else worked out here. */
        notAfter?: Date | null | undefined;
      }
    | undefined;
  /** A policy edit without a row of its own (the offline limit, enrolment, a lock the phone made). */
  policy?: Omit<gateRepo.TPolicyEdit, 'deviceId'> | undefined;
  /** Spec §6 availability to check: the control feature offered on the customer's screen. */
  availability?: string | undefined;
  /** Whether the phone must be enrolled (default: when a row goes to it). */
  needsEnrolment?: boolean | undefined;
  /** The audit entry written when the order is accepted (null: the caller writes one for many). */
  audit:
    | ((accepted: {
        command: CommandRow | null;
        reason: TLockReason | null;
        superseded: string[];
      }) => TAuditInput)
    | null;
};

/** An audit entry as the gate writes it (audit.repository insertAudit). */
export type TAuditInput = Parameters<typeof insertAudit>[1];

/** What the gate wrote, for the outbox after commit, and the orders it refused (skip mode). */
export type TGateOutcome = {
  commands: CommandRow[];
  /** Devices whose policy changed without a command row of their own, to publish after commit. */
  policyDeviceIds: string[];
  refused: { order: TOrder; refusal: TGateRefusal }[];
  /** The pending twin found instead of writing (enqueueOrders `twin`), or null. */
  twin: CommandRow | null;
  /**
   * With liveChannels: what to publish as written (edited devices as they now are, the pending
   * commands their policies carry, and the targets' devices for one-shot commands); else null.
   */
  delivery: TWrittenDelivery | null;
};

/** What an outcome written sent carries to the outbox (CommandDispatcher publishWritten). */
export type TWrittenDelivery = {
  devices: DeviceRow[];
  listed: CommandRow[];
  targets: Map<string, DeviceRow>;
};

/** Why the gate refused an order: the domain's refusals, plus enrolment and spec §6 availability. */
export type TGateRefusal =
  | TCommandRefusal
  | { code: 'DEVICE_NOT_ENROLLED' | 'COMMAND_NOT_AVAILABLE'; field: string; message: string };

const NOT_ENROLLED: TGateRefusal = {
  code: 'DEVICE_NOT_ENROLLED',
  field: 'customer_id',
  message: 'The phone has not been enrolled yet. Scan the enrolment QR first',
};

/**
 * Judges one order (issue 25), in this order: the customer's status (a paid-up loan takes no
 * restriction, a released phone nothing; command-rules statusRefusalOf), enrolment (a phone that
 * never enrolled takes nothing that goes to it), spec §6 availability when the order names a
 * feature (family, reported lock state, the organisation's allowed list), then the reason and the
 * family's payment rule (command-rules judgeCommand). Pure.
 */
export const judgeOrder = (
  order: TOrder,
): { ok: true; reason: TLockReason | null } | { ok: false; refusal: TGateRefusal } => {
  const { target } = order;
  const statusRefusal = statusRefusalOf(target.status, order.name);
  if (statusRefusal) return { ok: false, refusal: statusRefusal };
  if ((order.needsEnrolment ?? order.row !== undefined) && !target.device.enrolledAt)
    return { ok: false, refusal: NOT_ENROLLED };
  if (order.availability) {
    const offered = controlAvailability({
      deviceType: target.deviceType,
      appType: target.appType,
      isLocked: target.device.reportedLocked,
      allowedList: target.orgSettings.allowedControls ?? null,
    });
    if (![...offered.controls, ...offered.actions].includes(order.availability as never)) {
      return {
        ok: false,
        refusal: {
          code: 'COMMAND_NOT_AVAILABLE',
          field: 'feature',
          message: `${order.availability} is not offered for this phone in its current state`,
        },
      };
    }
  }
  return judgeCommand(
    { status: target.status, deviceType: target.deviceType, overduePaise: target.overduePaise },
    order.name,
    order.reason,
  );
};

/** The AppError of a refusal (409 for the rules, 400 for a missing or wrong reason). */
export const refusalError = (refusal: TGateRefusal): AppError => {
  const messages: Partial<Record<TGateRefusal['code'], string>> = {
    COMMAND_NOT_AVAILABLE: 'This control is not available for this phone now',
  };
  return new AppError(AppErrorCode[refusal.code], messages[refusal.code] ?? refusal.message, [
    { field: refusal.field, message: refusal.message },
  ]);
};

/** Throws the refusal of the first order the gate would refuse (refusalError); nothing is written. */
export const assertOrdersAllowed = (orders: TOrder[]): void => {
  for (const order of orders) {
    const verdict = judgeOrder(order);
    if (!verdict.ok) throw refusalError(verdict.refusal);
  }
};

/** The command expiry the organisation sets, from `from`; null when it sets none. */
const expiryOf = (target: TCommandTarget, from: Date): Date | null => {
  const hours = target.orgSettings.commandExpiryHours;
  return hours ? new Date(from.getTime() + hours * 3_600_000) : null;
};

/**
 * The arguments a command carries to the phone: a lost mode's message is built from its reason
 * category and the retailer (lock-reasons lostModeMessage), never taken from a person's text.
 */
const argsFor = (order: TOrder, reason: TLockReason | null): Record<string, unknown> => {
  const args = order.row?.args ?? {};
  const feature = commandSpecByName(order.name)?.spec.feature;
  if (
    (feature === 'lost_mode' || feature === 'antitheft_lost_mode') &&
    commandRuleOf(order.name).effect === 'restricts'
  ) {
    const retailer = { name: order.target.retailerName, phone: order.target.retailerPhone };
    return { ...args, message: lostModeMessage(reason?.category ?? null, retailer) };
  }
  return args;
};

/** The lock screen a lock carries (device protocol §9.2): why, whom to call, what is overdue, how to pay. */
const lockScreenOfTarget = (target: TCommandTarget, reason: TLockReason | null) =>
  lockScreenFor({
    reason: reason?.category ?? null,
    retailerName: target.retailerName,
    retailerPhone: target.retailerPhone,
    overduePaise: target.overduePaise,
    howToPay: target.orgSettings.lockScreenText ?? null,
  });

/** Merges policy edits of one device (later ones win per field; controls merged). */
const mergeEdit = (
  into: gateRepo.TPolicyEdit | undefined,
  edit: gateRepo.TPolicyEdit,
): gateRepo.TPolicyEdit => ({
  deviceId: edit.deviceId,
  locked: edit.locked ?? into?.locked,
  controls: into?.controls || edit.controls ? { ...into?.controls, ...edit.controls } : undefined,
  offlineLockAfterMs:
    edit.offlineLockAfterMs !== undefined ? edit.offlineLockAfterMs : into?.offlineLockAfterMs,
  paidThrough: edit.paidThrough !== undefined ? edit.paidThrough : into?.paidThrough,
  lockScreen: edit.lockScreen ?? into?.lockScreen,
  replacesControls: edit.replacesControls ?? into?.replacesControls,
});

/** The policy edit of a lock/unlock or toggle command that goes out now (device protocol §6). */
const policyEditOfCommand = (
  command: CommandRow,
  target: TCommandTarget,
  reason: TLockReason | null,
): gateRepo.TPolicyEdit => {
  const edited = editPolicy({ locked: false, controls: {} }, command.name, command.args);
  const [feature, control] = Object.entries(edited.controls)[0] ?? [];
  if (feature) return { deviceId: command.deviceId, controls: { [feature]: control! } };
  return edited.locked
    ? { deviceId: command.deviceId, locked: true, lockScreen: lockScreenOfTarget(target, reason) }
    : { deviceId: command.deviceId, locked: false };
};

/** Orders are written at most this many to a statement (gate.repository writeOrders). */
const WRITE_CHUNK = 1_000;

/**
 * Judges and writes orders (the gate's one write path): every order is judged (judgeOrder); a
 * refused one throws its AppError (`onRefused: 'throw'`, nothing is written) or is returned among
 * `refused` (`'skip'`, a bulk's skipped customers). For the accepted, in one statement per 1,000
 * (gate.repository writeOrders, issue 26): pending commands they supersede are ended, their command
 * rows written (a one-shot command with its notAfter: the organisation's expiry, else
 * COMMAND_STALE_AFTER_MS; a restricting one with its reason category and note), the policy edits
 * of those that go out now (a lock with its lock screen) and of policy-only orders made, one new
 * version per device, and each order's audit entry. More than 1,000 orders take several
 * statements: give a transaction then. With `liveChannels` (the outbox's, CommandDispatcher
 * liveChannels) what goes out now is written sent and the caller publishes the outcome after
 * commit (dispatchOutcome); with `twin` (one order) a pending command of the same name and
 * arguments is answered as `twin` and nothing is written.
 */
export const enqueueOrders = async (
  tx: DbOrTx,
  orders: TOrder[],
  options: {
    onRefused: 'throw' | 'skip';
    now?: Date | undefined;
    liveChannels?: readonly string[] | undefined;
    twin?: gateRepo.TGateWrite['twin'];
  },
): Promise<TGateOutcome> => {
  const now = options.now ?? new Date();
  const accepted: { order: TOrder; reason: TLockReason | null; id: string | null }[] = [];
  const refused: TGateOutcome['refused'] = [];
  for (const order of orders) {
    const verdict = judgeOrder(order);
    if (verdict.ok)
      accepted.push({ order, reason: verdict.reason, id: order.row ? (order.row.id ?? uuidv7()) : null });
    else if (options.onRefused === 'throw') throw refusalError(verdict.refusal);
    else refused.push({ order, refusal: verdict.refusal });
  }
  const outcome: TGateOutcome = {
    commands: [],
    policyDeviceIds: [],
    refused,
    twin: null,
    delivery: options.liveChannels ? { devices: [], listed: [], targets: new Map() } : null,
  };
  for (let i = 0; i < accepted.length; i += WRITE_CHUNK) {
    const chunk = accepted.slice(i, i + WRITE_CHUNK);
    const written = await gateRepo.writeOrders(tx, {
      ...planWrite(chunk, now),
      twin: options.twin,
      liveChannels: options.liveChannels ?? null,
    });
    if (written.twin) return { ...outcome, twin: written.twin };
    outcome.commands.push(...written.inserted);
    const commandDevices = new Set(written.inserted.filter((c) => c.runAt === null).map((c) => c.deviceId));
    outcome.policyDeviceIds.push(...written.devices.map((d) => d.id).filter((id) => !commandDevices.has(id)));
    if (outcome.delivery) {
      outcome.delivery.devices.push(...written.devices);
      outcome.delivery.listed.push(...written.listed);
      for (const { order } of chunk)
        outcome.delivery.targets.set(order.target.device.id, order.target.device);
    }
  }
  return outcome;
};

/** What writeOrders puts down for accepted orders (rows, supersedes, policy edits, audit entries). */
const planWrite = (
  accepted: { order: TOrder; reason: TLockReason | null; id: string | null }[],
  now: Date,
): Omit<gateRepo.TGateWrite, 'twin' | 'liveChannels'> => {
  // A newer half of a toggle ends a pending other half (a scheduled one supersedes when it is due).
  const ends = accepted.flatMap(({ order }) =>
    order.row?.supersedes?.length && !order.row.runAt
      ? [
          {
            deviceId: order.target.device.id,
            names: order.row.supersedes,
            error: order.row.supersededBecause ?? `superseded by ${order.name}`,
          },
        ]
      : [],
  );
  const rows: gateRepo.TCommandInsert[] = [];
  const commandOf = new Map<string, CommandRow>();
  for (const { order, reason, id } of accepted) {
    if (!order.row || !id) continue;
    const runAt = order.row.runAt ?? null;
    const expiresAt = expiryOf(order.target, runAt ?? now);
    const isOneShotNow = runAt === null && !isPolicyCommand(order.name);
    const row: gateRepo.TCommandInsert = {
      id,
      orgId: order.target.orgId,
      deviceId: order.target.device.id,
      name: order.name,
      args: argsFor(order, reason),
      createdBy: order.row.createdBy,
      batchId: order.row.batchId ?? null,
      runAt,
      expiresAt,
      notAfter: isOneShotNow
        ? (order.row.notAfter ?? expiresAt ?? new Date(now.getTime() + COMMAND_STALE_AFTER_MS))
        : null,
      reasonCategory: reason?.category ?? null,
      reason: reason?.note ?? null,
    };
    rows.push(row);
    // The row as it will read (before delivery), for the policy edit and the audit entry.
    commandOf.set(id, {
      ...row,
      state: 'queued',
      error: null,
      deliveryAttempts: 0,
      lastSentAt: null,
      result: null,
      createdAt: now,
      updatedAt: now,
    });
  }
  const edits = new Map<string, gateRepo.TPolicyEdit>();
  for (const { order, reason, id } of accepted) {
    const deviceId = order.target.device.id;
    const command = id ? commandOf.get(id) : undefined;
    if (command && command.runAt === null && isPolicyCommand(command.name))
      edits.set(deviceId, mergeEdit(edits.get(deviceId), policyEditOfCommand(command, order.target, reason)));
    if (order.policy) edits.set(deviceId, mergeEdit(edits.get(deviceId), { ...order.policy, deviceId }));
  }
  const audits = accepted.flatMap(({ order, reason, id }) =>
    order.audit
      ? [
          {
            entry: order.audit({ command: (id && commandOf.get(id)) || null, reason, superseded: [] }),
            supersededOf: order.row?.supersedes?.length ? order.target.device.id : null,
          },
        ]
      : [],
  );
  return { now, ends, rows, edits: [...edits.values()], audits };
};

/**
 * Hands what the gate wrote to the outbox after commit: the commands that go out now (a lock or
 * toggle as its device's policy, a one-shot as a command message) and the policies changed without
 * a command. An outcome written with liveChannels is published as written, without reading or
 * marking anything again (CommandDispatcher publishWritten). `background`: do not wait for the
 * publishing (a bulk's progress screen follows it).
 */
export const dispatchOutcome = async (
  dispatcher: CommandDispatcher,
  outcome: Pick<TGateOutcome, 'commands' | 'policyDeviceIds'> & Partial<Pick<TGateOutcome, 'delivery'>>,
  options: { background?: boolean } = {},
): Promise<void> => {
  const due = outcome.commands.filter((command) => command.runAt === null);
  const { delivery } = outcome;
  const work = async () => {
    if (delivery) {
      await dispatcher.publishWritten({ commands: due, ...delivery });
      return;
    }
    if (due.length > 0) await dispatcher.dispatchMany(due);
    if (outcome.policyDeviceIds.length > 0) await dispatcher.publishPolicies(outcome.policyDeviceIds);
  };
  if (options.background) void work().catch(() => undefined);
  else await work();
};

/**
 * Judges scheduled commands again now that they are due (issue 12: the customer may have paid up
 * since, or the phone been released): those the rules refuse are returned with why; the rest are
 * released (run_at cleared, a one-shot's notAfter from now), supersede a pending other half and
 * edit their devices' policies, in the caller's transaction. `targets` by device id.
 */
export const releaseScheduledOrders = async (
  tx: DbOrTx,
  due: CommandRow[],
  targets: Map<string, TCommandTarget>,
  now: Date,
): Promise<{ released: CommandRow[]; refused: { command: CommandRow; refusal: TGateRefusal }[] }> => {
  const released: CommandRow[] = [];
  const refused: { command: CommandRow; refusal: TGateRefusal }[] = [];
  for (const command of due) {
    const target = targets.get(command.deviceId);
    if (!target) continue;
    const verdict = judgeOrder({
      target,
      name: command.name as TGateCommand,
      reason: command.reasonCategory
        ? { category: command.reasonCategory as never, note: command.reason ?? undefined }
        : {},
      row: { args: command.args, createdBy: command.createdBy },
      audit: null,
    });
    if (!verdict.ok) refused.push({ command, refusal: verdict.refusal });
    else released.push(command);
  }
  const withNotAfter = released.map((command) => ({
    ...command,
    runAt: null,
    notAfter: isPolicyCommand(command.name)
      ? null
      : (command.expiresAt ?? new Date(now.getTime() + COMMAND_STALE_AFTER_MS)),
  }));
  await gateRepo.releaseScheduledRows(tx, withNotAfter, now);
  for (const command of withNotAfter) {
    const found = commandSpecByName(command.name);
    if (found?.spec.kind !== 'toggle') continue;
    await gateRepo.endPendingCommandsNamed(tx, {
      deviceIds: [command.deviceId],
      names: [found.isOn ? found.spec.off! : found.spec.on],
      event: 'supersede',
      error: `superseded by scheduled ${command.name}`,
    });
  }
  const edits = new Map<string, gateRepo.TPolicyEdit>();
  for (const command of withNotAfter.filter((c) => isPolicyCommand(c.name))) {
    const reason = command.reasonCategory
      ? { category: command.reasonCategory as TLockReason['category'], note: command.reason }
      : null;
    edits.set(
      command.deviceId,
      mergeEdit(
        edits.get(command.deviceId),
        policyEditOfCommand(command, targets.get(command.deviceId)!, reason),
      ),
    );
  }
  await gateRepo.editPolicies(tx, [...edits.values()], now);
  return { released: withNotAfter, refused };
};

/**
 * Takes the edits of cancelled or expired lock/unlock and toggle commands back from their devices'
 * policies: where the policy still holds a command's edit (no later command changed the feature),
 * the feature returns to what the phone reports (a toggle that is on keeps the arguments of its
 * newest done `on` command), as a new policy version. Scheduled commands never edited the policy.
 * Going back to a restriction the phone reports is judged like any restriction (issue 25): a
 * paid-up or released customer's phone keeps the freed state. `targets` by device id. Returns the
 * ids of the devices whose policy changed, to publish after commit.
 */
export const revertPolicyEdits = async (
  tx: DbOrTx,
  commands: CommandRow[],
  targets: Map<string, TCommandTarget>,
): Promise<string[]> => {
  const edits = new Map<string, gateRepo.TPolicyEdit>();
  const mayRestrict = (target: TCommandTarget, name: string) =>
    judgeCommand(
      { status: target.status, deviceType: target.deviceType, overduePaise: target.overduePaise },
      name,
      { category: 'other', note: 'the phone reports it' },
    ).ok;
  for (const command of commands.filter((c) => c.runAt === null && isPolicyCommand(c.name))) {
    const target = targets.get(command.deviceId);
    const found = commandSpecByName(command.name);
    if (!target || !found) continue;
    const device = target.device;
    const edit = edits.get(device.id) ?? { deviceId: device.id };
    if (found.spec.feature === 'lock') {
      const back = device.reportedLocked;
      if (device.desiredLocked === found.isOn && (!back || mayRestrict(target, found.spec.on)))
        edit.locked = back;
    } else {
      const feature = found.spec.feature;
      const own = editPolicy(INITIAL_POLICY, command.name, command.args).controls[feature];
      if (!isSameControl(device.desiredControls[feature], own)) continue;
      const isOn = device.reportedControls[feature] === true && mayRestrict(target, found.spec.on);
      const args = isOn
        ? ((await findNewestDoneCommand(tx, device.id, found.spec.on))?.args ?? {})
        : undefined;
      edit.controls = { ...edit.controls, [feature]: isOn ? { on: true, args: args! } : { on: false } };
    }
    edits.set(device.id, edit);
  }
  const changed = [...edits.values()].filter((e) => e.locked !== undefined || e.controls !== undefined);
  await gateRepo.editPolicies(tx, changed);
  return changed.map((e) => e.deviceId);
};

/**
 * The order that gives a target's policy the offline limit `ms` (device protocol §12.2; null for
 * none), with `extra` policy fields: a limit is a restriction, so a target the rules refuse it (a
 * paid-up loan) gets none instead; a released phone's order is refused altogether.
 */
export const offlineLimitOrder = (
  target: TCommandTarget,
  ms: number | null,
  extra: Omit<gateRepo.TPolicyEdit, 'deviceId' | 'offlineLockAfterMs'> = {},
): TOrder => {
  const order = (limit: number | null): TOrder => ({
    target,
    name: limit === null ? 'offline_limit_clear' : 'offline_limit_set',
    policy: { ...extra, offlineLockAfterMs: limit },
    needsEnrolment: false,
    audit: null,
  });
  const wanted = order(ms);
  return ms !== null && !judgeOrder(wanted).ok ? order(null) : wanted;
};

/**
 * The paid-through date a target's policy should carry now (device protocol §12.5; domain
 * paid-through.ts paidThroughFor): from its oldest unpaid instalment and the organisation's grace
 * days; null for none.
 */
export const paidThroughOfTarget = (target: TCommandTarget): Date | null =>
  paidThroughFor({
    status: target.status,
    deviceType: target.deviceType,
    oldestUnpaidDueDate: target.oldestUnpaidDueDate,
    graceDays: paidThroughGraceDaysOf(target.orgSettings),
  });

/**
 * The order that gives a target's policy its paid-through date as it should be now
 * (paidThroughOfTarget), or null when the policy already carries that date (nothing to tell the
 * phone). A date is a restriction: a released phone's order is refused.
 */
export const paidThroughOrder = (target: TCommandTarget): TOrder | null => {
  const paidThrough = paidThroughOfTarget(target);
  if ((target.device.desiredPaidThrough?.getTime() ?? null) === (paidThrough?.getTime() ?? null)) return null;
  return {
    target,
    name: paidThrough === null ? 'paid_through_clear' : 'paid_through_set',
    policy: { paidThrough },
    needsEnrolment: false,
    audit: null,
  };
};

/** Re-exported for the intents that end commands as the gate does (a payoff, a release, a cancel). */
export const endPendingCommandsNamed = gateRepo.endPendingCommandsNamed;

/** Db for intents that open their own transaction around the gate. */
export type TGateDeps = { db: Db; dispatcher: CommandDispatcher };
