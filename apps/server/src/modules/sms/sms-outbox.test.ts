import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ZLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import { ZFailure, zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type KishtApp } from '../../app';
import { loadConfig } from '../../config';
import { queryRows } from '../../db/client';
import { devices } from '../../db/schema';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { openTestPglite } from '../../test/harness';
import { notifySimChange } from '../devices/device-lifecycle.service';
import { createWebhookSmsTransport, type SmsTransport } from './sms.transport';
import type { TSmsPurpose } from './sms-templates';

type TGatewayMode = 'up' | 'down' | 'hang' | 'reject';

/**
 * A fake SMS gateway on an ephemeral port, speaking the webhook's HTTP: POST {to, text} as JSON.
 * 'up' answers 200, 'down' 503, 'reject' 400 (a number it will never take), 'hang' never answers.
 */
const startGateway = async () => {
  const received: { to: string; text: string }[] = [];
  let tries = 0;
  let mode: TGatewayMode = 'up';
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      tries += 1;
      if (mode === 'hang') {
        hanging.push(response);
        return;
      }
      if (mode === 'up') received.push(JSON.parse(body));
      response.statusCode = { up: 200, down: 503, reject: 400 }[mode];
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    received,
    tries: () => tries,
    setMode: (next: TGatewayMode) => {
      mode = next;
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

let app: KishtApp | undefined;
let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
afterEach(async () => {
  await app?.close();
  await gateway?.close();
  app = undefined;
  gateway = undefined;
});

/** The test harness's configuration (jobs off: the test runs the outbox job itself). */
const start = async (transport: SmsTransport, overrides: Record<string, string> = {}) => {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    PGLITE_ANALYZE_INTERVAL_HOURS: '0',
    JOBS_INTERVAL_MINUTES: '0',
    WEB_DIST_DIR: '/nonexistent',
    OTP_RESEND_AFTER_SECONDS: '30',
    SMS_SEND_TIMEOUT_MS: '300',
    SMS_INLINE_BUDGET_MS: '1000',
    ...overrides,
  });
  app = await buildApp(config, { pglite: await openTestPglite(), sms: transport });
  return app;
};
const withGateway = async (overrides: Record<string, string> = {}) => {
  gateway = await startGateway();
  return start(
    createWebhookSmsTransport(gateway.url, { timeoutMs: Number(overrides.SMS_SEND_TIMEOUT_MS ?? 300) }),
    overrides,
  );
};

const requestOtp = async (purpose: 'LOGIN' | 'FORGOT_PASSWORD' = 'LOGIN') => {
  const response = await app!.inject({
    method: 'POST',
    url: paths.auth.resendOtp,
    payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, purpose },
  });
  return { status: response.statusCode, body: response.json() };
};
const otpSent = (answer: { body: unknown }) => zEnvelope(ZLoginWithOtpResponse).parse(answer.body);
type TOutboxRow = {
  id: number;
  state: string;
  body: string | null;
  attempts: number;
  last_error: string | null;
  purpose: string;
  template_kind: string | null;
  template_vars: Record<string, string> | null;
  challenge_sent: boolean | null;
};
const outbox = () =>
  queryRows<TOutboxRow>(
    app!.ctx.db,
    sql`select o.id, o.state, o.body, o.attempts, o.last_error, o.purpose, o.template_kind,
               o.template_vars, c.sent_at is not null as challenge_sent
        from sms_outbox o left join otp_challenges c on c.id = o.otp_challenge_id order by o.id`,
  );
/** Makes every queued row due now, as if its back-off had passed. */
const makeDue = () => queryRows(app!.ctx.db, sql`update sms_outbox set next_attempt_at = now()`);

