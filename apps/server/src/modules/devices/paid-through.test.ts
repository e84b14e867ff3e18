import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceAgent } from '@kisht/device-agent/agent';
import { addDays } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { makeInstalmentOverdue } from '../../db/seed/factories';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, apiPut, enrolReferenceAgent, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { dispatchOutcome, enqueueOrders, loadTargetsOfDevices } from './command-gate';
import { recordOfflineLock } from './payoff.service';

/**
 * The paid-through date on the phone (issue 29, device protocol §12.5), with the real reference
 * agent over the embedded broker: the policy carries the date up to which the loan is paid (with
 * the organisation's grace days), every payment moves it with a new version, a paid-up loan's has
 * none; a phone kept offline past its date locks itself, a paid-up one never does.
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
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-paid-through-'));
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

type TInstalment = { id: number; dueDate: string; outstandingPaise: number };

const unpaidOf = async (customerId: number): Promise<TInstalment[]> =>
  (await apiGet(t, retailer, `${paths.emi.details}?customer_id=${customerId}`)).body.data.instalments.filter(
    (i: TInstalment) => i.outstandingPaise > 0,
  );

const pay = async (customerId: number, instalments: TInstalment[]) => {
  const paid = await apiPost(t, retailer, paths.emi.pay, {
    customer_id: customerId,
    emi_ids: instalments.map((i) => i.id),
    amountPaise: instalments.reduce((sum, i) => sum + i.outstandingPaise, 0),
    mode: 'cash',
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
};

/** The paid-through date for an oldest unpaid due date with `grace` days, ISO 8601 UTC. */
const dateFor = (dueDate: string, grace: number) =>
  new Date(`${addDays(dueDate, grace + 1)}T00:00:00+05:30`).toISOString();

const deviceOf = async (customerId: number) => {
  const [row] = await queryRows<{
    paid_through_ms: number | null;
    desired_locked: boolean;
    policy_version: number;
  }>(
    t.app.ctx.db,
    sql`select (extract(epoch from desired_paid_through) * 1000)::float8 as paid_through_ms, desired_locked,
          policy_version::int as policy_version
        from devices where customer_id = ${customerId}`,
  );
  const ms = row!.paid_through_ms;
  return { ...row!, paidThrough: ms === null ? null : new Date(Number(ms)).toISOString() };
};

/** Gives a phone a paid-through date through the command gate, as if the grace ran out at `at`. */
const givePaidThrough = async (agent: DeviceAgent, at: Date) => {
  const outcome = await t.app.ctx.db.transaction(async (tx) => {
    const target = (await loadTargetsOfDevices(tx, [agent.deviceId])).get(agent.deviceId)!;
    return enqueueOrders(
      tx,
      [{ target, name: 'paid_through_set', policy: { paidThrough: at }, needsEnrolment: false, audit: null }],
      { onRefused: 'throw' },
    );
  });
  await dispatchOutcome(t.app.ctx.dispatcher, outcome);
  await waitUntil(async () => agent.paidThrough === at.toISOString());
};

