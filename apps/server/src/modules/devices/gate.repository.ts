import { PENDING_COMMAND_STATES } from '@kisht/domain/common/enums';
import { COMMAND_TRANSITIONS, type TCommandEvent } from '@kisht/domain/devices/command-life';
import { POLICY_COMMAND_NAMES } from '@kisht/domain/devices/device-policy';
import type { TLockScreen } from '@kisht/domain/devices/protocol.schema';
import { and, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { rowsFromJson } from '../../db/json-rows';
import { deviceCommands, devices } from '../../db/schema';
import { checkAuditEntry, type TAuditEntry } from '../audit/audit.repository';
import type { CommandRow } from './commands.repository';
import type { DeviceRow } from './devices.repository';

/*
 * The command gate's writes (issue 25): the only code that inserts a command row or edits a
 * device's policy. Only command-gate.ts imports this file (`npm run lint` checks it). Plain
 * statements, no rules: what to write is decided by the gate.
 */

/** Rows go to PostgreSQL at most this many to a statement (well inside its parameter limit). */
const CHUNK = 1_000;

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
  /** The paid-through date (device protocol §12.5), UTC, null for none; undefined leaves it. */
  paidThrough?: Date | null | undefined;
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
    await db.execute(sql`update devices d ${policyEditsOf(edits.slice(i, i + CHUNK), at)} where d.id = v.id`);
  }
};

/**
 * The SET and FROM of an `update devices d` making each of `edits` a new policy version (one more;
 * policy_updated_at = `at`): the edit rows are `v`, so the caller adds `where d.id = v.id`. The one
 * place a policy edit is written: editPolicies and writeOrders use it.
 */
const policyEditsOf = (edits: TPolicyEdit[], at: Date): SQL => sql`
      set desired_locked = coalesce(v.locked, d.desired_locked),
          desired_controls = case when v.replaces_controls then coalesce(v.controls::jsonb, '{}'::jsonb)
                                  else d.desired_controls || coalesce(v.controls::jsonb, '{}'::jsonb) end,
          desired_offline_lock_after_ms = case when v.sets_offline then v.offline_ms
                                               else d.desired_offline_lock_after_ms end,
          desired_paid_through = case when v.sets_paid_through then v.paid_through
                                      else d.desired_paid_through end,
          desired_lock_screen = coalesce(v.lock_screen::jsonb, d.desired_lock_screen),
          policy_version = d.policy_version + 1,
          policy_updated_at = ${at.toISOString()}::timestamptz
      from unnest(
        ${uuids(edits.map((e) => e.deviceId))},
        ${sql.param(edits.map((e) => e.locked ?? null))}::boolean[],
        ${jsons(edits.map((e) => e.controls ?? null))},
        ${sql.param(edits.map((e) => e.replacesControls === true))}::boolean[],
        ${sql.param(edits.map((e) => e.offlineLockAfterMs !== undefined))}::boolean[],
        ${sql.param(edits.map((e) => e.offlineLockAfterMs ?? null))}::bigint[],
        ${jsons(edits.map((e) => e.lockScreen ?? null))},
        ${sql.param(edits.map((e) => e.paidThrough !== undefined))}::boolean[],
        ${stamps(edits.map((e) => e.paidThrough ?? null))}
      ) as v (id, locked, controls, replaces_controls, sets_offline, offline_ms, lock_screen,
              sets_paid_through, paid_through)`;

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

/** A command row as the gate writes it; state and delivery are worked out by writeOrders. */
export type TCommandInsert = {
  id: string;
  orgId: number;
  deviceId: string;
  name: string;
  args: Record<string, unknown>;
  createdBy: number | null;
  batchId: string | null;
  runAt: Date | null;
  expiresAt: Date | null;
  notAfter: Date | null;
  reasonCategory: string | null;
  reason: string | null;
};

/** Everything one write of the gate puts down (see writeOrders). */
export type TGateWrite = {
  now: Date;
  /**
   * A single command's pending twin to look for (same device, name and arguments, due): when one
   * exists nothing is written and it is answered instead of a duplicate.
   */
  twin?: { deviceId: string; name: string; args: Record<string, unknown> } | undefined;
  /** Pending due commands of these names of these devices end cancelled (superseded), with why. */
  ends: { deviceId: string; names: readonly string[]; error: string }[];
  rows: TCommandInsert[];
  /** One per device. */
  edits: TPolicyEdit[];
  /** Entries to append; `supersededOf` adds the ids ended for that device as `superseded`. */
  audits: { entry: TAuditEntry; supersededOf: string | null }[];
  /**
   * The channels the outbox delivers to now ('mqtt' and those with a bridge): rows that go out now
   * to an enrolled phone of one are written sent (delivery attempt 1, last sent now), as are the
   * pending lock/toggle commands its new policy carries, so an ack that beats the publish still
   * counts; the caller publishes after commit. Null: everything stays queued for a later send.
   */
  liveChannels: readonly string[] | null;
};