describe('OTP SMS through the outbox (issue 12)', () => {
  it('gateway down: answers 200 with the OTP queued, keeps the cool-down, and the job delivers it later', async () => {
    await withGateway();
    gateway!.setMode('down');
    const first = await requestOtp();
    expect(first.status).toBe(200);
    expect(otpSent(first)).toMatchObject({
      message: expect.stringMatching(/slow/),
      data: { delivery: 'queued' },
    });
    expect(gateway!.tries()).toBeGreaterThanOrEqual(2); // retried inline before leaving it to the job
    const [queued] = await outbox();
    expect(queued).toMatchObject({
      state: 'queued',
      challenge_sent: false,
      last_error: expect.stringContaining('503'),
    });
    expect(queued!.body).toContain(otpSent(first).data.devOtp);
    // While queued the row keeps its DLT template and variables, for a gateway that sends by template.
    expect(queued).toMatchObject({
      template_kind: 'OTP',
      template_vars: { otp: otpSent(first).data.devOtp, minutes: '5' },
    });

    // Nothing went out, so no cool-down: the user may ask again at once; the older SMS is dropped.
    const second = await requestOtp();
    expect(second.status).toBe(200);
    const code = otpSent(second).data.devOtp!;
    expect((await outbox()).map((r) => [r.state, r.body, r.template_vars])).toEqual([
      ['expired', null, null],
      ['queued', expect.stringContaining(code), { otp: code, minutes: '5' }],
    ]);

    gateway!.setMode('up');
    await makeDue();
    expect(await app!.ctx.sms.deliverDue()).toMatchObject({ sent: 1 });
    expect(gateway!.received).toEqual([{ to: DEMO_RETAILER_MOBILE, text: expect.stringContaining(code) }]);
    const [, sent] = await outbox();
    // Delivered: the body and variables are gone (no OTP stays in clear), the challenge counts as sent.
    expect(sent).toMatchObject({ state: 'sent', body: null, template_vars: null, challenge_sent: true });

    // Now the cool-down applies, and the delivered code logs in.
    expect((await requestOtp()).status).toBe(429);
    const verified = await app!.inject({
      method: 'POST',
      url: paths.auth.verifyOtp,
      payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, otp: code },
    });
    expect(verified.statusCode).toBe(200);
  });

  it('gateway up: delivers within the request, marks the row sent and clears its body', async () => {
    await withGateway();
    const answer = await requestOtp();
    expect(otpSent(answer)).toMatchObject({ message: 'OTP sent', data: { delivery: 'sent' } });
    expect(gateway!.received).toHaveLength(1);
    expect(await outbox()).toEqual([
      expect.objectContaining({
        state: 'sent',
        body: null,
        attempts: 1,
        purpose: 'LOGIN',
        challenge_sent: true,
      }),
    ]);
    expect((await requestOtp()).status).toBe(429);
  });

  it('cuts off a gateway that never answers with the per-try timeout, within the inline budget', async () => {
    await withGateway({ SMS_SEND_TIMEOUT_MS: '200', SMS_INLINE_BUDGET_MS: '800' });
    gateway!.setMode('hang');
    const startedAt = Date.now();
    const answer = await requestOtp();
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(otpSent(answer).data.delivery).toBe('queued');
    expect((await outbox())[0]).toMatchObject({
      state: 'queued',
      last_error: expect.stringMatching(/time/i),
    });
  });

  it('gives up after SMS_MAX_ATTEMPTS tries: failed, body cleared', async () => {
    await withGateway({ SMS_MAX_ATTEMPTS: '4', OTP_TTL_SECONDS: '600' });
    gateway!.setMode('down');
    await requestOtp();
    for (let run = 0; run < 5; run += 1) {
      await makeDue();
      await app!.ctx.sms.deliverDue();
    }
    expect(gateway!.tries()).toBe(4);
    expect(await outbox()).toEqual([
      expect.objectContaining({
        state: 'failed',
        body: null,
        template_vars: null,
        attempts: 4,
        challenge_sent: false,
      }),
    ]);
  });

  it('answers 503 at once and fails the row, body cleared, when the gateway refuses the SMS for good (4xx)', async () => {
    await withGateway();
    gateway!.setMode('reject');
    const answer = await requestOtp();
    expect({ status: answer.status, ...ZFailure.parse(answer.body) }).toMatchObject({
      status: 503,
      code: 'SMS_UNAVAILABLE',
    });
    expect(gateway!.tries()).toBe(1);
    expect(await outbox()).toEqual([
      expect.objectContaining({
        state: 'failed',
        body: null,
        template_vars: null,
        last_error: expect.stringContaining('400'),
      }),
    ]);
  });

  it('expires an OTP SMS the OTP outlived, body cleared', async () => {
    await withGateway();
    gateway!.setMode('down');
    await requestOtp();
    await queryRows(app!.ctx.db, sql`update sms_outbox set not_after = now() - interval '1 second'`);
    await makeDue();
    gateway!.setMode('up');
    expect(await app!.ctx.sms.deliverDue()).toMatchObject({ expired: 1, sent: 0 });
    expect(gateway!.received).toEqual([]);
    expect(await outbox()).toEqual([
      expect.objectContaining({ state: 'expired', body: null, template_vars: null }),
    ]);
  });

  it('answers 503 SMS_UNAVAILABLE when the SMS cannot be queued, and records no challenge', async () => {
    await withGateway();
    await queryRows(
      app!.ctx.db,
      sql.raw(`create function refuse_sms() returns trigger language plpgsql as
                 $$ begin raise exception 'outbox unavailable'; end $$`),
    );
    await queryRows(
      app!.ctx.db,
      sql.raw(
        'create trigger refuse_sms before insert on sms_outbox for each row execute function refuse_sms()',
      ),
    );
    const answer = await requestOtp();
    expect({ status: answer.status, ...ZFailure.parse(answer.body) }).toMatchObject({
      status: 503,
      code: 'SMS_UNAVAILABLE',
      message: 'We could not send the SMS just now. Please try again in a minute',
    });
    expect(gateway!.tries()).toBe(0);
    expect(await queryRows(app!.ctx.db, sql`select id from otp_challenges`)).toEqual([]);

    await queryRows(app!.ctx.db, sql.raw('drop trigger refuse_sms on sms_outbox'));
    expect((await requestOtp()).status).toBe(200); // no cool-down was burnt
  });

  it('sends each due row once when several job runs overlap (rows are claimed, SKIP LOCKED)', async () => {
    await withGateway({ OTP_RESEND_AFTER_SECONDS: '0' });
    gateway!.setMode('down');
    await requestOtp('LOGIN');
    await requestOtp('FORGOT_PASSWORD');
    // The requests' own send attempts (retrying in the background past the inline budget) end
    // first: this test is about overlapping job runs, not an attempt racing the job.
    await app!.ctx.sms.settled();
    gateway!.setMode('up');
    await makeDue();
    const runs = await Promise.all([
      app!.ctx.sms.deliverDue(),
      app!.ctx.sms.deliverDue(),
      app!.ctx.sms.deliverDue(),
    ]);
    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(2);
    expect(gateway!.received).toHaveLength(2);
  });
});