describe('the policy carries the paid-through date', () => {
  it('from enrolment: the oldest unpaid due date plus the default 3 grace days; each payment moves it; payoff clears it', async () => {
    const { agent, customerId } = await enrol();
    const unpaid = await unpaidOf(customerId);
    expect(unpaid.length).toBeGreaterThan(1);
    const first = dateFor(unpaid[0]!.dueDate, 3);
    expect((await deviceOf(customerId)).paidThrough).toBe(first);
    await waitUntil(async () => agent.paidThrough === first);

    const before = (await deviceOf(customerId)).policy_version;
    await pay(customerId, unpaid.slice(0, 1));
    const second = dateFor(unpaid[1]!.dueDate, 3);
    const after = await deviceOf(customerId);
    expect(after.paidThrough).toBe(second);
    expect(after.policy_version).toBe(before + 1);
    await waitUntil(async () => agent.paidThrough === second);

    await pay(customerId, unpaid.slice(1));
    expect((await deviceOf(customerId)).paidThrough).toBeNull();
    await waitUntil(async () => agent.paidThrough === null);
  });

  it("follows the organisation's grace days, and none when it turns the lock off", async () => {
    const { agent, customerId } = await enrol();
    const [oldest] = await unpaidOf(customerId);
    const settings = (await apiGet(t, retailer, paths.orgs.deviceSettings)).body.data;
    expect(settings.paidThroughGraceDays).toBe(3);

    const seven = await apiPut(t, retailer, paths.orgs.deviceSettings, {
      ...settings,
      paidThroughGraceDays: 7,
    });
    expect(seven.status, JSON.stringify(seven.body)).toBe(200);
    expect(seven.body.data.paidThroughGraceDays).toBe(7);
    await waitUntil(async () => agent.paidThrough === dateFor(oldest!.dueDate, 7));

    const off = await apiPut(t, retailer, paths.orgs.deviceSettings, {
      ...settings,
      paidThroughGraceDays: null,
    });
    expect(off.status).toBe(200);
    await waitUntil(async () => agent.paidThrough === null);
    expect((await deviceOf(customerId)).paidThrough).toBeNull();
  });

  it('refuses grace days out of range, naming the field, and changes nothing', async () => {
    await enrol();
    const settings = (await apiGet(t, retailer, paths.orgs.deviceSettings)).body.data;
    const bad = await apiPut(t, retailer, paths.orgs.deviceSettings, {
      ...settings,
      paidThroughGraceDays: 91,
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('paidThroughGraceDays');
    expect((await apiGet(t, retailer, paths.orgs.deviceSettings)).body.data.paidThroughGraceDays).toBe(3);
  });
});

describe('the phone locks itself when its paid-through date passes, even offline', () => {
  it('kept offline past its date it locks itself, emergency calls still allowed; a paid-up one never does', async () => {
    const late = await enrol();
    const paidUp = await enrol();
    await pay(paidUp.customerId, await unpaidOf(paidUp.customerId));
    await waitUntil(async () => paidUp.agent.paidThrough === null);
    // The overdue instalment makes the lock one the server keeps (a lock for the overdue EMI).
    await makeInstalmentOverdue(t.app.ctx.db, late.customerId, { daysOverdue: 5 });
    const lockAt = new Date(Date.now() + 1_500);
    await givePaidThrough(late.agent, lockAt);
    expect(late.agent.paidThroughCountdown?.lockAt).toBe(lockAt.toISOString());

    // The server goes away: both phones are offline from now on.
    await t.close();
    isClosed = true;
    await waitUntil(async () => late.agent.isLocked, 10_000);
    expect(late.agent.lockScreen?.emergencyCalls).toBe('allowed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(paidUp.agent.isLocked).toBe(false);
  });
});

describe('the server hears of a paid-through lock', () => {
  const reportFor = (deviceId: string, paidThrough: string) => ({
    deviceId,
    data: { source: 'paid_through', action: 'lock', paidThrough, at: new Date().toISOString() },
  });

  it('keeps it while the EMI is still overdue', async () => {
    const { agent, customerId } = await enrol();
    await makeInstalmentOverdue(t.app.ctx.db, customerId, { daysOverdue: 5 });
    await recordOfflineLock(t.app.ctx, reportFor(agent.deviceId, new Date().toISOString()));
    expect((await deviceOf(customerId)).desired_locked).toBe(true);
    await waitUntil(async () => agent.isLocked);
  });

  it('undoes it, with the new date, when the customer paid while the phone was away', async () => {
    const { agent, customerId } = await enrol();
    const [oldest, next] = await unpaidOf(customerId);
    await pay(customerId, [oldest!]);
    await recordOfflineLock(t.app.ctx, reportFor(agent.deviceId, new Date().toISOString()));
    const device = await deviceOf(customerId);
    expect(device.desired_locked).toBe(false);
    expect(device.paidThrough).toBe(dateFor(next!.dueDate, 3));
    const [audit] = await queryRows<{ action: string }>(
      t.app.ctx.db,
      sql`select action from audit_log where entity_id = ${String(customerId)} and action like 'device.offline_%'`,
    );
    expect(audit?.action).toBe('device.offline_lock_undone');
  });
});