/** What writeOrders wrote (rows as they now are), or the twin it found instead. */
export type TGateWritten = {
  twin: CommandRow | null;
  inserted: CommandRow[];
  ended: CommandRow[];
  /** The devices whose policy was edited, as they now are (new policy version). */
  devices: DeviceRow[];
  /** The pending lock/toggle commands written before that the edited devices' policies carry. */
  listed: CommandRow[];
};

const uuids = (values: string[]) => sql`${sql.param(values)}::uuid[]`;
const texts = (values: (string | null)[]) => sql`${sql.param(values)}::text[]`;
const ints = (values: (number | null)[]) => sql`${sql.param(values)}::int[]`;
const stamps = (values: (Date | null)[]) =>
  sql`${sql.param(values.map((v) => v?.toISOString() ?? null))}::timestamptz[]`;
const jsons = (values: (unknown | null)[]) =>
  sql`${sql.param(values.map((v) => (v === null || v === undefined ? null : JSON.stringify(v))))}::text[]`;

/**
 * The command gate's one write (issue 26), as a single statement (data-modifying CTEs, atomic by
 * itself, no BEGIN/COMMIT needed): supersedes pending commands, inserts the command rows, edits the
 * policies (one new version per device, policy_updated_at = now), marks what goes out now as sent
 * (see TGateWrite.liveChannels) and appends the audit entries, unless a pending twin was found.
 * Keep a write to at most ~1,000 rows (PostgreSQL's parameter and statement sizes); the caller
 * splits larger ones. Throws (under test) when an audit entry is not a ZAuditEvent.
 */
