import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, istDate } from '@kisht/domain/common/time';
import { ZPartnerKeyWithSecret, ZPartnerLoan } from '@kisht/domain/partner-api/partner-api.schema';
import { paths } from '@kisht/domain/paths';
import { ZWebhookEndpointWithSecret } from '@kisht/domain/webhooks/webhooks.schema';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ADMIN_MOBILE, DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { apiPost, customerBody, waitUntil } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';
import { deliverWebhooks } from '../webhooks/webhooks.service';

/**
 * Issue 30's "done when": a whole loan driven through the partner API alone with one key (create
 * the customer with consent → enrolment QR → the reference agent enrols → lock for the overdue
 * instalment → payment → unlock → last payment → release), while a lender's receiver on an
 * ephemeral port gets each event once, signed (verified with the Standard Webhooks reference
 * library), in order; the key, revoked, answers 401 at once.
 */

type TReceived = { body: string; headers: Record<string, string> };
let receiver: Server;
let receiverUrl: string;
let received: TReceived[];

beforeEach(async () => {
  received = [];
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({
        body,
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
      });
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kisht`;
});
afterEach(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const silent = { warn: () => {}, error: () => {}, info: () => {} };

/** Runs the webhooks job until nothing is waiting (each run sends one message per loan and endpoint). */
const deliverAll = async (t: TestApp) => {
  for (let run = 0; run < 30; run += 1) {
    await deliverWebhooks({ db: t.app.ctx.db, log: silent }, new Date());
    const [pending] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n from webhook_messages where status = 'pending'`,
    );
    if (pending!.n === 0) return;
  }
  throw new Error('webhook messages still pending after 30 runs');
};

