import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceAgent } from '@kisht/device-agent/agent';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiPost, enrolReferenceAgent, TEST_LOCK_REASON, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { enqueueOrders, loadTargetsOfDevices } from './command-gate';
import { redeliverUnacknowledgedCommands } from './command-jobs.service';

/**
 * The re-send of commands a connected phone left unacknowledged (design §5: nothing is lost
 * silently), with the real reference agent over the embedded broker.
 */
let t: TestApp;
let retailer: string;
let stateDir: string;

beforeEach(async () => {
  t = await createTestApp();
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-redelivery-'));
});
afterEach(async () => {
  await t.close();
  // Retried: an agent that was just stopped may still be finishing a write (ENOTEMPTY).
  rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

/**
 * A command row committed through the command gate and never published (as when the broker was
 * unreachable at commit): `id`, `orgId` and `createdAt` are the gate's own (now).
 */
const insertCommand = (
  db: TestApp['app']['ctx']['db'],
  row: { deviceId: string; name: string; args: Record<string, unknown> },
) =>
  db.transaction(async (tx) => {
    const target = (await loadTargetsOfDevices(tx, [row.deviceId])).get(row.deviceId)!;
    const outcome = await enqueueOrders(
      tx,
      [
        {
          target,
          name: row.name as 'lock',
          reason: { category: 'customer_request' },
          row: { args: row.args, createdBy: null },
          audit: null,
        },
      ],
      { onRefused: 'throw' },
    );
    return outcome.commands[0]!;
  });

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const later = (from: number, ms: number) => new Date(from + ms);

const commandRow = async (id: string) =>
  (
    await queryRows<{ state: string; delivery_attempts: number }>(
      t.app.ctx.db,
      sql`select state, delivery_attempts from device_commands where id = ${id}`,
    )
  )[0]!;

/**
 * Enrols and starts a real agent; resolves once the server has handled its hello (and the hello's
 * re-send): an unlock sent after it is acknowledged done, and a device's events are recorded in
 * order.
 */
const connectedAgent = async (): Promise<{ agent: DeviceAgent; customerId: number }> => {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const enrolled = await enrolReferenceAgent(t, retailer, join(stateDir, 'phone.json'));
  // After its sync (protocol §6.4): an unlock written while the sync was read would otherwise wait
  // for the re-send job (not running here), as the phone leaves what came before its sync unapplied.
  await waitUntil(async () => enrolled.agent.isSynced);
  const unlock = await apiPost(t, retailer, paths.devices.unlock, { customer_id: enrolled.customerId });
  expect(unlock.status).toBe(200);
  await waitUntil(async () => (await commandRow(unlock.body.data.id)).state === 'done');
  return enrolled;
};

/** A seeded enrolled phone of the demo organisation, marked connected, with no agent behind it. */
const silentOnlinePhone = async () => {
  const [device] = await queryRows<{ id: string }>(
    t.app.ctx.db,
    sql`select id from devices where org_id = ${DEMO_ORG_ID} and enrolled_at is not null
        and secret_hash is not null order by id limit 1`,
  );
  await t.app.ctx.db.execute(sql`update devices set is_online = true where id = ${device!.id}`);
  return device!.id;
};

describe('re-sending unacknowledged commands', () => {
  it('re-sends a lock whose done ack was lost; the phone acks it again without applying it twice', async () => {
    const { agent, customerId } = await connectedAgent();
    const results: string[] = [];
    agent.on('command', ({ result }) => results.push(result));
    try {
      const lock = await apiPost(t, retailer, paths.devices.lock, {
        customer_id: customerId,
        ...TEST_LOCK_REASON,
      });
      expect(lock.status).toBe(200);
      const id = lock.body.data.id as string;
      await waitUntil(async () => (await commandRow(id)).state === 'done');
      expect(results).toEqual(['done']);

      // The done ack went to a server process that died before recording it.
      await t.app.ctx.db.execute(sql`update device_commands set state = 'sent' where id = ${id}`);
      const sentAt = Date.now();
      expect(await redeliverUnacknowledgedCommands(t.app.ctx, later(sentAt, 30 * SECOND))).toBe(0);
      expect(await redeliverUnacknowledgedCommands(t.app.ctx, later(sentAt, MINUTE + SECOND))).toBe(1);

      await waitUntil(async () => (await commandRow(id)).state === 'done');
      expect(results).toEqual(['done', 'duplicate']);
      expect(agent.isLocked).toBe(true);
      expect((await commandRow(id)).delivery_attempts).toBe(2);
      // Acknowledged: nothing more to re-send, however late.
      expect(await redeliverUnacknowledgedCommands(t.app.ctx, later(sentAt, 3 * 3_600_000))).toBe(0);
    } finally {
      await agent.stop();
    }
  });

  it('sends a command whose publish never went out, with the older pending ones first', async () => {
    const { agent } = await connectedAgent();
    const names: string[] = [];
    agent.on('command', ({ name }) => names.push(name));
    try {
      // Two rows committed while the broker was unreachable: queued, never published.
      const created = Date.now();
      const insert = (name: string, _at: number) =>
        insertCommand(t.app.ctx.db, {
          deviceId: agent.deviceId,
          name,
          args: {},
        });
      const camera = await insert('camera_lock', created - SECOND);
      const lock = await insert('lock', created);

      expect(await redeliverUnacknowledgedCommands(t.app.ctx, later(created, 58 * SECOND))).toBe(0);
      // Both are edits of the policy: one policy version carries them.
      expect(await redeliverUnacknowledgedCommands(t.app.ctx, later(created, MINUTE + SECOND))).toBe(1);
      await waitUntil(async () => (await commandRow(lock.id)).state === 'done');
      expect((await commandRow(camera.id)).state).toBe('done');
      expect(names).toEqual(['camera_lock', 'lock']);
      expect(agent.isLocked).toBe(true);
    } finally {
      await agent.stop();
    }
  });

  it('waits twice as long after each attempt, up to an hour, and never re-sends what is not pending or due', async () => {
    const deviceId = await silentOnlinePhone();
    const t0 = Date.now();
    const command = await insertCommand(t.app.ctx.db, {
      deviceId,
      name: 'lock',
      args: {},
    });
    const redeliverAt = (ms: number) => redeliverUnacknowledgedCommands(t.app.ctx, later(t0, ms));

    // First publish 1 minute after the row (attempt 1), then 1, 2 and 4 minutes after each.
    expect(await redeliverAt(59 * SECOND)).toBe(0);
    expect(await redeliverAt(61 * SECOND)).toBe(1);
    expect(await commandRow(command.id)).toEqual({ state: 'sent', delivery_attempts: 1 });
    expect(await redeliverAt(120 * SECOND)).toBe(0);
    expect(await redeliverAt(122 * SECOND)).toBe(1);
    expect(await redeliverAt(241 * SECOND)).toBe(0);
    expect(await redeliverAt(243 * SECOND)).toBe(1);
    expect(await redeliverAt(482 * SECOND)).toBe(0);
    expect(await redeliverAt(484 * SECOND)).toBe(1);
    expect((await commandRow(command.id)).delivery_attempts).toBe(4);

    // However many attempts, at most an hour apart.
    await t.app.ctx.db.execute(
      sql`update device_commands set delivery_attempts = 30,
          last_sent_at = ${new Date(t0).toISOString()}::timestamptz where id = ${command.id}`,
    );
    expect(await redeliverAt(3_600_000 - SECOND)).toBe(0);
    expect(await redeliverAt(3_600_000 + SECOND)).toBe(1);

    const late = 10 * 3_600_000;
    // A phone that is not connected gets it with its next hello instead.
    await t.app.ctx.db.execute(sql`update devices set is_online = false where id = ${deviceId}`);
    expect(await redeliverAt(late)).toBe(0);
    await t.app.ctx.db.execute(sql`update devices set is_online = true where id = ${deviceId}`);
    // A command scheduled for later is not due.
    await t.app.ctx.db.execute(
      sql`update device_commands set run_at = ${new Date(t0 + late + MINUTE).toISOString()}::timestamptz
          where id = ${command.id}`,
    );
    expect(await redeliverAt(late)).toBe(0);
    await t.app.ctx.db.execute(sql`update device_commands set run_at = null where id = ${command.id}`);
    // A final command (cancelled, done, failed or expired) is never sent again.
    for (const state of ['cancelled', 'done', 'failed', 'expired']) {
      await t.app.ctx.db.execute(sql`update device_commands set state = ${state} where id = ${command.id}`);
      expect(await redeliverAt(late)).toBe(0);
    }
    // Nor is anything for a released phone (its credentials are gone).
    await t.app.ctx.db.execute(sql`update device_commands set state = 'sent' where id = ${command.id}`);
    await t.app.ctx.db.execute(sql`update devices set secret_hash = null where id = ${deviceId}`);
    expect(await redeliverAt(late)).toBe(0);
  });

  it('claims each command once when two processes run the job at the same moment', async () => {
    const deviceId = await silentOnlinePhone();
    const t0 = Date.now();
    // One policy version (carrying the lock) and two one-shot commands: three messages.
    for (const name of ['lock', 'reboot', 'sim_info']) {
      await insertCommand(t.app.ctx.db, {
        deviceId,
        name,
        args: {},
      });
    }
    const at = later(t0, 2 * MINUTE);
    const sent = await Promise.all([
      redeliverUnacknowledgedCommands(t.app.ctx, at),
      redeliverUnacknowledgedCommands(t.app.ctx, at),
    ]);
    expect(sent.sort()).toEqual([0, 3]);
  });
});
