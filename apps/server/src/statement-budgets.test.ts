import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evtTopic, PROTOCOL_VERSION } from '@kisht/domain/devices/protocol.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from './db/client';
import {
  DEMO_ADMIN_MOBILE,
  DEMO_DISTRIBUTOR_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  DEMO_SUPER_DISTRIBUTOR_MOBILE,
} from './db/seed/seed';
import type { StatementEvent } from './db/statement-counter';
import { apiGet, apiPost, enrolReferenceAgent, TEST_LOCK_REASON } from './test/fixtures';
import { bearer, createTestApp, type TestApp } from './test/harness';

/**
 * Issue 26's statement budgets: how many statements (BEGIN and COMMIT included, on PGlite through
 * the counter that also sees transaction() statements) each hot request sends before its answer,
 * and what recording a phone's acknowledgements and hello costs. Counting is deterministic: the
 * app runs no jobs, and each request is measured after the same request warmed it up. A budget
 * overrun prints the statements, so the one that crept in is named.
 */

let t: TestApp;
let token: string;
let customerId: number;
let deviceId: string;
let stateDir: string;

/** The statements, one per line, for a failure message. */
const listed = (statements: StatementEvent[]) =>
  statements.map((s, k) => `  ${k + 1}. ${s.text.slice(0, 160)}`).join('\n');

/** Expects `statements` to fit `budget`, naming them when they do not. */
const expectWithin = (what: string, statements: StatementEvent[], budget: number) => {
  if (process.env.SHOW_STATEMENTS) console.log(`${what}: ${statements.length}\n${listed(statements)}`);
  expect(
    statements.length,
    `${what}: ${statements.length} statements\n${listed(statements)}`,
  ).toBeLessThanOrEqual(budget);
};

/** Statements a request sends until its answer; fails on an error answer. */
const request = async (method: 'GET' | 'POST', url: string, payload?: object) => {
  const { result, statements } = await t.app.statements.measure(() =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) }),
  );
  expect(result.statusCode, result.body).toBeLessThan(300);
  return { body: result.json(), statements };
};

/** An event of the test phone, recorded as the broker would hand it over; its statements. */
const recordEvent = async (event: Record<string, unknown>) => {
  const payload = Buffer.from(
    JSON.stringify({ v: PROTOCOL_VERSION, at: new Date().toISOString(), seq: Date.now() * 1000, ...event }),
  );
  const { statements } = await t.app.statements.measure(() =>
    t.app.ctx.deviceEvents.handleEvent(evtTopic(deviceId), payload),
  );
  return statements;
};

const policyVersion = async () =>
  (
    await queryRows<{ policy_version: number }>(
      t.app.ctx.db,
      sql`select policy_version::int as policy_version from devices where id = ${deviceId}::uuid`,
    )
  )[0]!.policy_version;

const commandState = async (id: string) =>
  (
    await queryRows<{ state: string }>(
      t.app.ctx.db,
      sql`select state from device_commands where id = ${id}::uuid`,
    )
  )[0]!.state;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  token = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  stateDir = mkdtempSync(join(tmpdir(), 'kisht-budgets-'));
  const enrolled = await enrolReferenceAgent(t, token, join(stateDir, 'agent.json'));
  customerId = enrolled.customerId;
  deviceId = enrolled.agent.deviceId;
  // The phone is enrolled (its secret and channel are set); the test speaks for it from here on,
  // so what the server records is exactly the events below.
  await enrolled.agent.stop();
});