describe('SIM-change SMS through the outbox (issue 12)', () => {
  it('queues the retailer SMS with the audit entry and delivers it once the gateway is back', async () => {
    let failuresLeft = 3;
    const sent: { to: string; text: string }[] = [];
    const flaky: SmsTransport = {
      send: async (message) => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('SMS gateway answered 502');
        }
        sent.push(message);
      },
    };
    await start(flaky);
    const [device] = await app!.ctx.db.select().from(devices).where(eq(devices.orgId, DEMO_ORG_ID)).limit(1);
    await notifySimChange(app!.ctx, {
      device: device!,
      before: [{ slot: 1, iccid: '8991000900000000999', operator: 'Jio' }],
      after: [{ slot: 1, iccid: '8991000900000000123', operator: 'Airtel' }],
    });
    await app!.ctx.sms.settled();
    expect(sent).toEqual([]);
    const [row] = await outbox();
    expect(row).toMatchObject({ state: 'queued', purpose: 'SIM_CHANGE' });

    await makeDue();
    await app!.ctx.sms.deliverDue();
    expect(sent).toEqual([{ to: DEMO_RETAILER_MOBILE, text: expect.stringContaining('SIM changed') }]);
    expect((await outbox())[0]).toMatchObject({ state: 'sent', body: null });
  });
});

describe('only registered DLT templates go by SMS (issue 27)', () => {
  it('refuses to queue an SMS whose purpose has no template, or a template not its own, and writes nothing', async () => {
    await start({ send: async () => {} });
    const message = { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE };
    // What a retailer's free text or an advertisement would be: no purpose, no registered template.
    await expect(
      app!.ctx.sms.queueSms(app!.ctx.db, {
        ...message,
        purpose: 'ADVERTISEMENT' as TSmsPurpose,
        content: { kind: 'SIGNUP_DECLINED', variables: { shop: 'Buy one get one free' } },
      }),
    ).rejects.toThrow(/ADVERTISEMENT has no registered DLT template/);
    await expect(
      app!.ctx.sms.queueSms(app!.ctx.db, {
        ...message,
        purpose: 'SIM_CHANGE',
        content: { kind: 'SIGNUP_DECLINED', variables: { shop: 'Buy one get one free' } },
      }),
    ).rejects.toThrow(/SIM_CHANGE does not send the SIGNUP_DECLINED template/);
    expect(await outbox()).toEqual([]);
  });

  it('queues a SIM-change notice as its template and variables, and hands the transport both', async () => {
    const sends: { text: string; template: unknown }[] = [];
    await start({
      send: async (message, options) => {
        sends.push({ text: message.text, template: options?.template });
      },
    });
    const [device] = await app!.ctx.db.select().from(devices).where(eq(devices.orgId, DEMO_ORG_ID)).limit(1);
    await notifySimChange(app!.ctx, {
      device: device!,
      before: [{ slot: 1, iccid: '8991000900000000999', operator: 'Jio' }],
      after: [{ slot: 1, iccid: '8991000900000000123', operator: 'Airtel' }],
    });
    await app!.ctx.sms.settled();
    expect(sends).toEqual([
      {
        text: expect.stringMatching(
          /^Kisht: SIM changed on .+'s phone\. Now slot 1: Airtel …0123; before slot 1: Jio …0999\.$/,
        ),
        template: {
          kind: 'SIM_CHANGE',
          variables: {
            customer: expect.any(String),
            now: 'slot 1: Airtel …0123',
            before: 'slot 1: Jio …0999',
          },
        },
      },
    ]);
    expect(await outbox()).toEqual([
      expect.objectContaining({ state: 'sent', template_kind: 'SIM_CHANGE', template_vars: null }),
    ]);
  });
});
