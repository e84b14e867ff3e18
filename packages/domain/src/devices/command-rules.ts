import { CustomerStatus, DeviceType, type TCommandName, type TCustomerStatus } from '../common/enums';
import {
  isPaymentReason,
  LOCK_REASON_CATEGORIES,
  LOCK_REASON_RULES,
  type TLockReason,
  type TLockReasonCategory,
} from './lock-reasons';

/**
 * The safety rules of the command gate (issue 25, design §2 and §5), as data: what each command
 * does to the borrower's use of the phone, which customer statuses and device families allow it,
 * and what reason a restriction needs. The server's one command gate (modules/devices) applies
 * them to every intent (single, scheduled, bulk, the auto-lock ladder, offline codes, PIN, every
 * control toggle, lost modes, wallpaper, messages, the offline limit, release, and the Apple and
 * Android-Management translations); the web app asks the same function what to offer. Pure.
 */

/**
 * What a command does to the borrower's use of the phone:
 * - `restricts`: limits what the phone may do or shows (a lock, every "block"/"lock" toggle's on
 *   half, lost modes, a wallpaper the user cannot change, a PIN change, an offline lock code, an
 *   offline limit);
 * - `frees`: takes a restriction back (unlock, a toggle's off half, an offline unlock code);
 * - `neutral`: neither (locate, SIM info, reboot, alerts, messages, tracking, Apple status);
 * - `releases`: gives the phone up for good (uninstall).
 */
export type TCommandEffect = 'restricts' | 'frees' | 'neutral' | 'releases';

/**
 * Intents of the gate that are not command names (they write no command row or no device message
 * of their own): an offline lock or unlock code (device protocol §12.1), a change of the
 * offline limit a policy carries (§12.2) to a limit or to none, and of its paid-through date
 * (§12.5) to a date or to none.
 */
export const GATE_ONLY_INTENTS = [
  'offline_code_lock',
  'offline_code_unlock',
  'offline_limit_set',
  'offline_limit_clear',
  'paid_through_set',
  'paid_through_clear',
] as const;
export type TGateOnlyIntent = (typeof GATE_ONLY_INTENTS)[number];

/** Everything the gate judges: a device command (COMMAND_NAMES) or a gate-only intent. */
export type TGateCommand = TCommandName | TGateOnlyIntent;

/** How the gate treats one command (see COMMAND_RULES). */
export type TCommandRule = {
  effect: TCommandEffect;
  /**
   * The command leaves the borrower only a lock screen (a lock, lost modes, a new PIN, an offline
   * lock code): with nothing overdue it needs a reason category that is not a payment.
   */
  locksScreen: boolean;
};

const restricts = (locksScreen = false): TCommandRule => ({ effect: 'restricts', locksScreen });
const FREES: TCommandRule = { effect: 'frees', locksScreen: false };
const NEUTRAL: TCommandRule = { effect: 'neutral', locksScreen: false };

/**
 * Every command and gate-only intent with its rule (the table issue 25 asks for). A toggle's `on`
 * half restricts and its `off` half frees, except tracking and the SIM-tracking flags, which
 * watch rather than restrict (neutral both ways). New commands must be added here: the type
 * requires every name.
 */
export const COMMAND_RULES: Readonly<Record<TGateCommand, TCommandRule>> = {
  lock: restricts(true),
  unlock: FREES,
  lost_mode_on: restricts(true),
  lost_mode_off: FREES,
  antitheft_lost_mode_on: restricts(true),
  antitheft_lost_mode_off: FREES,
  change_pin: restricts(true),
  offline_code_lock: restricts(true),
  offline_code_unlock: FREES,
  offline_limit_set: restricts(),
  offline_limit_clear: FREES,
  paid_through_set: restricts(),
  paid_through_clear: FREES,
  set_offline_limit: restricts(),
  app_lock: restricts(),
  app_unlock: FREES,
  set_wallpaper: restricts(),
  remove_wallpaper: FREES,
  camera_lock: restricts(),
  camera_unlock: FREES,
  usb_on: restricts(),
  usb_off: FREES,
  outgoing_call_block: restricts(),
  outgoing_call_allow: FREES,
  bluetooth_lock: restricts(),
  bluetooth_unlock: FREES,
  wifi_on: restricts(),
  wifi_off: FREES,
  airplane_mode_on: restricts(),
  airplane_mode_off: FREES,
  accessibility_on: restricts(),
  accessibility_off: FREES,
  app_hide: restricts(),
  app_unhide: FREES,
  sim_lock: restricts(),
  sim_unlock: FREES,
  tracking: NEUTRAL,
  tracking_on: NEUTRAL,
  tracking_off: NEUTRAL,
  SIMTRACKINGON: NEUTRAL,
  SIMTRACKINGOFF: NEUTRAL,
  SIMTRACKINGOFFLINEON: NEUTRAL,
  SIMTRACKINGOFFLINEOFF: NEUTRAL,
  location: NEUTRAL,
  reboot: NEUTRAL,
  sim_info: NEUTRAL,
  emi_alert: NEUTRAL,
  miui_permission: NEUTRAL,
  uninstall_antitheft: NEUTRAL,
  install_apple_onemodapp: NEUTRAL,
  check_status: NEUTRAL,
  disable_activation_lock: NEUTRAL,
  show_message: NEUTRAL,
  show_ad: NEUTRAL,
  uninstall: { effect: 'releases', locksScreen: false },
};