afterAll(async () => {
  await t?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('statement budgets of the hot requests (issue 26)', () => {
  const lock = () => request('POST', paths.devices.lock, { customer_id: customerId, ...TEST_LOCK_REASON });
  const unlock = () => request('POST', paths.devices.unlock, { customer_id: customerId });

  it('a lock and an unlock take at most 4 statements each until their answer', async () => {
    await lock();
    await unlock();
    const locked = await lock();
    expect(locked.body.data.state).toBe('sent');
    expectWithin('lock', locked.statements, 4);
    const unlocked = await unlock();
    expectWithin('unlock', unlocked.statements, 4);
  });

  it('a toggle takes at most 4 statements', async () => {
    const camera = (enable: boolean) =>
      request('POST', deviceControlPath('camera_lock'), {
        customer_id: customerId,
        enable,
        ...(enable ? TEST_LOCK_REASON : {}),
      });
    await camera(true);
    await camera(false);
    expectWithin('camera on', (await camera(true)).statements, 4);
    expectWithin('camera off', (await camera(false)).statements, 4);
  });

  it("the phone's three acks of a lock (received, done, applied) take at most 3 statements", async () => {
    const { body } = await lock();
    const commandId = body.data.id as string;
    const version = await policyVersion();
    const state = { isLocked: false, policyVersion: version - 1 };
    const received = await recordEvent({ type: 'ack', commandId, status: 'received', state });
    expect(await commandState(commandId)).toBe('received');
    const done = await recordEvent({
      type: 'ack',
      commandId,
      status: 'done',
      state: { isLocked: true, policyVersion: version },
    });
    expect(await commandState(commandId)).toBe('done');
    const applied = await recordEvent({
      type: 'applied',
      version,
      state: { isLocked: true, policyVersion: version },
    });
    const all = [...received, ...done, ...applied];
    expectWithin('acks of one lock', all, 3);
    await unlock();
  });

  it("a phone's hello is recorded and answered in one statement", async () => {
    const hello = { type: 'hello', connectionId: 'budget-connection', state: { isLocked: false } };
    await recordEvent(hello);
    expectWithin('hello', await recordEvent(hello), 1);
  });

  it('a payment (its transaction, notification and audit) takes at most 10 statements', async () => {
    const emi = await apiGet(t, token, `${paths.emi.details}?customer_id=${customerId}`);
    const instalments = emi.body.data.instalments as { id: number }[];
    expect(instalments.length).toBeGreaterThan(1);
    const pay = (emiId: number) =>
      request('POST', paths.emi.pay, {
        customer_id: customerId,
        emi_ids: [emiId],
        amountPaise: 100,
        mode: 'cash',
      });
    await pay(instalments[0]!.id);
    expectWithin('payment', (await pay(instalments[1]!.id)).statements, 10);
  });

  it('a payment that settles an instalment, moving the phone’s paid-through date, takes at most 12', async () => {
    const emi = await apiGet(t, token, `${paths.emi.details}?customer_id=${customerId}`);
    const unpaid = (emi.body.data.instalments as { id: number; outstandingPaise: number }[]).filter(
      (i) => i.outstandingPaise > 0,
    );
    expect(unpaid.length).toBeGreaterThan(1);
    const settle = (instalment: { id: number; outstandingPaise: number }) =>
      request('POST', paths.emi.pay, {
        customer_id: customerId,
        emi_ids: [instalment.id],
        amountPaise: instalment.outstandingPaise,
        mode: 'cash',
      });
    const settled = await settle(unpaid[0]!);
    expect(settled.body.data.receiptNo).toBeTruthy();
    // The two more: the phone's command target read once, and the gate's one write (issue 29).
    expectWithin('settling payment', settled.statements, 12);
  });

  it('the customer list takes at most 3 statements, the details 4, the EMI details 4', async () => {
    const list = () => request('GET', `${paths.customers.list}?pageSize=20`);
    await list();
    const listedPage = await list();
    expect(listedPage.body.data.items.length).toBeGreaterThan(0);
    expectWithin('customer list', listedPage.statements, 3);

    const details = () => request('GET', `${paths.customers.details}?customer_id=${customerId}`);
    await details();
    expectWithin('customer details', (await details()).statements, 4);

    const emi = () => request('GET', `${paths.emi.details}?customer_id=${customerId}`);
    await emi();
    expectWithin('EMI details', (await emi()).statements, 4);
  });

  it("the partner API's lock takes 4 statements as the app's, its loan read and list 3, its payment 12", async () => {
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    const [retailer] = await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from users where org_id = ${DEMO_ORG_ID} and mobile = ${DEMO_RETAILER_MOBILE}`,
    );
    const made = await apiPost(t, admin, paths.partnerKeys.keys, {
      name: 'Budget lender',
      scopes: ['read', 'devices', 'payments'],
      retailer_id: retailer!.id,
    });
    const apiKey = made.body.data.apiKey as string;
    const partner = async (method: 'GET' | 'POST', path: string, payload?: object, headers: object = {}) => {
      const { result, statements } = await t.app.statements.measure(() =>
        t.app.inject({
          method,
          url: path.replace(':customer_id', String(customerId)),
          headers: { authorization: `Bearer ${apiKey}`, ...headers },
          ...(payload ? { payload } : {}),
        }),
      );
      expect(result.statusCode, result.body).toBeLessThan(300);
      return statements;
    };
    const lockBody = { command: 'lock', reason_category: 'customer_request', reason: 'Budget test' };
    await partner('POST', paths.partner.commands, lockBody);
    await partner('POST', paths.partner.commands, { command: 'unlock' });
    expectWithin('partner lock', await partner('POST', paths.partner.commands, lockBody), 4);
    expectWithin('partner unlock', await partner('POST', paths.partner.commands, { command: 'unlock' }), 4);
    await partner('GET', paths.partner.customer);
    expectWithin('partner loan read', await partner('GET', paths.partner.customer), 3);
    expectWithin('partner loan list', await partner('GET', paths.partner.customers), 3);
    const pay = (key: string) =>
      partner('POST', paths.partner.payments, { amountPaise: 100, mode: 'cash' }, { 'idempotency-key': key });
    await pay('budget-1');
    // The app's payment (10) and its Idempotency-Key's two checks (before, and under the
    // instalments' locks): the key is required here. The key's read is the session's.
    expectWithin('partner payment', await pay('budget-2'), 12);
  });

  // Last: it leaves the organisation with a webhook endpoint. Without one (every test above) the
  // webhook events cost nothing (webhook-subscriptions.ts).
  it("with a lender's webhooks on, a payment and a lock's acks pay one statement more for their events", async () => {
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    const endpoint = await apiPost(t, admin, paths.webhooks.endpoints, {
      url: 'https://lender.example/kisht',
      events: ['payment.recorded', 'device.locked'],
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
    const messages = async () =>
      (await queryRows<{ n: number }>(t.app.ctx.db, sql`select count(*)::int as n from webhook_messages`))[0]!
        .n;

    const emi = await apiGet(t, token, `${paths.emi.details}?customer_id=${customerId}`);
    const unpaid = (emi.body.data.instalments as { id: number; outstandingPaise: number }[]).filter(
      (i) => i.outstandingPaise > 100,
    );
    expect(unpaid.length).toBeGreaterThan(0);
    const paid = await request('POST', paths.emi.pay, {
      customer_id: customerId,
      emi_ids: [unpaid.at(-1)!.id],
      amountPaise: 100,
      mode: 'cash',
    });
    expectWithin('payment with webhooks', paid.statements, 11);
    expect(await messages()).toBe(1);

    const { body } = await request('POST', paths.devices.lock, {
      customer_id: customerId,
      ...TEST_LOCK_REASON,
    });
    const commandId = body.data.id as string;
    const version = await policyVersion();
    const acks = [
      ...(await recordEvent({
        type: 'ack',
        commandId,
        status: 'received',
        state: { isLocked: false, policyVersion: version - 1 },
      })),
      ...(await recordEvent({
        type: 'ack',
        commandId,
        status: 'done',
        state: { isLocked: true, policyVersion: version },
      })),
      ...(await recordEvent({ type: 'applied', version, state: { isLocked: true, policyVersion: version } })),
    ];
    expectWithin('acks of one lock with webhooks', acks, 4);
    expect(await messages()).toBe(2);
  });

  it("a distributor's network page takes 2 statements, a node below 3, its key requests 2, a child's keys 3 (issue 30)", async () => {
    const [distributor] = await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from users where org_id = ${DEMO_ORG_ID} and mobile = ${DEMO_DISTRIBUTOR_MOBILE}`,
    );
    const distributorToken = await t.tokenFor(DEMO_ORG_ID, DEMO_SUPER_DISTRIBUTOR_MOBILE);
    const asDistributor = async (url: string) => {
      const { result, statements } = await t.app.statements.measure(() =>
        t.app.inject({ method: 'GET', url, headers: bearer(distributorToken) }),
      );
      expect(result.statusCode, result.body).toBe(200);
      return { body: result.json(), statements };
    };
    // The session read brings the whole subtree, so a node below is checked without a query.
    await asDistributor(paths.network.list);
    const own = await asDistributor(paths.network.list);
    expect(own.body.data.children.length).toBeGreaterThan(0);
    expectWithin('network page', own.statements, 2);
    const below = await asDistributor(`${paths.network.list}?parent_id=${distributor!.id}`);
    expect(below.body.data.children.length).toBeGreaterThan(0);
    expectWithin('network page below', below.statements, 3);
    expectWithin(
      'received key requests',
      (await asDistributor(`${paths.keyRequests.list}?box=received`)).statements,
      2,
    );
    expectWithin(
      "a child's balances",
      (await asDistributor(`${paths.ledger.balances}?user_id=${distributor!.id}`)).statements,
      3,
    );
  });
});
