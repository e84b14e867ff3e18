import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { OFFLINE_CHALLENGE_DIGITS, OFFLINE_CODE_ACTIONS } from '@kisht/domain/devices/offline-code';
import { type TSimSlot, ZPolicy, ZServerKey, ZSimSlot } from '@kisht/domain/devices/protocol.schema';
import { z } from 'zod';

/** Where the agent keeps its state unless `--state` says otherwise, relative to the working directory. */
export const DEFAULT_STATE_PATH = '.kisht-agent/device.json';

/** How many applied command ids the agent remembers for apply-once (oldest forgotten first). */
export const APPLIED_COMMAND_IDS_LIMIT = 1000;

/** How many offline events (accepted offline codes, offline auto-locks) the state file keeps. */
export const OFFLINE_EVENTS_LIMIT = 100;

/** Version of the state file layout written now; readStateFile migrates older versions. */
export const STATE_FILE_VERSION = 3;

/** Where a new simulated phone is until told otherwise: central Mumbai. */
export const DEFAULT_POSITION: TPosition = { latitude: 19.076, longitude: 72.8777, accuracyM: 25 };

/** What the device learnt when it enrolled: who it is and where to talk. */
export const ZDeviceCredentials = z.object({
  deviceId: z.string().min(1),
  /** MQTT password. Kept in a file readable only by its owner (mode 0600). */
  deviceSecret: z.string().min(1),
  mqttUrl: z.string().min(1),
  cmdTopic: z.string().min(1),
  evtTopic: z.string().min(1),
  /** The API server the device enrolled with (from the QR), without a trailing slash. */
  serverUrl: z.string().min(1),
  imei1: z.string(),
  imei2: z.string(),
  /** ISO 8601 UTC. */
  enrolledAt: z.string(),
  /** The organisation's offline limit from enrolment, ms; null or absent: none. */
  offlineLockAfterMs: z.number().int().positive().nullable().optional(),
  /**
   * The organisation's server key from enrolment (device protocol §5): only messages signed with it
   * are accepted. Absent in files of agents enrolled before protocol 2, which then accept nothing.
   */
  serverKey: ZServerKey.optional(),
  /** The retailer the lock screen names (who to call, whom to pay), from enrolment. */
  retailer: z.object({ name: z.string(), phone: z.string(), upiId: z.string().optional() }).optional(),
});
export type TDeviceCredentials = z.infer<typeof ZDeviceCredentials>;

/** The simulated position: WGS 84 degrees, accuracy radius in metres. */
export const ZPosition = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  accuracyM: z.number().nonnegative(),
});
export type TPosition = z.infer<typeof ZPosition>;

/** A lock-screen message of lost mode or anti-theft lost mode (ZLostModeArgs as applied). */
const ZLostModeState = z.object({ message: z.string(), phone: z.string().optional() });

/**
 * Something the phone did offline that the server must hear about: an accepted offline code
 * (source `offline_code`), the offline auto-lock (source `offline_limit`) or the paid-through
 * lock (source `paid_through`, device protocol §12.5). Each becomes one
 * 'offline_lock' report (see offlineReportData).
 */
export const ZOfflineEvent = z.object({
  /** Random id, to find the event again once its report reached the broker. */
  id: z.string().min(1),
  source: z.enum(['offline_code', 'offline_limit', 'paid_through']),
  action: z.enum(OFFLINE_CODE_ACTIONS),
  /** When it happened, ISO 8601 UTC. */
  at: z.string(),
  /** offline_code: the challenge the accepted code answered (burnt since). */
  challenge: z.string().optional(),
  /** offline_limit: the last check-in before the auto-lock. */
  lastCheckInAt: z.string().optional(),
  /** paid_through: the paid-through date that passed (device protocol §12.5). */
  paidThrough: z.string().optional(),
  /** True until the 'offline_lock' report reached the broker; sent after the next hello. */
  isReportPending: z.boolean(),
});
export type TOfflineEvent = z.infer<typeof ZOfflineEvent>;

/** The `data` of the 'offline_lock' report of an offline event. */
export const offlineReportData = (event: TOfflineEvent): Record<string, unknown> => {
  if (event.source === 'offline_code')
    return { action: event.action, challenge: event.challenge, at: event.at, source: event.source };
  if (event.source === 'paid_through')
    return { action: event.action, source: event.source, paidThrough: event.paidThrough, at: event.at };
  return { action: event.action, source: event.source, lastCheckInAt: event.lastCheckInAt, at: event.at };
};

