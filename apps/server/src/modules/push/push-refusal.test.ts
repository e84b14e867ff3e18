import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceAgent } from '@kisht/device-agent/agent';
import { ZCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE, SECOND_ORG_ID, SECOND_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiGet, apiPost, enrolReferenceAgent, TEST_LOCK_REASON, waitUntil } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { startFakeFcm } from './fake-fcm';

/**
 * Issue 27: when FCM refuses a phone's push token for good, the refusal is audited once per token
 * (never the token itself) and customer_details says so (`device.pushRefusal`) until the phone
 * registers a new token with its hello. The FCM HTTP v1 API is the local fake of fake-fcm.ts.
 */
let fake: Awaited<ReturnType<typeof startFakeFcm>>;
let t: TestApp;
let retailer: string;
let dir: string;
const agents: DeviceAgent[] = [];

beforeEach(async () => {
  fake = await startFakeFcm();
  dir = mkdtempSync(join(tmpdir(), 'kisht-push-refusal-'));
  const keyFile = join(dir, 'service-account.json');
  writeFileSync(keyFile, JSON.stringify(fake.serviceAccount));
  t = await createTestApp({ FCM_SERVICE_ACCOUNT_FILE: keyFile, FCM_API_URL: fake.apiUrl });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  retailer = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
});
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
  await t.close();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

/** customer_details as the retailer reads it, parsed with the domain schema. */
const details = async (customerId: number) => {
  const response = await apiGet(t, retailer, `${paths.customers.details}?customer_id=${customerId}`);
  expect(response.status).toBe(200);
  return ZCustomerDetails.parse(response.body.data);
};

const isOnline = async (customerId: number) => (await details(customerId)).device.isOnline;

/** The refusal entries of the customer's device, oldest first. */
const refusalEntries = (customerId: number) =>
  queryRows<{ details: Record<string, unknown> }>(
    t.app.ctx.db,
    sql`select details from audit_log
        where entity = 'customer' and entity_id = ${String(customerId)}
          and action = 'device.push_token_refused'
        order by id`,
  );

const pushTokenOf = async (customerId: number) =>
  (
    await queryRows<{ push_token: string | null }>(
      t.app.ctx.db,
      sql`select push_token from devices where customer_id = ${customerId}`,
    )
  )[0]?.push_token;

/** Takes the phone off the network and waits until the server shows it offline. */
const goOffline = async (agent: DeviceAgent, customerId: number) => {
  await agent.stop();
  await waitUntil(async () => !(await isOnline(customerId)));
};

/** An enrolled phone that sent `pushToken` with its hello, now offline; its state file. */
const offlinePhoneWithToken = async (pushToken: string) => {
  const statePath = join(dir, `${pushToken}.json`);
  const { agent, customerId } = await enrolReferenceAgent(t, retailer, statePath, { pushToken });
  agents.push(agent);
  await waitUntil(() => isOnline(customerId));
  await goOffline(agent, customerId);
  return { agent, customerId, statePath };
};

/** Sends the offline phone a lock, so it is woken, and waits until FCM's answer was handled. */
const lockAndWaitForRefusal = async (customerId: number) => {
  await apiPost(t, retailer, paths.devices.lock, { customer_id: customerId, ...TEST_LOCK_REASON });
  await waitUntil(async () => (await details(customerId)).device.pushRefusal != null);
};

const SENDER_ID_MISMATCH = {
  status: 403,
  body: {
    error: {
      code: 403,
      message: 'SenderId mismatch',
      status: 'PERMISSION_DENIED',
      details: [
        { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'SENDER_ID_MISMATCH' },
      ],
    },
  },
};
const MALFORMED_TOKEN = {
  status: 400,
  body: {
    error: {
      code: 400,
      message: 'The registration token is not a valid FCM registration token',
      status: 'INVALID_ARGUMENT',
      details: [
        { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'INVALID_ARGUMENT' },
      ],
    },
  },
};
const UNREGISTERED = {
  status: 404,
  body: {
    error: {
      code: 404,
      message: 'Requested entity was not found.',
      status: 'NOT_FOUND',
      details: [
        { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' },
      ],
    },
  },
};

describe('a push token FCM refuses shows on the device’s page (issue 27)', () => {
  it.each([
    ['403 SENDER_ID_MISMATCH', 'rejected', 'SENDER_ID_MISMATCH', SENDER_ID_MISMATCH],
    ['400 INVALID_ARGUMENT (a malformed token)', 'rejected', 'INVALID_ARGUMENT', MALFORMED_TOKEN],
    ['404 UNREGISTERED', 'unregistered', 'UNREGISTERED', UNREGISTERED],
  ] as const)(
    'FCM answers %s: pushRefusal says %s; the audit entry keeps %s, never the token',
    async (_answer, reason, fcmError, answer) => {
      const token = `fcm-token-${answer.status}`;
      const { customerId } = await offlinePhoneWithToken(token);
      expect((await details(customerId)).device.pushRefusal).toBeNull();

      fake.answer = () => answer;
      const before = Date.now();
      await lockAndWaitForRefusal(customerId);
      const refusal = (await details(customerId)).device.pushRefusal;
      expect(refusal?.reason).toBe(reason);
      const at = Date.parse(refusal?.at ?? '');
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);

      const entries = await refusalEntries(customerId);
      expect(entries).toHaveLength(1);
      expect(entries[0]?.details).toMatchObject({ reason, fcmError });
      expect(JSON.stringify(entries[0]?.details)).not.toContain(token);
    },
  );

  it('records a token once, keeps saying so while the phone sends it again, and is over once the phone registers a new one', async () => {
    const { agent, customerId, statePath } = await offlinePhoneWithToken('fcm-token-other-project');
    fake.answer = () => SENDER_ID_MISMATCH;
    await lockAndWaitForRefusal(customerId);
    const first = (await details(customerId)).device.pushRefusal;
    expect(first?.reason).toBe('rejected');

    // The phone comes back with the same token: still refused, so the page still says so.
    await agent.start();
    await waitUntil(() => isOnline(customerId));
    // Online comes with the connection; the token with the hello, recorded just after it.
    await waitUntil(async () => (await pushTokenOf(customerId)) === 'fcm-token-other-project');
    expect((await details(customerId)).device.pushRefusal).toEqual(first);

    // Refused again once offline: the token is forgotten again, but recorded only once.
    await goOffline(agent, customerId);
    await t.app.ctx.db.execute(sql`update devices set last_woken_at = null`);
    await apiPost(t, retailer, paths.devices.unlock, { customer_id: customerId });
    await waitUntil(async () => fake.messages.length === 2 && (await pushTokenOf(customerId)) === null);
    expect(await refusalEntries(customerId)).toHaveLength(1);
    expect((await details(customerId)).device.pushRefusal).toEqual(first);

    // Another organisation's retailer does not see the customer at all.
    const stranger = await t.tokenFor(SECOND_ORG_ID, SECOND_RETAILER_MOBILE);
    const foreign = await apiGet(t, stranger, `${paths.customers.details}?customer_id=${customerId}`);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain('pushRefusal');

    // The app registers again (a new token, sent with its hello): the refusal is over.
    const { DeviceAgent } = await import('@kisht/device-agent/agent');
    const reinstalled = await DeviceAgent.load({ statePath, pushToken: 'fcm-token-fresh' });
    agents.push(reinstalled);
    await reinstalled.start();
    await waitUntil(async () => (await pushTokenOf(customerId)) === 'fcm-token-fresh');
    expect((await details(customerId)).device.pushRefusal).toBeNull();
  });
});
