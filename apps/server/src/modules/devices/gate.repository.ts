import { COMMAND_TRANSITIONS, type TCommandEvent } from '@kisht/domain/devices/command-life';
import type { TLockScreen } from '@kisht/domain/devices/protocol.schema';
import { and, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { deviceCommands } from '../../db/schema';
import type { CommandRow } from './commands.repository';

/*
 * The command gate's writes (issue 25): the only code that inserts a command row or edits a
 * device's policy. Only command-gate.ts imports this file (`npm run lint` checks it). Plain
 * statements, no rules: what to write is decided by the gate.
 */

/** Rows go to PostgreSQL at most this many to a statement (well inside its parameter limit). */
const CHUNK = 1_000;

/** Inserts command rows as given, 1,000 to a statement; the inserted rows in order. */
export const insertCommandRows = async (
  db: DbOrTx,
  rows: (typeof deviceCommands.$inferInsert)[],
): Promise<CommandRow[]> => {
  const inserted: CommandRow[] = [];
  for (let i = 0; i < rows.length; i += CHUNK)
    inserted.push(
      ...(await db
        .insert(deviceCommands)
        .values(rows.slice(i, i + CHUNK))
        .returning()),
    );
  return inserted;
};

/**
 * Ends the pending (due) commands with these names of these devices with `event` (a supersede, a
 * payoff's or a release's cancel), `error` saying why; with `includeScheduled`, those scheduled for
 * later too. Returns the rows ended.
 */
export const endPendingCommandsNamed = async (
  db: DbOrTx,
  options: {
    deviceIds: string[];
    names: readonly string[] | 'all';
    event: Extract<TCommandEvent, 'supersede' | 'release' | 'cancel'>;
    error: string;
    includeScheduled?: boolean;
  },
): Promise<CommandRow[]> => {
  const { from, to } = COMMAND_TRANSITIONS[options.event];
  const ended: CommandRow[] = [];
  for (let i = 0; i < options.deviceIds.length; i += CHUNK) {
    ended.push(
      ...(await db
        .update(deviceCommands)
        .set({ state: to, error: options.error, updatedAt: new Date() })
        .where(
          and(
            inArray(deviceCommands.deviceId, options.deviceIds.slice(i, i + CHUNK)),
            options.names === 'all' ? undefined : inArray(deviceCommands.name, [...options.names]),
            inArray(deviceCommands.state, [...from]),
            options.includeScheduled
              ? undefined
              : or(isNull(deviceCommands.runAt), lte(deviceCommands.runAt, new Date())),
          ),
        )
        .returning()),
    );
  }
  return ended;
};

/**
 * One change of a device's policy (device protocol §6): the lock state and/or some toggle features
 * (feature → its new entry), the offline limit, the lock screen. Left out (undefined): unchanged.
 */
export type TPolicyEdit = {
  deviceId: string;
  locked?: boolean | undefined;
  controls?: Record<string, { on: boolean; args?: Record<string, unknown> }> | undefined;
  /** The offline limit in ms, null for none; undefined leaves it. */
  offlineLockAfterMs?: number | null | undefined;
  /** What the lock screen shows from this version on (device protocol §9.2); undefined leaves it. */
  lockScreen?: TLockScreen | undefined;
  /** Every control replaced by `controls` (a reset), instead of merged into the current ones. */
  replacesControls?: boolean | undefined;
};

/**
 * Edits the desired policy of many devices, one statement per 1,000, and makes each a new policy
 * version (one more, never back; policy_updated_at = `at`), even when nothing changed, so a re-sent
 * intent always reaches the phone. Each device id must appear once.
 */
export const editPolicies = async (db: DbOrTx, edits: TPolicyEdit[], at: Date = new Date()) => {
  for (let i = 0; i < edits.length; i += CHUNK) {
    const chunk = edits.slice(i, i + CHUNK);
    await db.execute(sql`
      update devices d
      set desired_locked = coalesce(v.locked, d.desired_locked),
          desired_controls = case when v.replaces_controls then coalesce(v.controls::jsonb, '{}'::jsonb)
                                  else d.desired_controls || coalesce(v.controls::jsonb, '{}'::jsonb) end,
          desired_offline_lock_after_ms = case when v.sets_offline then v.offline_ms
                                               else d.desired_offline_lock_after_ms end,
          desired_lock_screen = coalesce(v.lock_screen::jsonb, d.desired_lock_screen),
          policy_version = d.policy_version + 1,
          policy_updated_at = ${at.toISOString()}::timestamptz
      from unnest(
        ${sql.param(chunk.map((e) => e.deviceId))}::uuid[],
        ${sql.param(chunk.map((e) => e.locked ?? null))}::boolean[],
        ${sql.param(chunk.map((e) => (e.controls ? JSON.stringify(e.controls) : null)))}::text[],
        ${sql.param(chunk.map((e) => e.replacesControls === true))}::boolean[],
        ${sql.param(chunk.map((e) => e.offlineLockAfterMs !== undefined))}::boolean[],
        ${sql.param(chunk.map((e) => e.offlineLockAfterMs ?? null))}::bigint[],
        ${sql.param(chunk.map((e) => (e.lockScreen ? JSON.stringify(e.lockScreen) : null)))}::text[]
      ) as v (id, locked, controls, replaces_controls, sets_offline, offline_ms, lock_screen)
      where d.id = v.id`);
  }
};

/**
 * Takes scheduled commands that came due out of waiting (run_at cleared), each with the notAfter
 * the gate worked out (null for lock/toggle halves, which travel as policies).
 */
export const releaseScheduledRows = async (
  db: DbOrTx,
  released: { id: string; notAfter: Date | null }[],
  at: Date,
): Promise<void> => {
  if (released.length === 0) return;
  await queryRows(
    db,
    sql`update device_commands c set run_at = null, updated_at = ${at.toISOString()}::timestamptz,
          not_after = coalesce(v.not_after, c.not_after)
        from unnest(
          ${sql.param(released.map((r) => r.id))}::uuid[],
          ${sql.param(released.map((r) => r.notAfter?.toISOString() ?? null))}::timestamptz[]
        ) as v (id, not_after)
        where c.id = v.id and c.state = 'queued'
        returning c.id`,
  );
};