describe('a whole loan through the partner API', () => {
  it('create with consent, enrol, lock for overdue, pay, unlock, pay off, release: each event once, signed, in order', async ({
    t,
  }) => {
    const admin = await t.tokenFor(DEMO_ORG_ID, DEMO_ADMIN_MOBILE);
    const [retailer] = await queryRows<{ id: number }>(
      t.app.ctx.db,
      sql`select id from users where org_id = ${DEMO_ORG_ID} and mobile = ${DEMO_RETAILER_MOBILE}`,
    );
    const made = await apiPost(t, admin, paths.partnerKeys.keys, {
      name: 'NBFC loan system',
      scopes: ['read', 'devices', 'payments'],
      retailer_id: retailer!.id,
    });
    const { key, apiKey } = ZPartnerKeyWithSecret.parse(made.body.data);
    const endpoint = await apiPost(t, admin, paths.webhooks.endpoints, {
      url: receiverUrl,
      events: [
        'device.enrolled',
        'device.locked',
        'device.unlocked',
        'payment.recorded',
        'loan.completed',
        'device.released',
      ],
    });
    const { secret } = ZWebhookEndpointWithSecret.parse(endpoint.body.data);
    await t.app.listen({ host: '127.0.0.1', port: 0 });

    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    /** A partner call with the key over real HTTP, as the lender's server makes it; answers `data`. */
    const call = async (method: 'GET' | 'POST', url: string, payload?: object, headers: object = {}) => {
      const response = await fetch(`${base}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(payload ? { body: JSON.stringify(payload) } : {}),
      });
      const text = await response.text();
      expect(response.status, `${method} ${url} ${text}`).toBe(200);
      return JSON.parse(text).data;
    };
    const at = (path: string, customerId: number) => path.replace(':customer_id', String(customerId));
    const loanOf = async (customerId: number) =>
      ZPartnerLoan.parse(await call('GET', at(paths.partner.customer, customerId)));

    // 1. The customer, phone and loan, with the consent the lender took by e-sign.
    const productId = (
      await queryRows<{ id: number }>(
        t.app.ctx.db,
        sql`select id from products where org_id = ${DEMO_ORG_ID} and platform = 'android' order by id limit 1`,
      )
    )[0]!.id;
    const body = customerBody(productId, { tenureMonths: 2, firstName: 'Kavya' });
    // The text the customer reads and signs on the lender's e-sign, in Hindi.
    const shown = await call(
      'GET',
      `${paths.partner.consentText}?language=hn&product_id=${productId}&first_name=Kavya&last_name=${body.lastName}`,
    );
    expect(shown.textVersion).toBe('lock-consent-v1');
    const created = ZPartnerLoan.parse(
      await call('POST', paths.partner.customers, {
        customer: body,
        consent: { language: 'hn', textVersion: 'lock-consent-v1', reference: 'ESIGN-2026-000123' },
      }),
    );
    expect(created).toMatchObject({ firstName: 'Kavya', status: 'inactive', tenureMonths: 2 });
    expect(created.instalments).toHaveLength(2);
    const { customerId } = created;
    const [consent] = await queryRows<{ evidence_reference: string; language: string; text: string }>(
      t.app.ctx.db,
      sql`select evidence_reference, language, text from customer_consents where customer_id = ${customerId}`,
    );
    expect(consent).toEqual({ evidence_reference: 'ESIGN-2026-000123', language: 'hn', text: shown.text });

    // 2. The enrolment QR; the reference agent (the phone) enrols with it.
    const qr = await call('GET', at(paths.partner.enrolmentQr, customerId));
    expect(qr.pngDataUrl).toMatch(/^data:image\/png;base64,/);
    const { DeviceAgent } = await import('@kisht/device-agent/agent');
    const stateDir = mkdtempSync(join(tmpdir(), 'kisht-partner-'));
    const agent = await DeviceAgent.enrol({
      qr: qr.payload,
      imei1: body.imei1,
      imei2: body.imei2,
      statePath: join(stateDir, 'agent.json'),
    });
    try {
      await agent.start();
      await waitUntil(async () => (await loanOf(customerId)).device.enrolledAt !== null);
      expect((await loanOf(customerId)).status).toBe('install');

      // 3. The first instalment falls overdue; the lender locks (the reason is the overdue EMI).
      await t.app.ctx.db.execute(
        sql`update emis set due_date = ${addDays(istDate(), -5)} where customer_id = ${customerId} and instalment_no = 1`,
      );
      const lock = await call('POST', at(paths.partner.commands, customerId), { command: 'lock' });
      expect(lock.name).toBe('lock');
      await waitUntil(async () => agent.isLocked);
      expect(agent.lockScreen?.emergencyCalls).toBe('allowed');
      await waitUntil(async () => (await loanOf(customerId)).device.isLocked);

      // 4. The overdue instalment is paid (a retry with the same key records nothing again), then unlocked.
      const loan = await loanOf(customerId);
      expect(loan.overduePaise).toBe(loan.instalments[0]!.amountPaise);
      const pay = (amountPaise: number, idempotencyKey: string) =>
        call(
          'POST',
          at(paths.partner.payments, customerId),
          { amountPaise, mode: 'bank_transfer', reference: idempotencyKey },
          {
            'idempotency-key': idempotencyKey,
          },
        );
      const first = await pay(loan.instalments[0]!.amountPaise, 'nbfc-pay-1');
      expect((await pay(loan.instalments[0]!.amountPaise, 'nbfc-pay-1')).id).toBe(first.id);
      expect((await loanOf(customerId)).overduePaise).toBe(0);
      // The lender unlocks (an organisation whose auto-lock ladder has autoUnlock on is unlocked by
      // the payment itself, as in the app).
      await call('POST', at(paths.partner.commands, customerId), { command: 'unlock' });
      await waitUntil(async () => !agent.isLocked);

      // 5. The last payment pays the loan off; a lock is refused from then on, by any path.
      const last = await pay((await loanOf(customerId)).outstandingPaise, 'nbfc-pay-2');
      expect(last.customerStatus).toBe(5);
      const refused = await t.app.inject({
        method: 'POST',
        url: at(paths.partner.commands, customerId),
        headers: { authorization: `Bearer ${apiKey}` },
        payload: { command: 'lock', reason_category: 'customer_request' },
      });
      expect(refused.statusCode).toBe(409);
      expect((await loanOf(customerId)).device.paidThrough).toBeNull();

      // 6. Released: the phone leaves Kisht.
      await call('POST', at(paths.partner.commands, customerId), { command: 'release' });
      await waitUntil(async () => agent.isUninstalled);
      await waitUntil(async () => (await loanOf(customerId)).status === 'uninstall');
    } finally {
      await agent.stop();
      rmSync(stateDir, { recursive: true, force: true });
    }

    // The lender's receiver: every message signed with the endpoint's secret, each once, in order.
    await deliverAll(t);
    expect(received.length).toBeGreaterThan(0);
    const events = received.map(
      (message) =>
        new Webhook(secret).verify(message.body, message.headers) as { type: string; data: object },
    );
    const ids = received.map((message) => message.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(events.every((event) => (event.data as { customerId: number }).customerId === customerId)).toBe(
      true,
    );
    const types = events.map((event) => event.type);
    // The payoff's own unlock (the policy that frees the phone) is a command of its own, so a second
    // device.unlocked, about another command.
    expect(types).toEqual([
      'device.enrolled',
      'device.locked',
      'payment.recorded',
      'device.unlocked',
      'payment.recorded',
      'loan.completed',
      'device.unlocked',
      'device.released',
    ]);
    const subjects = events.map((event) => {
      const data = event.data as { commandId?: string; paymentId?: number };
      return `${event.type}:${data.commandId ?? data.paymentId ?? ''}`;
    });
    expect(new Set(subjects).size).toBe(subjects.length);

    // Revoked, the key answers 401 on its very next call.
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `${paths.partnerKeys.keys}?key_id=${key.id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(revoke.statusCode).toBe(200);
    const after = await t.app.inject({
      method: 'GET',
      url: at(paths.partner.customer, customerId),
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(after.statusCode).toBe(401);
  });
});