/** A new offline challenge: OFFLINE_CHALLENGE_DIGITS crypto-random digits, never equal to `previous`. */
export const newOfflineChallenge = (previous?: string): string => {
  for (;;) {
    const challenge = String(randomInt(0, 10 ** OFFLINE_CHALLENGE_DIGITS)).padStart(
      OFFLINE_CHALLENGE_DIGITS,
      '0',
    );
    // A burnt challenge must never come back at once: its code would be accepted again.
    if (challenge !== previous) return challenge;
  }
};

/**
 * Layout version 1 (agent 0.1): credentials, lock state and applied ids only. Read and migrated,
 * never written.
 */
const ZAgentStateFileV1 = z.object({
  version: z.literal(1),
  credentials: ZDeviceCredentials,
  isLocked: z.boolean(),
  appliedCommandIds: z.array(z.string()),
});

/**
 * Layout version 2 (agent 0.1 with the catalogue): credentials, the simulated device state and the
 * apply-once memory. The stored command arguments use loose schemas on purpose: the domain schemas
 * may get stricter later, and an old file must still load. Read and migrated, never written now.
 */
const ZAgentStateFileV2 = z.object({
  version: z.literal(2),
  credentials: ZDeviceCredentials,
  isLocked: z.boolean(),
  /**
   * Toggle features the device has applied (feature of COMMAND_CATALOGUE → true while the `on`
   * command is in effect). `lock` mirrors isLocked.
   */
  controls: z.record(z.string(), z.boolean()),
  /** The SIM slots as the simulated phone sees them, by slot number. */
  sims: z.array(ZSimSlot),
  /** The SIMs changed and no 'sim' report has reached the broker yet: report after the next hello. */
  isSimReportPending: z.boolean(),
  position: ZPosition,
  /** set_wallpaper's args while the wallpaper is set, else null. */
  wallpaper: z.object({ text: z.string().optional(), imageUrl: z.string().optional() }).nullable(),
  /** lost_mode_on's args while lost mode is on, else null. */
  lostMode: ZLostModeState.nullable(),
  /** antitheft_lost_mode_on's args while anti-theft lost mode is on, else null. */
  antitheftLostMode: ZLostModeState.nullable(),
  /** Android packages locked by app_lock (empty after app_unlock). */
  lockedApps: z.array(z.string()),
  /** Android packages hidden by app_hide (empty after app_unhide). */
  hiddenApps: z.array(z.string()),
  /** The args of the last emi_alert shown (amountPaise, dueDate, overduePaise, message), or null. */
  lastAlert: z.record(z.string(), z.unknown()).nullable(),
  /** How many times a reboot command restarted the simulated phone. */
  bootCount: z.number().int().nonnegative(),
  /** An uninstall command removed the agent: it acked done and will not connect again. */
  uninstalled: z.boolean(),
  /** Action command name (location, reboot, miui_permission…) → when it was last applied, ISO 8601 UTC. */
  actionsAppliedAt: z.record(z.string(), z.string()),
  /** Ids of commands already applied, oldest first, at most APPLIED_COMMAND_IDS_LIMIT. */
  appliedCommandIds: z.array(z.string()),
});
/** How many messages and how many advertisements the simulated phone keeps (the oldest go first). */
export const INBOX_LIMIT = 20;

/** A message show_message put on the screen (issue 16). */
const ZShownMessage = z.object({
  title: z.string().optional(),
  text: z.string(),
  from: z.string(),
  shownAt: z.string(),
});
export type TShownMessage = z.infer<typeof ZShownMessage>;

/** An advertisement show_ad put on the screen (issue 16); imageSha256 is the digest the phone checked. */
const ZShownAd = z.object({
  advertisementId: z.number().int(),
  title: z.string(),
  text: z.string(),
  from: z.string(),
  imageUrl: z.string().optional(),
  imageSha256: z.string().optional(),
  shownAt: z.string(),
});
export type TShownAd = z.infer<typeof ZShownAd>;

/**
 * The whole state file (version 3): version 2 plus the offline side of design §5 (the offline
 * challenge, wrong tries, last check-in, offline events) and a save counter.
 */
