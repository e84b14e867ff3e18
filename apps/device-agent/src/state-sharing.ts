import { isDeepStrictEqual } from 'node:util';
import { lock } from 'proper-lockfile';
import {
  OFFLINE_EVENTS_LIMIT,
  readStateFile,
  StateFileMissingError,
  type TAgentStateFile,
  type TOfflineEvent,
  writeStateFile,
} from './state';

/**
 * One state file, two writers: a running agent (`kisht-agent run`) and the CLI commands that play
 * the phone's own screens while it runs (`sim`, `position`, `offline-code`). Each writer saves under
 * an exclusive lock on the file and, when the file changed since it last read it, merges instead of
 * overwriting, so neither loses the other's change (before this, the CLI could write back an offline
 * report the agent had just marked as sent).
 */

/**
 * Runs `task` while holding the cross-process lock of `statePath` (a `<statePath>.lock` directory,
 * proper-lockfile): waits up to about 5 s for another holder, then throws its ELOCKED error. A lock
 * left by a crashed process counts as stale after 10 s.
 */
export const withStateFileLock = async <T>(statePath: string, task: () => Promise<T>): Promise<T> => {
  const release = await lock(statePath, {
    realpath: false,
    stale: 10_000,
    retries: { retries: 100, factor: 1.2, minTimeout: 5, maxTimeout: 100 },
  });
  try {
    return await task();
  } finally {
    await release();
  }
};

/** Thrown when another agent process is running on the same state file (issue 27). */
export class StateFileInUseError extends Error {
  constructor(readonly statePath: string) {
    super(
      `another kisht-agent is running on ${statePath}: stop it first (two agents on one state file knock each other off the broker)`,
    );
    this.name = 'StateFileInUseError';
  }
}

/**
 * Claims `statePath` for one running agent (a `<statePath>.running.lock` directory, proper-lockfile,
 * refreshed every 5 s; left by a crashed process it is stale after 15 s) and returns its release.
 * Throws StateFileInUseError at once when a live agent holds it. Saves keep their own, short lock
 * (withStateFileLock), so `kisht-agent sim` and `position` still write while an agent runs; the
 * run lock is taken on its own name, as proper-lockfile keeps one lock per name in a process. A
 * lock lost meanwhile (its directory removed) is let go: the agent runs on.
 */
export const claimStateFileForRun = async (statePath: string): Promise<() => Promise<void>> => {
  try {
    return await lock(`${statePath}.running`, {
      realpath: false,
      stale: 15_000,
      update: 5_000,
      retries: 0,
      onCompromised: () => {},
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') throw new StateFileInUseError(statePath);
    throw error;
  }
};

/**
 * Offline events of two writers: every event of either, once (by id), oldest first, at most
 * OFFLINE_EVENTS_LIMIT. An event one side reported as sent stays sent.
 */
export const mergeOfflineEvents = (
  mine: readonly TOfflineEvent[],
  theirs: readonly TOfflineEvent[],
): TOfflineEvent[] => {
  const byId = new Map(theirs.map((event) => [event.id, event]));
  for (const event of mine) {
    const other = byId.get(event.id);
    byId.set(
      event.id,
      other ? { ...event, isReportPending: event.isReportPending && other.isReportPending } : event,
    );
  }
  return [...byId.values()].sort((a, b) => a.at.localeCompare(b.at)).slice(-OFFLINE_EVENTS_LIMIT);
};

/**
 * A three-way merge of the state file by top-level field: `base` is the state this writer last
 * read or wrote, `mine` its change, `theirs` the file as another writer left it. A field only one
 * side changed takes that side's value; offline events changed on both sides are joined
 * (mergeOfflineEvents); any other field changed on both sides takes `mine` (the later save).
 * `revision` is `mine`'s; the caller sets the one it saves.
 */
export const mergeStateFiles = (
  base: TAgentStateFile,
  mine: TAgentStateFile,
  theirs: TAgentStateFile,
): TAgentStateFile => {
  const merged: Record<string, unknown> = { ...mine };
  const keys = new Set([...Object.keys(mine), ...Object.keys(theirs)]);
  keys.delete('revision');
  for (const key of keys) {
    const field = key as keyof TAgentStateFile;
    if (isDeepStrictEqual(mine[field], base[field])) merged[key] = theirs[field];
    else if (field === 'offlineEvents' && !isDeepStrictEqual(theirs.offlineEvents, base.offlineEvents)) {
      merged[key] = mergeOfflineEvents(mine.offlineEvents, theirs.offlineEvents);
    }
  }
  return merged as TAgentStateFile;
};

/** Whether two states hold the same fields, their revisions aside. */
const isSameState = (a: TAgentStateFile, b: TAgentStateFile) =>
  isDeepStrictEqual({ ...a, revision: 0 }, { ...b, revision: 0 });

/**
 * Saves `next`, the change of a writer whose last known state is `base`, under the file's lock:
 * - the file is as `base` left it (its revision is not newer; or there is no file): `next` is
 *   written with the next revision, and that is the writer's new state;
 * - another writer saved since: the merge (mergeStateFiles) is written with the file's revision + 1.
 *   When the merge holds something of theirs `next` lacks, the writer's new state is `next` with the
 *   file's old revision, so a running agent's file watcher sees a newer file and adopts it (applying
 *   offline codes, reporting SIM changes); otherwise it is the merge.
 * Returns the writer's new state. Throws what the lock or the file system throws.
 */
export const saveSharedState = (
  statePath: string,
  base: TAgentStateFile,
  next: TAgentStateFile,
): Promise<TAgentStateFile> =>
  withStateFileLock(statePath, async () => {
    let onDisk: TAgentStateFile | undefined;
    try {
      onDisk = await readStateFile(statePath);
    } catch (error) {
      if (!(error instanceof StateFileMissingError)) throw error;
    }
    if (!onDisk || onDisk.revision <= base.revision) {
      const saved = { ...next, revision: Math.max(base.revision, next.revision) + 1 };
      await writeStateFile(statePath, saved);
      return saved;
    }
    const merged = { ...mergeStateFiles(base, next, onDisk), revision: onDisk.revision + 1 };
    await writeStateFile(statePath, merged);
    return isSameState(merged, next) ? merged : { ...next, revision: onDisk.revision };
  });
