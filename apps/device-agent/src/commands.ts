import {
  commandSpecByName,
  type TCommandSpec,
  type ZEmiAlertArgs,
  type ZLostModeArgs,
  type ZPackagesArgs,
  type ZShowAdArgs,
  type ZShowMessageArgs,
  type ZWallpaperArgs,
} from '@kisht/domain/devices/command-catalogue';
import type { TLocationFix, TReportedState, TSimSlot } from '@kisht/domain/devices/protocol.schema';
import type { z } from 'zod';
import { INBOX_LIMIT, type TAgentStateFile, type TPosition } from './state';

/**
 * How the simulated phone applies each command of COMMAND_CATALOGUE to its state. Pure functions:
 * the agent saves the state they return, acks, and runs the side effects (tracking timer, stopping
 * after uninstall).
 */

/** The error of a failed ack for a command name the agent does not know. */
export const UNSUPPORTED_COMMAND = 'unsupported command';

/**
 * What applying a command gave: the next state and the done ack's `result` (location → a
 * TLocationFix, sim_info → { sims }, uninstall → { location: TLocationFix }; none for the others).
 */
export type TApplied = { state: TAgentStateFile; result?: Record<string, unknown> };

/**
 * A position fix from the simulated position: latitude and longitude as decimal strings with six
 * places (about 0.1 m), the accuracy in metres, taken at `now`.
 */
export const locationFixOf = (position: TPosition, now: Date = new Date()): TLocationFix => ({
  latitude: position.latitude.toFixed(6),
  longitude: position.longitude.toFixed(6),
  accuracyM: position.accuracyM,
  at: now.toISOString(),
});

/**
 * What the device reports in every hello, ack and report: lock state, agent version, the toggles it
 * has applied (`controls`, always including `lock`, which mirrors isLocked) and its SIM slots.
 */
export const reportedStateOf = (state: TAgentStateFile, agentVersion: string): TReportedState => ({
  isLocked: state.isLocked,
  policyVersion: state.policy?.version ?? 0,
  agentVersion,
  controls: { ...state.controls, lock: state.isLocked },
  sims: state.sims.map((sim) => ({ ...sim })),
});

/**
 * The result a query action produces from `state` (location → a TLocationFix, sim_info → { sims }),
 * or undefined for other commands. Also answers a re-delivered query, which changes nothing.
 */
export const queryResultOf = (
  name: string,
  state: TAgentStateFile,
  now: Date = new Date(),
): Record<string, unknown> | undefined => {
  if (name === 'location') return locationFixOf(state.position, now);
  if (name === 'sim_info') return { sims: state.sims.map((sim) => ({ ...sim })) };
  return undefined;
};

/** "invalid args: path: message; …" from a zod error. */
const argsError = (error: z.ZodError): string =>
  `invalid args: ${error.issues.map((issue) => `${issue.path.join('.') || '(args)'}: ${issue.message}`).join('; ')}`;

/**
 * Applies command `name` with `args` to `state` at `now`. Returns the next state (with
 * actionsAppliedAt, controls and the feature's own fields updated; appliedCommandIds untouched) and
 * the ack result; or `{ error }` when the name is not in COMMAND_CATALOGUE ("unsupported command")
 * or the `on` command's args do not match the catalogue's schema ("invalid args: …"). Does not
 * modify `state`.
 */
export const applyCommand = (
  state: TAgentStateFile,
  command: { name: string; args: Record<string, unknown> },
  now: Date = new Date(),
): TApplied | { error: string } => {
  const found = commandSpecByName(command.name);
  if (!found) return { error: UNSUPPORTED_COMMAND };
  const { spec, isOn } = found;
  let args: Record<string, unknown> = {};
  if (isOn) {
    const parsed = spec.args.safeParse(command.args);
    if (!parsed.success) return { error: argsError(parsed.error) };
    args = parsed.data as Record<string, unknown>;
  }
  return spec.kind === 'toggle'
    ? { state: applyToggle(state, spec, isOn, args) }
    : applyAction(state, spec, args, now);
};