/** The rule of a command name (COMMAND_RULES); an unknown name is treated as restricting. */
export const commandRuleOf = (name: string): TCommandRule =>
  COMMAND_RULES[name as TGateCommand] ?? restricts(true);

/** True when the command restricts the phone (COMMAND_RULES effect `restricts`). */
export const isRestrictingCommand = (name: string): boolean => commandRuleOf(name).effect === 'restricts';

/** True when the command leaves only a lock screen (COMMAND_RULES locksScreen). */
export const locksScreen = (name: string): boolean => commandRuleOf(name).locksScreen;

/** The names whose effect is `restricts` (for cancelling them at payoff), from COMMAND_RULES. */
export const RESTRICTING_COMMANDS: readonly TGateCommand[] = (
  Object.keys(COMMAND_RULES) as TGateCommand[]
).filter((name) => COMMAND_RULES[name].effect === 'restricts');

/** Why the gate refuses a command: the error code (packages/domain errors), the field and the message. */
export type TCommandRefusal = {
  code: 'LOAN_COMPLETED' | 'DEVICE_RELEASED' | 'PAYMENT_LOCK_NOT_ALLOWED' | 'VALIDATION_FAILED';
  field: 'customer_id' | 'reason_category' | 'reason';
  message: string;
};

/** What a customer status allows (spec §4 codes): the effects it takes, and why others are refused. */
export type TStatusRule = { allows: readonly TCommandEffect[]; refusal: TCommandRefusal | null };

const EVERYTHING: readonly TCommandEffect[] = ['restricts', 'frees', 'neutral', 'releases'];

/** The refusal for a restriction of a customer whose EMIs are completed (status 5). */
export const LOAN_COMPLETED_REFUSAL: TCommandRefusal = {
  code: 'LOAN_COMPLETED',
  field: 'customer_id',
  message: 'The EMIs of this customer are completed, so nothing may lock or restrict the phone',
};

/** The refusal for any command to a phone released from Kisht or whose Apple profile was removed. */
export const DEVICE_RELEASED_REFUSAL: TCommandRefusal = {
  code: 'DEVICE_RELEASED',
  field: 'customer_id',
  message: 'This phone was released from Kisht: no command can be sent to it',
};

/**
 * By customer status (spec §4): EMIs completed (5) takes nothing restricting, ever (only what
 * frees the phone, neutral commands and its release); uninstalled (3) and Apple-removed (4) take
 * nothing at all, as the phone has left Kisht (its release already turned everything off, and no
 * channel reaches it). Every other status takes everything (enrolment is checked apart).
 */
export const STATUS_RULES: Readonly<Record<TCustomerStatus, TStatusRule>> = {
  [CustomerStatus.INACTIVE]: { allows: EVERYTHING, refusal: null },
  [CustomerStatus.INSTALL]: { allows: EVERYTHING, refusal: null },
  [CustomerStatus.DEACTIVATE]: { allows: EVERYTHING, refusal: null },
  [CustomerStatus.EMI_MATURING]: { allows: EVERYTHING, refusal: null },
  [CustomerStatus.EMI_COMPLETED]: {
    allows: ['frees', 'neutral', 'releases'],
    refusal: LOAN_COMPLETED_REFUSAL,
  },
  [CustomerStatus.UNINSTALL]: { allows: [], refusal: DEVICE_RELEASED_REFUSAL },
  [CustomerStatus.APPLE_REMOVED]: { allows: [], refusal: DEVICE_RELEASED_REFUSAL },
};

/** The statuses whose rule allows `effect` (for a bulk query's `status in (…)`). */
export const statusesAllowing = (effect: TCommandEffect): TCustomerStatus[] =>
  (Object.keys(STATUS_RULES).map(Number) as TCustomerStatus[]).filter((status) =>
    STATUS_RULES[status].allows.includes(effect),
  );

/**
 * Device families that may not be restricted over a payment (Google's permissible-usage rule for
 * the Android Management API, developers.google.com/android/management/permissible-usage): a
 * restriction of such a phone needs a reason category that is not a payment.
 */
export const NO_PAYMENT_RESTRICTION_FAMILIES: readonly number[] = [DeviceType.MANAGED_ANDROID_API];

/** True when a phone of family `deviceType` may be restricted over a payment. */
export const isPaymentLockAllowed = (deviceType: number): boolean =>
  !NO_PAYMENT_RESTRICTION_FAMILIES.includes(deviceType);

/** What the gate knows of a target when it judges a command (loaded once per request). */
export type TCommandFacts = {
  /** Customer status, spec §4. */
  status: number;
  /** Device family, spec §1. */
  deviceType: number;
  /** The unpaid part of the instalments due before today (+05:30), paise. */
  overduePaise: number;
};

