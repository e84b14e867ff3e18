import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceAgent } from '@kisht/device-agent/agent';
import { addDays, istDate } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type KishtApp } from '../../app';
import { loadConfig } from '../../config';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { customerBody, recordConsentOverHttp } from '../../test/fixtures';

/**
 * Fault test (issue 5): the server and the phones stop in the middle of a bulk lock. After both
 * restart, every command reaches a final state and no phone applies a command twice. The database
 * is a PGlite on disk, so it survives the server; the embedded broker does not (its sessions are
 * lost), so delivery after restart rests on hello → re-send of everything pending.
 */
const DEVICES = 6;
let dir: string;
let app: KishtApp | undefined;
const agents: DeviceAgent[] = [];
const sent: { to: string; text: string }[] = [];

afterEach(async () => {
  for (const agent of agents) await agent.stop();
  await app?.close();
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const start = async (port: number) => {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    OTP_RESEND_AFTER_SECONDS: '0',
    JOBS_INTERVAL_MINUTES: '0',
    PGLITE_ANALYZE_INTERVAL_HOURS: '0',
    WEB_DIST_DIR: '/nonexistent',
    PGLITE_DATA_DIR: join(dir, 'db'),
  });
  const started = await buildApp(config, { sms: { send: async (message) => void sent.push(message) } });
  await started.listen({ host: '127.0.0.1', port });
  return started;
};

const call = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
  const response = await app!.inject({
    method,
    url,
    // The QR carries the server URL the request came to: the listening port.
    headers: {
      authorization: `Bearer ${token}`,
      host: `127.0.0.1:${(app!.server.address() as AddressInfo).port}`,
    },
    ...(body ? { payload: body as Record<string, unknown> } : {}),
  });
  return response.json();
};

const login = async () => {
  await app!.inject({
    method: 'POST',
    url: paths.auth.loginWithOtp,
    payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE },
  });
  const otp = /^(\d{6})/.exec(sent.at(-1)!.text)![1];
  const verified = await app!.inject({
    method: 'POST',
    url: paths.auth.verifyOtp,
    payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, otp },
  });
  return verified.json().data.token as string;
};

const waitUntil = async (check: () => Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
};

describe('fault: server and phones stop mid bulk lock', () => {
  it('ends every command in a final state after restart, none applied twice', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kisht-fault-'));
    app = await start(0);
    const port = (app.server.address() as AddressInfo).port;
    let token = await login();
    const productId = (await call('GET', `${paths.catalogue.products}?device_type=0`, token)).data[0].id;
    const customerIds: number[] = [];
    for (let i = 0; i < DEVICES; i += 1) {
      const body = customerBody(productId, { mobile: `91234000${String(20 + i)}` });
      const customer = (await call('POST', paths.customers.create, token, body)).data;
      await recordConsentOverHttp(`http://127.0.0.1:${port}`, token, customer.id);
      const qr = (await call('GET', `${paths.customers.qrCode}?customer_id=${customer.id}`, token)).data;
      const agent = await DeviceAgent.enrol({
        qr: qr.payload,
        imei1: body.imei1,
        imei2: body.imei2,
        statePath: join(dir, `agent-${i}.json`),
      });
      agents.push(agent);
      customerIds.push(customer.id);
    }
    // Half the phones are on, half are off when the bulk lock is sent.
    for (const agent of agents.slice(0, DEVICES / 2)) await agent.start();
    const applied = new Map<string, number>();
    const watch = (agent: DeviceAgent) =>
      agent.on('command', (event) => {
        if (event.result === 'done') applied.set(event.id, (applied.get(event.id) ?? 0) + 1);
      });
    for (const agent of agents) watch(agent);

    // A bulk lock reaches only customers with an instalment overdue (issue 12): the first is, for each.
    await queryRows(
      app!.ctx.db,
      sql`update emis set due_date = ${addDays(istDate(), -3)}
          where instalment_no = 1 and customer_id in ${sql.raw(`(${customerIds.join(',')})`)}`,
    );
    const bulk = (
      await call('POST', paths.devices.bulkLockUnlock, token, { action: 'lock', customer_ids: customerIds })
    ).data;
    expect(bulk.total).toBe(DEVICES);

    // Crash: the server goes down at once (broker sessions lost), then every phone stops.
    await app.close();
    app = undefined;
    for (const agent of agents) await agent.stop();

    // Restart the server on the same port with the same database, then every phone.
    app = await start(port);
    token = await login();
    const fresh: DeviceAgent[] = [];
    for (let i = 0; i < DEVICES; i += 1) {
      const agent = await DeviceAgent.load({ statePath: join(dir, `agent-${i}.json`) });
      watch(agent);
      fresh.push(agent);
      await agent.start();
    }
    agents.splice(0, agents.length, ...fresh);

    await waitUntil(async () => {
      const progress = (await call('GET', `${paths.devices.bulkProgress}?batch_id=${bulk.batchId}`, token))
        .data;
      return progress.counts.done === DEVICES;
    }, 60_000);
    const rows = await queryRows<{ id: string; state: string }>(
      app.ctx.db,
      sql`select id, state from device_commands where batch_id = ${bulk.batchId}`,
    );
    expect(rows.every((row) => row.state === 'done')).toBe(true);
    for (const row of rows) expect(applied.get(row.id) ?? 0, row.id).toBeLessThanOrEqual(1);
    for (const agent of agents) {
      expect(agent.isLocked).toBe(true);
      // The lock reached each phone as a policy version, applied once.
      expect(agent.state.policy?.policy.locked).toBe(true);
    }
  }, 120_000);
});