export const writeOrders = async (db: DbOrTx, write: TGateWrite): Promise<TGateWritten> => {
  const { now, twin, rows, edits, audits } = write;
  for (const { entry } of audits) checkAuditEntry(entry);
  const ends = write.ends.flatMap((e) =>
    e.names.map((name) => ({ deviceId: e.deviceId, name, error: e.error })),
  );
  const at = sql`${now.toISOString()}::timestamptz`;
  const pending = sql`${sql.param([...PENDING_COMMAND_STATES])}::text[]`;
  const isLive = write.liveChannels !== null;
  const go = sql`(select ok from go)`;
  const twinCte: SQL = twin
    ? sql`select c.* from device_commands c
          where c.device_id = ${twin.deviceId}::uuid and c.name = ${twin.name}
            and c.args = ${JSON.stringify(twin.args)}::jsonb and c.state = any(${pending})
            and (c.run_at is null or c.run_at <= ${at})
          order by c.created_at desc, c.id desc limit 1`
    : sql`select c.* from device_commands c where false`;
  const [result] = await queryRows<{
    twin: unknown;
    inserted: unknown;
    ended: unknown;
    devices: unknown;
    listed: unknown;
  }>(
    db,
    sql`
    with twin as (${twinCte}),
    go as (select not exists (select 1 from twin) as ok),
    ends as (
      select distinct on (device_id, name) device_id, name, error
      from unnest(${uuids(ends.map((e) => e.deviceId))}, ${texts(ends.map((e) => e.name))},
                  ${texts(ends.map((e) => e.error))}) as e (device_id, name, error)
    ),
    ended as (
      update device_commands c
      set state = ${COMMAND_TRANSITIONS.supersede.to}, error = e.error, updated_at = ${at}
      from ends e
      where ${go} and c.device_id = e.device_id and c.name = e.name
        and c.state = any(${sql.param([...COMMAND_TRANSITIONS.supersede.from])}::text[])
        and (c.run_at is null or c.run_at <= ${at})
      returning c.*
    ),
    edited as (
      update devices d ${policyEditsOf(edits, now)}
      where ${go} and d.id = v.id
      returning d.*
    ),
    live as (
      select d.id from devices d
      where ${isLive}::boolean and d.enrolled_at is not null
        and d.id = any(${uuids([...new Set([...rows.map((r) => r.deviceId), ...edits.map((e) => e.deviceId)])])})
        and ((d.channel = 'mqtt' and d.secret_hash is not null)
          or (d.channel <> 'mqtt' and d.mdm_id is not null
              and d.channel = any(${sql.param([...(write.liveChannels ?? [])])}::text[])))
    ),
    inserted as (
      insert into device_commands (id, org_id, device_id, name, args, state, created_by, batch_id,
        run_at, expires_at, not_after, reason_category, reason, delivery_attempts, last_sent_at,
        created_at, updated_at)
      select v.id, v.org_id, v.device_id, v.name, v.args::jsonb,
             case when v.run_at is null and v.device_id in (select id from live) then 'sent' else 'queued' end,
             v.created_by, v.batch_id, v.run_at, v.expires_at, v.not_after, v.reason_category, v.reason,
             case when v.run_at is null and v.device_id in (select id from live) then 1 else 0 end,
             case when v.run_at is null and v.device_id in (select id from live) then ${at} end,
             ${at}, ${at}
      from unnest(
        ${uuids(rows.map((r) => r.id))}, ${ints(rows.map((r) => r.orgId))},
        ${uuids(rows.map((r) => r.deviceId))}, ${texts(rows.map((r) => r.name))},
        ${jsons(rows.map((r) => r.args))}, ${ints(rows.map((r) => r.createdBy))},
        ${uuids(rows.map((r) => r.batchId) as string[])}, ${stamps(rows.map((r) => r.runAt))},
        ${stamps(rows.map((r) => r.expiresAt))}, ${stamps(rows.map((r) => r.notAfter))},
        ${texts(rows.map((r) => r.reasonCategory))}, ${texts(rows.map((r) => r.reason))}
      ) as v (id, org_id, device_id, name, args, created_by, batch_id, run_at, expires_at, not_after,
              reason_category, reason)
      where ${go}
      returning *
    ),
    listed as (
      update device_commands c
      set state = case when c.state = any(${sql.param([...COMMAND_TRANSITIONS.publish.from])}::text[])
                       then ${COMMAND_TRANSITIONS.publish.to} else c.state end,
          delivery_attempts = c.delivery_attempts + 1, last_sent_at = ${at}, updated_at = ${at}
      where ${go} and c.device_id in (select id from edited) and c.device_id in (select id from live)
        and c.state = any(${pending}) and c.run_at is null
        and c.name = any(${sql.param([...POLICY_COMMAND_NAMES])}::text[])
        and not exists (select 1 from ends e where e.device_id = c.device_id and e.name = c.name)
      returning c.*
    ),
    audited as (
      insert into audit_log (org_id, actor_user_id, action, entity, entity_id, details, created_at)
      select a.org_id, a.actor_user_id, a.action, a.entity, a.entity_id,
             case when a.superseded_of is null then a.details::jsonb
                  else a.details::jsonb || jsonb_build_object('superseded', coalesce(
                    (select jsonb_agg(e.id order by e.id) from ended e where e.device_id = a.superseded_of),
                    '[]'::jsonb)) end,
             ${at}
      from unnest(
        ${ints(audits.map((a) => a.entry.orgId))}, ${ints(audits.map((a) => a.entry.actorUserId ?? null))},
        ${texts(audits.map((a) => a.entry.action))}, ${texts(audits.map((a) => a.entry.entity))},
        ${texts(audits.map((a) => a.entry.entityId))}, ${jsons(audits.map((a) => a.entry.details ?? {}))},
        ${uuids(audits.map((a) => a.supersededOf) as string[])}
      ) as a (org_id, actor_user_id, action, entity, entity_id, details, superseded_of)
      where ${go}
      returning 1
    )
    select (select to_jsonb(t) from twin t) as twin,
           (select coalesce(jsonb_agg(to_jsonb(i)), '[]'::jsonb) from inserted i) as inserted,
           (select coalesce(jsonb_agg(to_jsonb(e)), '[]'::jsonb) from ended e) as ended,
           (select coalesce(jsonb_agg(to_jsonb(d)), '[]'::jsonb) from edited d) as devices,
           (select coalesce(jsonb_agg(to_jsonb(l) order by l.created_at, l.id), '[]'::jsonb) from listed l) as listed,
           (select count(*) from audited) as audits`,
  );
  const inserted = new Map(rowsFromJson(deviceCommands, result?.inserted).map((row) => [row.id, row]));
  return {
    twin: result?.twin ? (rowsFromJson(deviceCommands, [result.twin])[0] ?? null) : null,
    // In the order they were given.
    inserted: rows.flatMap((r) => inserted.get(r.id) ?? []),
    ended: rowsFromJson(deviceCommands, result?.ended),
    devices: rowsFromJson(devices, result?.devices),
    listed: rowsFromJson(deviceCommands, result?.listed),
  };
};