const applyToggle = (
  state: TAgentStateFile,
  spec: TCommandSpec,
  isOn: boolean,
  args: Record<string, unknown>,
): TAgentStateFile => {
  const next: TAgentStateFile = { ...state, controls: { ...state.controls, [spec.feature]: isOn } };
  switch (spec.feature) {
    case 'lock':
      next.isLocked = isOn;
      break;
    case 'wallpaper': {
      const { text, imageUrl } = args as z.infer<typeof ZWallpaperArgs>;
      next.wallpaper = isOn ? { ...(text ? { text } : {}), ...(imageUrl ? { imageUrl } : {}) } : null;
      break;
    }
    case 'lost_mode':
      next.lostMode = isOn ? lostModeOf(args as z.infer<typeof ZLostModeArgs>) : null;
      break;
    case 'antitheft_lost_mode':
      next.antitheftLostMode = isOn ? lostModeOf(args as z.infer<typeof ZLostModeArgs>) : null;
      break;
    case 'app_lock':
      next.lockedApps = isOn ? [...new Set((args as z.infer<typeof ZPackagesArgs>).packages)] : [];
      break;
    case 'app_hide_unhide':
      next.hiddenApps = isOn ? [...new Set((args as z.infer<typeof ZPackagesArgs>).packages)] : [];
      break;
    default:
      // Every other toggle (camera, USB debugging, tracking, SIM tracking, Wi-Fi…) is its flag.
      break;
  }
  return next;
};

const lostModeOf = ({ message, phone }: z.infer<typeof ZLostModeArgs>) => ({
  message,
  ...(phone ? { phone } : {}),
});

const applyAction = (
  state: TAgentStateFile,
  spec: TCommandSpec,
  args: Record<string, unknown>,
  now: Date,
): TApplied => {
  const next: TAgentStateFile = {
    ...state,
    actionsAppliedAt: { ...state.actionsAppliedAt, [spec.on]: now.toISOString() },
  };
  switch (spec.on) {
    case 'reboot':
      next.bootCount = state.bootCount + 1;
      break;
    case 'emi_alert':
      next.lastAlert = { ...(args as z.infer<typeof ZEmiAlertArgs>) };
      break;
    case 'uninstall':
      next.uninstalled = true;
      break;
    case 'show_message': {
      const message = args as z.infer<typeof ZShowMessageArgs>;
      const shown = { ...message, shownAt: now.toISOString() };
      next.inbox = { ...inboxOf(state), messages: [...inboxOf(state).messages, shown].slice(-INBOX_LIMIT) };
      break;
    }
    case 'show_ad': {
      const ad = args as z.infer<typeof ZShowAdArgs>;
      const shown = { ...ad, shownAt: now.toISOString() };
      next.inbox = { ...inboxOf(state), ads: [...inboxOf(state).ads, shown].slice(-INBOX_LIMIT) };
      break;
    }
    default:
      // location and sim_info only read; miui_permission, uninstall_antitheft and
      // install_apple_onemodapp are recorded in actionsAppliedAt.
      break;
  }
  // The server keeps where the phone was when the agent was removed (result.location).
  const result =
    spec.on === 'uninstall'
      ? { location: locationFixOf(next.position, now) }
      : queryResultOf(spec.on, next, now);
  return result ? { state: next, result } : { state: next };
};

/** The phone's inbox of shown messages and advertisements (empty lists before the first). */
export const inboxOf = (state: TAgentStateFile): NonNullable<TAgentStateFile['inbox']> =>
  state.inbox ?? { messages: [], ads: [] };

/** The SIM slots sorted by slot number; throws when a slot number repeats. */
export const normaliseSims = (sims: readonly TSimSlot[]): TSimSlot[] => {
  const sorted = [...sims].sort((a, b) => a.slot - b.slot).map((sim) => ({ ...sim }));
  for (let index = 1; index < sorted.length; index += 1) {
    if (sorted[index]!.slot === sorted[index - 1]!.slot) {
      throw new Error(`SIM slot ${sorted[index]!.slot} is given twice`);
    }
  }
  return sorted;
};
