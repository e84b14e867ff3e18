import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceAgent } from '@kisht/device-agent/agent';
import { offlineCodeFor, offlineCodeSlot } from '@kisht/domain/devices/offline-code';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { makeInstalmentOverdue } from '../../db/seed/factories';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, enrolReferenceAgent, TEST_LOCK_REASON, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { dispatchOutcome, enqueueOrders, loadTargetsOfDevices, offlineLimitOrder } from './command-gate';

/**
 * Payoff as an event (issue 25), with the real reference agent over the embedded broker: paying the
 * last EMI sends the phone a policy with every restriction off and no offline limit, so a phone
 * kept offline afterwards never locks itself; and a lock's screen says why it was made.
 */
let t: TestApp;
let retailer: string;
let stateDir: string;
let agents: DeviceAgent[];
let isClosed: boolean;

beforeEach(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-payoff-'));
  agents = [];
  isClosed = false;
});
afterEach(async () => {
  for (const agent of agents) await agent.stop();
  if (!isClosed) await t.close();
  rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const enrol = async () => {
  const enrolled = await enrolReferenceAgent(t, retailer, join(stateDir, `${agents.length}.json`));
  agents.push(enrolled.agent);
  return enrolled;
};

/** Gives a phone an offline limit of `ms` through the command gate (as a settings change does, shorter). */
const giveOfflineLimit = async (agent: DeviceAgent, ms: number) => {
  const outcome = await t.app.ctx.db.transaction(async (tx) => {
    const target = (await loadTargetsOfDevices(tx, [agent.deviceId])).get(agent.deviceId)!;
    return enqueueOrders(tx, [offlineLimitOrder(target, ms)], { onRefused: 'throw' });
  });
  await dispatchOutcome(t.app.ctx.dispatcher, outcome);
  await waitUntil(async () => agent.offlineLockAfterMs === ms);
};

/** Pays every unpaid instalment of the customer through multiple_emi_paid. */
const payEverything = async (customerId: number) => {
  const details = (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${customerId}`)).body.data;
  const unpaid = details.instalments.filter((i: { outstandingPaise: number }) => i.outstandingPaise > 0);
  const paid = await apiPost(t, retailer, paths.emi.pay, {
    customer_id: customerId,
    emi_ids: unpaid.map((i: { id: number }) => i.id),
    amountPaise: unpaid.reduce((sum: number, i: { outstandingPaise: number }) => sum + i.outstandingPaise, 0),
    mode: 'cash',
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
};

const commandsOf = (customerId: number) =>
  queryRows<{ name: string; state: string; error: string | null; created_by: number | null }>(
    t.app.ctx.db,
    sql`select c.name, c.state, c.error, c.created_by from device_commands c
        join devices d on d.id = c.device_id where d.customer_id = ${customerId} order by c.created_at, c.id`,
  );

describe('paying the last EMI frees the phone for good', () => {
  it('sends a policy with no offline limit: kept offline past its old limit, the phone never locks itself', async () => {
    const paid = await enrol();
    const control = await enrol();
    for (const { agent } of [paid, control]) await giveOfflineLimit(agent, 1_500);

    await payEverything(paid.customerId);
    const customer = (await apiGet(t, retailer, `${paths.customers.details}?customer_id=${paid.customerId}`))
      .body.data;
    expect(customer.status).toBe(5);
    const [device] = await queryRows<{
      desired_offline_lock_after_ms: number | null;
      desired_locked: boolean;
    }>(
      t.app.ctx.db,
      sql`select desired_offline_lock_after_ms, desired_locked from devices where customer_id = ${paid.customerId}`,
    );
    expect(device).toEqual({ desired_offline_lock_after_ms: null, desired_locked: false });
    await waitUntil(async () => paid.agent.offlineLockAfterMs === null);
    await waitUntil(async () =>
      (await commandsOf(paid.customerId)).some((c) => c.name === 'unlock' && c.state === 'done'),
    );

    // The server goes away: both phones are offline from now on.
    await t.close();
    isClosed = true;
    // The phone still holding a limit locks itself, as it should…
    await waitUntil(async () => control.agent.isLocked, 10_000);
    // …the paid-up one, past the same limit, does not.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(paid.agent.isLocked).toBe(false);
    expect(paid.agent.lockScreen).toBeNull();
  });

  it('turns every restriction off and cancels pending restrictions, scheduled ones too, audited', async () => {
    const { agent, customerId } = await enrol();
    await makeInstalmentOverdue(t.app.ctx.db, customerId);
    expect((await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId })).status).toBe(200);
    expect(
      (
        await apiPost(t, retailer, deviceControlPath('camera_lock'), {
          customer_id: customerId,
          enable: true,
        })
      ).status,
    ).toBe(200);
    await waitUntil(async () => agent.isLocked && agent.state.controls.camera_lock === true);
    const later = new Date(Date.now() + 60 * 60_000).toISOString();
    expect(
      (
        await apiPost(t, retailer, paths.devices.lock, {
          customer_id: customerId,
          run_at: later,
          ...TEST_LOCK_REASON,
        })
      ).status,
    ).toBe(200);

    await payEverything(customerId);
    await waitUntil(async () => !agent.isLocked && agent.state.controls.camera_lock !== true);
    const commands = await commandsOf(customerId);
    expect(commands.find((c) => c.state === 'cancelled')).toMatchObject({
      name: 'lock',
      error: "cancelled: the customer's EMIs completed",
    });
    expect(commands.filter((c) => c.created_by === null).map((c) => c.name)).toEqual([
      'unlock',
      'camera_unlock',
    ]);
    const [audit] = await queryRows<{ details: { cancelled: string[]; commandIds: string[] } }>(
      t.app.ctx.db,
      sql`select details from audit_log where action = 'device.payoff' and entity_id = ${String(customerId)}`,
    );
    expect(audit!.details.cancelled).toHaveLength(1);
    expect(audit!.details.commandIds).toHaveLength(2);
    // And nothing restricts it again.
    const relock = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      ...TEST_LOCK_REASON,
    });
    expect(relock.status).toBe(409);
    expect(relock.body.code).toBe('LOAN_COMPLETED');
  });
});

describe('a lock the phone makes by itself never stands for a paid-up loan', () => {
  it('an offline lock code issued before the payoff and typed in after it is undone by a new policy', async () => {
    const { agent, customerId } = await enrol();
    // The code a retailer could have read out before the loan was paid (the server issues none now).
    const [row] = await queryRows<{ secret_hash: string }>(
      t.app.ctx.db,
      sql`select secret_hash from devices where id = ${agent.deviceId}`,
    );
    const keyHex = row!.secret_hash;
    const code = await offlineCodeFor({
      keyHex,
      deviceId: agent.deviceId,
      challenge: agent.offlineChallenge,
      action: 'lock',
      slot: offlineCodeSlot(Date.now()),
    });
    await payEverything(customerId);
    await waitUntil(async () =>
      (await commandsOf(customerId)).some((c) => c.name === 'unlock' && c.state === 'done'),
    );

    const outcome = await agent.enterOfflineCode(code, 'lock');
    expect(outcome.result).toBe('accepted');
    // The phone reports its offline lock; the server answers with a version that frees it.
    await waitUntil(async () => !agent.isLocked);
    const [device] = await queryRows<{
      desired_locked: boolean;
      desired_offline_lock_after_ms: number | null;
    }>(
      t.app.ctx.db,
      sql`select desired_locked, desired_offline_lock_after_ms from devices where id = ${agent.deviceId}`,
    );
    expect(device).toEqual({ desired_locked: false, desired_offline_lock_after_ms: null });
    const audits = await queryRows<{ action: string }>(
      t.app.ctx.db,
      sql`select action from audit_log where entity_id = ${String(customerId)} and action like 'device.offline_%'`,
    );
    expect(audits.map((a) => a.action)).toEqual(['device.offline_lock_undone']);
  });
});

describe('the lock screen says why the phone is locked (issue 25)', () => {
  it('a lock for a customer request with nothing overdue shows that, and no EMI or amount', async () => {
    const { agent, customerId } = await enrol();
    const locked = await apiPost(t, retailer, paths.devices.lock, {
      customer_id: customerId,
      reason_category: 'customer_request',
    });
    expect(locked.status).toBe(200);
    await waitUntil(async () => agent.isLocked);
    expect(agent.lockScreen?.reason).toBe('customer_request');
    expect(agent.lockScreen?.lines[0]).toBe('This phone is locked at your request.');
    expect(agent.lockScreen?.lines.join('\n')).not.toMatch(/EMI|overdue|pay/i);
    expect(agent.lockScreen?.lines.at(-1)).toBe('Emergency calls: allowed');
  });

  it('a lock for an overdue EMI says so, with the amount', async () => {
    const { agent, customerId } = await enrol();
    await makeInstalmentOverdue(t.app.ctx.db, customerId);
    expect((await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId })).status).toBe(200);
    await waitUntil(async () => agent.isLocked);
    expect(agent.lockScreen?.lines[0]).toBe('This phone is locked because an EMI is overdue.');
    expect(agent.lockScreen?.lines.find((line) => line.startsWith('Overdue: ₹'))).toBeDefined();
  });
});
