import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';

/** Where the agent keeps its state unless `--state` says otherwise, relative to the working directory. */
export const DEFAULT_STATE_PATH = '.kisht-agent/device.json';

/** How many applied command ids the agent remembers for apply-once (oldest forgotten first). */
export const APPLIED_COMMAND_IDS_LIMIT = 1000;

/** Version of the state file layout, so a later agent can migrate an older file. */
const STATE_FILE_VERSION = 1;

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
});
export type TDeviceCredentials = z.infer<typeof ZDeviceCredentials>;

/** The whole state file: credentials, the simulated device state and the apply-once memory. */
export const ZAgentStateFile = z.object({
  version: z.literal(STATE_FILE_VERSION),
  credentials: ZDeviceCredentials,
  isLocked: z.boolean(),
  /** Ids of commands already applied, oldest first, at most APPLIED_COMMAND_IDS_LIMIT. */
  appliedCommandIds: z.array(z.string()),
});
export type TAgentStateFile = z.infer<typeof ZAgentStateFile>;

/** A fresh state for a device that has just enrolled: unlocked, nothing applied yet. */
export const createAgentState = (credentials: TDeviceCredentials): TAgentStateFile => ({
  version: STATE_FILE_VERSION,
  credentials,
  isLocked: false,
  appliedCommandIds: [],
});

/** Resolves a `--state` value (or the default) against the working directory. */
export const resolveStatePath = (statePath?: string): string => resolve(statePath ?? DEFAULT_STATE_PATH);

/** Thrown by readStateFile when there is no state file: the device has not enrolled here. */
export class StateFileMissingError extends Error {
  constructor(readonly statePath: string) {
    super(`no state file at ${statePath}; enrol first (kisht-agent enrol --qr ...)`);
    this.name = 'StateFileMissingError';
  }
}

/**
 * Reads and validates the state file at `statePath`. Throws StateFileMissingError when the file does
 * not exist, and an Error naming the path when it is not JSON or not a state file.
 */
export const readStateFile = async (statePath: string): Promise<TAgentStateFile> => {
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
  const parsed = ZAgentStateFile.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new Error(`state file ${statePath} is not a kisht-agent state file (${issues.join('; ')})`);
  }
  return parsed.data;
};

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