export const ZAgentStateFile = ZAgentStateFileV2.extend({
  version: z.literal(STATE_FILE_VERSION),
  /**
   * Counts saves. A running agent adopts changes another process (kisht-agent offline-code, sim,
   * position) saved only from a file newer than its own state.
   */
  revision: z.number().int().nonnegative(),
  /** The challenge the phone shows for offline codes: OFFLINE_CHALLENGE_DIGITS digits. */
  offlineChallenge: z.string().regex(new RegExp(`^\\d{${OFFLINE_CHALLENGE_DIGITS}}$`)),
  /** Wrong codes entered for offlineChallenge (reset when it changes). */
  offlineWrongTries: z.number().int().nonnegative(),
  /**
   * The last check-in, ISO 8601 UTC: when a hello was last acknowledged by the broker, or when a
   * connection that had said hello closed. Enrolment counts as the first. The offline auto-lock
   * counts from it.
   */
  lastCheckInAt: z.string(),
  /** Accepted offline codes and offline auto-locks, oldest first, at most OFFLINE_EVENTS_LIMIT. */
  offlineEvents: z.array(ZOfflineEvent),
  /**
   * The screen-lock PIN the last change_pin set, as the simulated phone keeps it: SHA-256 hex of
   * "{deviceId}:{pin}" and when it changed (ISO 8601 UTC); absent or null while the customer's own
   * PIN is in place. (A real DPC hands the PIN to the platform and keeps nothing.)
   */
  devicePin: z.object({ hash: z.string(), changedAt: z.string() }).nullable().optional(),
  /**
   * The newest policy the device applied (device protocol §6): its version, the policy as the server
   * sent it and when the server made it. Absent: version 0, INITIAL_POLICY.
   */
  policy: z
    .object({
      version: z.number().int().min(0),
      policy: ZPolicy,
      issuedAt: z.string(),
      /** Features of this version the phone could not apply, and why (re-acked failed if resent). */
      failures: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  /**
   * When the broker last refused the credentials (CONNACK 4/5: released or removed), ISO 8601 UTC;
   * cleared by the next accepted hello. While set, the offline limit never locks the phone.
   */
  refusedAt: z.string().optional(),
  /** Ids of one-shot commands the server cancelled, newest last, at most APPLIED_COMMAND_IDS_LIMIT. */
  cancelledCommandIds: z.array(z.string()).optional(),
  /**
   * What the retailer sent the phone to show (issue 16), newest last, at most INBOX_LIMIT each:
   * show_message's messages and show_ad's advertisements, with when they were shown (ISO 8601 UTC).
   * Absent: nothing shown yet.
   */
  inbox: z
    .object({
      messages: z.array(ZShownMessage),
      ads: z.array(ZShownAd),
    })
    .optional(),
});
export type TAgentStateFile = z.infer<typeof ZAgentStateFile>;

/**
 * The SIMs of a new simulated phone: a dual-SIM phone with a Jio card in slot 1 (an ICCID derived
 * from the device id, so it is stable per device) and slot 2 empty.
 */
export const defaultSims = (deviceId: string): TSimSlot[] => [
  { slot: 1, iccid: iccidFor(deviceId), operator: 'Jio' },
  { slot: 2, iccid: null, operator: null },
];

/** A 19-digit ICCID (Indian prefix 8991, Luhn check digit) derived from `seed`. */
const iccidFor = (seed: string): string => {
  const digest = createHash('sha256').update(seed).digest();
  const body = `8991${Array.from(digest.subarray(0, 14), (byte) => byte % 10).join('')}`;
  return `${body}${luhnCheckDigit(body)}`;
};

const luhnCheckDigit = (digits: string): number => {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
};

/** A fresh state for a device that has just enrolled: unlocked, nothing applied, default SIMs and position. */
export const createAgentState = (credentials: TDeviceCredentials): TAgentStateFile => ({
  version: STATE_FILE_VERSION,
  revision: 0,
  credentials,
  isLocked: false,
  controls: {},
  sims: defaultSims(credentials.deviceId),
  isSimReportPending: false,
  position: { ...DEFAULT_POSITION },
  wallpaper: null,
  lostMode: null,
  antitheftLostMode: null,
  lockedApps: [],
  hiddenApps: [],
  lastAlert: null,
  bootCount: 0,
  uninstalled: false,
  actionsAppliedAt: {},
  appliedCommandIds: [],
  offlineChallenge: newOfflineChallenge(),
  offlineWrongTries: 0,
  lastCheckInAt: credentials.enrolledAt,
  offlineEvents: [],
});

/**
 * Upgrades a parsed version-2 file: keeps everything, with a new offline challenge, no wrong tries
 * and no offline events; the last check-in is the enrolment.
 */
const migrateV2 = (old: z.infer<typeof ZAgentStateFileV2>): TAgentStateFile => ({
  ...old,
  version: STATE_FILE_VERSION,
  revision: 0,
  offlineChallenge: newOfflineChallenge(),
  offlineWrongTries: 0,
  lastCheckInAt: old.credentials.enrolledAt,
  offlineEvents: [],
});

/**
 * Upgrades a parsed version-1 file: keeps credentials, lock state and applied ids, and fills the
 * new fields as a fresh device has them (controls.lock follows isLocked).
 */
const migrateV1 = (old: z.infer<typeof ZAgentStateFileV1>): TAgentStateFile => ({
  ...createAgentState(old.credentials),
  isLocked: old.isLocked,
  controls: old.isLocked ? { lock: true } : {},
  appliedCommandIds: old.appliedCommandIds,
});

/** Resolves a `--state` value (or the default) against `cwd` (default: the working directory). */
export const resolveStatePath = (statePath?: string, cwd: string = process.cwd()): string =>
  resolve(cwd, statePath ?? DEFAULT_STATE_PATH);

/** Thrown by readStateFile when there is no state file: the device has not enrolled here. */
export class StateFileMissingError extends Error {
  constructor(readonly statePath: string) {
    super(`no state file at ${statePath}; enrol first (kisht-agent enrol --qr ...)`);
    this.name = 'StateFileMissingError';
  }
}

/**
 * Reads and validates the state file at `statePath`, and says whether it was migrated: a version-1
 * (agent 0.1) or version-2 file is upgraded to the current layout in memory (the next save writes
 * it as version 3; DeviceAgent.load saves at once, so the new offline challenge stays). Throws
 * StateFileMissingError when the file does not exist, and an Error naming the path when it is not
 * JSON or not a state file.
 */
export const readStateFileInfo = async (
  statePath: string,
): Promise<{ state: TAgentStateFile; isMigrated: boolean }> => {
  let text: string;
  try {
    text = await readFile(statePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new StateFileMissingError(statePath);
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`state file ${statePath} is not valid JSON`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  const schema = version === 1 ? ZAgentStateFileV1 : version === 2 ? ZAgentStateFileV2 : ZAgentStateFile;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new Error(`state file ${statePath} is not a kisht-agent state file (${issues.join('; ')})`);
  }
  const data = parsed.data as
    | z.infer<typeof ZAgentStateFileV1>
    | z.infer<typeof ZAgentStateFileV2>
    | TAgentStateFile;
  if (data.version === 1) return { state: migrateV1(data), isMigrated: true };
  if (data.version === 2) return { state: migrateV2(data), isMigrated: true };
  return { state: data, isMigrated: false };
};

/** readStateFileInfo's state only (see there). */
export const readStateFile = async (statePath: string): Promise<TAgentStateFile> =>
  (await readStateFileInfo(statePath)).state;

/**
 * Writes the state file atomically: the JSON goes to a temporary file in the same directory, is
 * flushed to disk, and is renamed over the old file, so a crash leaves either the old state or the
 * new one, never half of one. Creates the directory if needed. The file is mode 0600 because it
 * holds the device secret.
 */
export const writeStateFile = async (statePath: string, state: TAgentStateFile): Promise<void> => {
  await mkdir(dirname(statePath), { recursive: true });
  const tempPath = `${statePath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const file = await open(tempPath, 'w', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(state, null, 2)}\n`, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tempPath, statePath);
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
};

/**
 * Returns `ids` with `id` appended, dropping the oldest entries beyond `limit`. Does not modify
 * `ids`.
 */
export const rememberCommandId = (
  ids: readonly string[],
  id: string,
  limit: number = APPLIED_COMMAND_IDS_LIMIT,
): string[] => [...ids.filter((known) => known !== id), id].slice(-limit);
