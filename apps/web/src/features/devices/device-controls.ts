import type {
  TCommandName,
  TCommandState,
  TControlFeature,
  TCustomerStatus,
  TMessageFeature,
} from '@kisht/domain/common/enums';
import { COMMAND_STATES, isPendingCommandState } from '@kisht/domain/common/enums';
import { istDate } from '@kisht/domain/common/time';
import { commandNameFor, commandSpecByName, commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import {
  commandOfferFor,
  STATUS_RULES,
  type TCommandFacts,
  type TCommandOffer,
  type TCommandRefusal,
} from '@kisht/domain/devices/command-rules';
import { overduePaiseOf, type TLockRuleInstalment } from '@kisht/domain/devices/devices.rules';
import type { TBulkProgress, TDeviceCommand, TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import type { TLocationFix } from '@kisht/domain/devices/protocol.schema';

/**
 * How customer_details shows a toggle: the reported state, or where a pending command is taking
 * it ("Turning on…"). The one place that combines the two (code style: device state).
 */
export type TToggleDisplay = 'on' | 'off' | 'turningOn' | 'turningOff';

/**
 * Derives a toggle's display from the device's reported controls and its pending command for the
 * feature: a pending `on` command shows 'turningOn', a pending `off` one 'turningOff', otherwise
 * the reported state (a feature the phone never reported is off).
 */
export const deriveToggleDisplay = (
  device: Pick<TDeviceSummary, 'controls' | 'pendingControls'>,
  feature: TControlFeature,
): TToggleDisplay => {
  const pending = device.pendingControls[feature];
  if (pending && isPendingCommandState(pending.state)) {
    const match = commandSpecByName(pending.name);
    if (match) return match.isOn ? 'turningOn' : 'turningOff';
  }
  return device.controls[feature] === true ? 'on' : 'off';
};

/** Whether a toggle display has a command on its way. */
export const isToggleChanging = (display: TToggleDisplay): boolean =>
  display === 'turningOn' || display === 'turningOff';

/**
 * The device tab's toggles: the toggle features of availability.controls, less `lock`, which the
 * lock card above the tabs handles (with its confirmation).
 */
export const toggleFeaturesOf = (availability: TDeviceSummary['availability']): TControlFeature[] =>
  availability.controls.filter((feature) => feature !== 'lock' && commandSpecOf(feature)?.kind === 'toggle');

/**
 * The actions tab's one-shot actions: availability.actions, then any one-shot feature listed as a
 * control (the availability rules list uninstall_antitheft and install_apple_onemodapp among the
 * controls, but the catalogue makes them actions: there is no state to switch), each once.
 */
export const actionFeaturesOf = (availability: TDeviceSummary['availability']): TControlFeature[] => {
  const oneShotControls = availability.controls.filter(
    (feature) => commandSpecOf(feature)?.kind === 'action',
  );
  return [...new Set([...availability.actions, ...oneShotControls])];
};

/** Actions that ask before they run: they end the protection or interrupt the customer. */
export const DESTRUCTIVE_ACTIONS = [
  'uninstall',
  'uninstall_antitheft',
  'reboot',
] as const satisfies readonly TControlFeature[];
export type TDestructiveAction = (typeof DESTRUCTIVE_ACTIONS)[number];

/** Whether an action asks before it runs (see DESTRUCTIVE_ACTIONS). */
export const isDestructiveAction = (feature: TControlFeature): feature is TDestructiveAction =>
  DESTRUCTIVE_ACTIONS.some((candidate) => candidate === feature);

/**
 * Features whose `on` command takes arguments a person types (a small form before it is sent).
 * emi_alert takes arguments too, but the server fills them from the schedule.
 */
export const ARGS_FEATURES = [
  'wallpaper',
  'lost_mode',
  'antitheft_lost_mode',
  'app_lock',
  'app_hide_unhide',
] as const satisfies readonly TControlFeature[];
export type TArgsFeature = (typeof ARGS_FEATURES)[number];

/** Whether a feature's `on` command asks for arguments first (see ARGS_FEATURES). */
export const isArgsFeature = (feature: TControlFeature): feature is TArgsFeature =>
  ARGS_FEATURES.some((candidate) => candidate === feature);

/** A history entry as hasPendingDeviceCommand reads it: its state, and when it is due if scheduled. */
type TPendingCandidate = Pick<TDeviceCommand, 'state'> & { runAt?: string | null };

/**
 * Whether any command of the phone is still on its way: the device summary's pending command or
 * pending toggles, or a pending command in the history (an action such as fetch_location). A
 * history entry scheduled for later (`runAt` after `now`) is waiting, not on its way, so it does
 * not count (the screens would otherwise poll every second until it is due).
 */
export const hasPendingDeviceCommand = (
  device: Pick<TDeviceSummary, 'pendingCommand' | 'pendingControls'>,
  history: readonly TPendingCandidate[] | undefined,
  now: number = Date.now(),
): boolean =>
  device.pendingCommand !== null ||
  Object.values(device.pendingControls).some((command) => isPendingCommandState(command.state)) ||
  (history ?? []).some((command) => isPendingCommandState(command.state) && !isWaitingForRunAt(command, now));

/**
 * The lock or unlock on its way, if any: the summary's pending command when it is one, else the
 * pending `lock` toggle. Other pending commands (a camera lock) leave the lock card alone.
 */
export const pendingLockCommand = (
  device: Pick<TDeviceSummary, 'pendingCommand' | 'pendingControls'>,
): TDeviceCommand | null => {
  const candidates = [device.pendingCommand, device.pendingControls.lock];
  return (
    candidates.find(
      (command): command is TDeviceCommand =>
        command !== null &&
        command !== undefined &&
        (command.name === 'lock' || command.name === 'unlock') &&
        isPendingCommandState(command.state),
    ) ?? null
  );
};

/**
 * Whether a command is waiting for its run_at: still queued (or not yet ended) and due after
 * `now`. The server clears run_at once a scheduled command goes out.
 */
export const isWaitingForRunAt = (
  command: { state: TCommandState; runAt?: string | null },
  now: number = Date.now(),
): boolean =>
  isPendingCommandState(command.state) && Boolean(command.runAt && Date.parse(command.runAt) > now);

/**
 * The features with a command on its way in a history (newest first). A command scheduled for
 * later is not on its way yet, so its action stays free to run now.
 */
export const pendingByFeature = (
  history: ReadonlyArray<{
    feature: TControlFeature | TMessageFeature | null;
    state: TCommandState;
    runAt?: string | null;
  }>,
  now: number = Date.now(),
): Set<TControlFeature | TMessageFeature> =>
  new Set(
    history
      .filter(
        (item) => item.feature !== null && isPendingCommandState(item.state) && !isWaitingForRunAt(item, now),
      )
      .map((item) => item.feature as TControlFeature | TMessageFeature),
  );

/** Where a command of the schedule dialog comes from: the lock card, the device tab or the actions tab. */
export type TScheduleGroup = 'lock' | 'controls' | 'actions';

/**
 * A command that can be scheduled for later: lock or unlock, a toggle turned on or off, or an
 * action; `enable` as the control route takes it (toggles only).
 */
export type TScheduleOption = {
  name: TCommandName;
  feature: TControlFeature;
  enable?: boolean;
  group: TScheduleGroup;
};

/**
 * Actions that are never scheduled: uninstall goes through its own route with the user's OTP of
 * the moment (spec §4), which a command sent days later would not have.
 */
const UNSCHEDULABLE_ACTIONS: readonly TControlFeature[] = ['uninstall'];

/**
 * What the schedule dialog offers for a phone, in screen order: lock and unlock (when the lock
 * card offers them), each toggle of the device tab on and off, then each action of the actions tab.
 */
export const scheduleOptionsOf = (availability: TDeviceSummary['availability']): TScheduleOption[] => {
  const options: TScheduleOption[] = [];
  if (availability.controls.includes('lock')) {
    options.push(
      { name: 'lock', feature: 'lock', enable: true, group: 'lock' },
      { name: 'unlock', feature: 'lock', enable: false, group: 'lock' },
    );
  }
  for (const feature of toggleFeaturesOf(availability)) {
    const spec = commandSpecOf(feature);
    if (!spec?.off) continue;
    options.push(
      { name: spec.on, feature, enable: true, group: 'controls' },
      { name: spec.off, feature, enable: false, group: 'controls' },
    );
  }
  for (const feature of actionFeaturesOf(availability)) {
    const spec = commandSpecOf(feature);
    if (!spec || UNSCHEDULABLE_ACTIONS.includes(feature)) continue;
    options.push({ name: spec.on, feature, group: 'actions' });
  }
  return options;
};

/** States in which a command has ended (design §5). */
export const SETTLED_STATES: readonly TCommandState[] = COMMAND_STATES.filter(
  (state) => !isPendingCommandState(state),
);

/** How many of a batch's commands have ended (done, failed, cancelled or expired). */
export const settledCount = (progress: Pick<TBulkProgress, 'counts'>): number =>
  SETTLED_STATES.reduce((sum, state) => sum + (progress.counts[state] ?? 0), 0);

/** Whether every command of a batch has ended (a batch of none has). */
export const isBatchSettled = (progress: Pick<TBulkProgress, 'counts' | 'total'>): boolean =>
  settledCount(progress) >= progress.total;

/** A batch's progress as a percentage for a progress bar (a batch of none is complete). */
export const batchPercent = (progress: Pick<TBulkProgress, 'counts' | 'total'>): number =>
  progress.total <= 0 ? 100 : Math.min(100, Math.round((settledCount(progress) / progress.total) * 100));

/**
 * The progress to show after a poll: `answer` itself when it holds every item, or, when it holds
 * only the items changed since `known` was read (isChangesOnly), `known`'s items with those
 * replaced by commandId (new ones added, in customer order) under the answer's counts and cursor.
 */
export const mergeBulkProgress = (known: TBulkProgress | undefined, answer: TBulkProgress): TBulkProgress => {
  if (!answer.isChangesOnly || !known) return answer;
  if (answer.items.length === 0) return { ...answer, items: known.items };
  const changed = new Map(answer.items.map((item) => [item.commandId, item]));
  const items = known.items.map((item) => {
    const update = changed.get(item.commandId);
    if (!update) return item;
    changed.delete(item.commandId);
    return update;
  });
  if (changed.size > 0) {
    items.push(...changed.values());
    items.sort((a, b) => a.customerId - b.customerId);
  }
  return { ...answer, items };
};

const COORDINATE = /^-?\d{1,3}(\.\d+)?$/;

/**
 * The OpenStreetMap link of a location fix, or null when the fix has no usable coordinates (spec
 * §5: a phone that cannot or may not say where it is records both as 'Bypassed').
 */
export const mapLinkOf = (location: Pick<TLocationFix, 'latitude' | 'longitude'>): string | null => {
  const { latitude, longitude } = location;
  if (!COORDINATE.test(latitude) || !COORDINATE.test(longitude)) return null;
  if (Math.abs(Number(latitude)) > 90 || Math.abs(Number(longitude)) > 180) return null;
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}`;
};

/**
 * What the command gate knows of this customer when it judges a command (domain TCommandFacts):
 * the status, the device family and the unpaid part of the instalments due before `today` (+05:30,
 * overduePaiseOf). The screens ask commandOfferFor with these facts, so they offer exactly what the
 * server accepts (issue 25).
 */
export const commandFactsOf = (
  customer: { status: number; deviceType: number; emis: readonly TLockRuleInstalment[] },
  today: string = istDate(),
): TCommandFacts => ({
  status: customer.status,
  deviceType: customer.deviceType,
  overduePaise: overduePaiseOf(customer.emis, today),
});

/**
 * Why no command at all may go to this customer's phone (a phone released from Kisht, or whose
 * Apple profile was removed: its status allows nothing), or null when some may (STATUS_RULES).
 */
export const noCommandRefusalOf = (facts: Pick<TCommandFacts, 'status'>): TCommandRefusal | null => {
  const rule = STATUS_RULES[facts.status as TCustomerStatus];
  return rule && rule.allows.length === 0 ? rule.refusal : null;
};

/** The offer (commandOfferFor) of turning a toggle on (`enable`) or off, or of running an action. */
export const controlOfferOf = (
  facts: TCommandFacts,
  feature: TControlFeature,
  enable = true,
): TCommandOffer | null => {
  const spec = commandSpecOf(feature);
  return spec ? commandOfferFor(facts, commandNameFor(spec, enable)) : null;
};

/** Whether the rules refuse this offer whatever reason is given (a paid-up loan's restriction, a released phone). */
export const isRefused = (
  offer: TCommandOffer | null,
): offer is Extract<TCommandOffer, { kind: 'refused' }> => offer?.kind === 'refused';

/** A schedule option with what the rules say of it now. */
export type TOfferedScheduleOption = TScheduleOption & { offer: Extract<TCommandOffer, { kind: 'allowed' }> };

/**
 * What the schedule dialog offers this customer (scheduleOptionsOf), less what the rules refuse
 * whatever the reason (a paid-up loan's restrictions, anything for a released phone), each with its
 * offer (the reason it asks for).
 */
export const offeredScheduleOptionsOf = (
  availability: TDeviceSummary['availability'],
  facts: TCommandFacts,
): TOfferedScheduleOption[] =>
  scheduleOptionsOf(availability).flatMap((option) => {
    const offer = commandOfferFor(facts, option.name);
    return offer.kind === 'refused' ? [] : [{ ...option, offer }];
  });