/** The reason a person gave (request `reason_category` and `reason`); both optional. */
export type TReasonInput = { category?: TLockReasonCategory | undefined; note?: string | undefined };

/** The gate's verdict: the command may go (with the reason to store, null for none) or why not. */
export type TCommandVerdict =
  | { ok: true; reason: TLockReason | null }
  | { ok: false; refusal: TCommandRefusal };

const refuse = (refusal: TCommandRefusal): TCommandVerdict => ({ ok: false, refusal });

/** Why a customer of `status` takes no command `name` (STATUS_RULES), or null when the status allows it. */
export const statusRefusalOf = (status: number, name: string): TCommandRefusal | null => {
  const statusRule = STATUS_RULES[status as TCustomerStatus];
  if (!statusRule || statusRule.allows.includes(commandRuleOf(name).effect)) return null;
  return statusRule.refusal;
};

/**
 * Judges one command for one target (issue 25), in this order:
 * 1. the customer's status (STATUS_RULES): EMIs completed refuses every restriction
 *    (LOAN_COMPLETED), a released or Apple-removed phone everything (DEVICE_RELEASED);
 * 2. for a restriction, its reason category: the one given, else `overdue_emi` when something is
 *    overdue. A command that leaves only a lock screen with nothing overdue and no category is
 *    refused (VALIDATION_FAILED, field reason_category); so is `overdue_emi` with nothing overdue;
 *    a payment category on a family that forbids it (managed Android) is refused
 *    (PAYMENT_LOCK_NOT_ALLOWED, field reason_category); `other` needs a note (field reason).
 * A command that does not restrict carries no reason. Pure.
 */
export const judgeCommand = (
  facts: TCommandFacts,
  name: string,
  given: TReasonInput = {},
): TCommandVerdict => {
  const rule = commandRuleOf(name);
  const statusRefusal = statusRefusalOf(facts.status, name);
  if (statusRefusal) return refuse(statusRefusal);
  if (rule.effect !== 'restricts') return { ok: true, reason: null };
  const isOverdue = facts.overduePaise > 0;
  const category = given.category ?? (isOverdue ? 'overdue_emi' : undefined);
  if (!category) {
    if (!rule.locksScreen) return { ok: true, reason: null };
    return refuse({
      code: 'VALIDATION_FAILED',
      field: 'reason_category',
      message: 'Nothing is overdue for this customer: choose why the phone is locked',
    });
  }
  if (isPaymentReason(category) && !isOverdue) {
    return refuse({
      code: 'VALIDATION_FAILED',
      field: 'reason_category',
      message: 'Nothing is overdue for this customer: an overdue EMI cannot be the reason',
    });
  }
  if (isPaymentReason(category) && !isPaymentLockAllowed(facts.deviceType)) {
    return refuse({
      code: 'PAYMENT_LOCK_NOT_ALLOWED',
      field: 'reason_category',
      message:
        'A managed-Android phone may not be locked or restricted for a missed payment (Google policy): choose another reason',
    });
  }
  const note = given.note?.trim() || null;
  if (LOCK_REASON_RULES[category].needsNote && !note) {
    return refuse({ code: 'VALIDATION_FAILED', field: 'reason', message: 'Say why the phone is restricted' });
  }
  return { ok: true, reason: { category, note } };
};

/**
 * What a screen may offer for command `name` to a customer (issue 25), from judgeCommand itself so
 * the screen offers exactly what the server accepts:
 * - `refused`: the rules refuse it whatever reason is given (a paid-up loan's restriction, a
 *   released phone), with why;
 * - `allowed` with `reason: null`: it takes no reason (it does not restrict);
 * - `allowed` with a reason offer: the categories the rules accept (never a payment one with
 *   nothing overdue or on managed Android), whether one must be chosen (`isRequired`: nothing the
 *   rules would imply is accepted), and the one they imply when none is chosen (`overdue_emi` while
 *   something is overdue, where the family allows payment locks).
 */
export type TCommandOffer =
  | { kind: 'refused'; refusal: TCommandRefusal }
  | {
      kind: 'allowed';
      reason: {
        categories: TLockReasonCategory[];
        isRequired: boolean;
        implied: TLockReasonCategory | null;
      } | null;
    };

/** The offer of command `name` for a target of these facts (see TCommandOffer). Pure. */
export const commandOfferFor = (facts: TCommandFacts, name: string): TCommandOffer => {
  const statusRefusal = statusRefusalOf(facts.status, name);
  if (statusRefusal) return { kind: 'refused', refusal: statusRefusal };
  if (commandRuleOf(name).effect !== 'restricts') return { kind: 'allowed', reason: null };
  const categories = LOCK_REASON_CATEGORIES.filter(
    (category) => judgeCommand(facts, name, { category, note: 'a note long enough' }).ok,
  );
  const bare = judgeCommand(facts, name, {});
  return {
    kind: 'allowed',
    reason: {
      categories,
      isRequired: !bare.ok,
      implied: bare.ok ? (bare.reason?.category ?? null) : null,
    },
  };
};
