import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ZLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import { ZFailure, zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp, type KishtApp } from '../../app';
import { loadConfig } from '../../config';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { FAKE_MSG91_ACCOUNT, FAKE_MSG91_ENV, startFakeMsg91, type TFakeMsg91 } from '../../test/fake-msg91';
import { openTestPglite } from '../../test/harness';
import { PRODUCTION_ENV, SILENT_LOG } from '../../test/test-env';
import { createSmsTransport } from './create-sms-transport';
import { createMsg91SmsTransport, type TMsg91Settings } from './msg91.transport';
import { SmsRejectedError, type SmsTransport } from './sms.transport';
import type { TSmsContent } from './sms-templates';

let fake: TFakeMsg91 | undefined;
let app: KishtApp | undefined;
let webhook: Server | undefined;
afterEach(async () => {
  await app?.close();
  await fake?.close();
  if (webhook) await new Promise<void>((resolve) => webhook!.close(() => resolve()));
  app = undefined;
  fake = undefined;
  webhook = undefined;
});

const OTP: TSmsContent = { kind: 'OTP', variables: { otp: '482913', minutes: '5' } };

/** A fake MSG91 and a transport pointed at it (overrides change what the transport sends). */
const withFake = async (overrides: Partial<TMsg91Settings> = {}) => {
  fake = await startFakeMsg91();
  return createMsg91SmsTransport({
    apiUrl: fake.url,
    authKey: FAKE_MSG91_ACCOUNT.authKey,
    senderId: FAKE_MSG91_ACCOUNT.senderId,
    templateIds: FAKE_MSG91_ACCOUNT.templateIds,
    timeoutMs: 1_000,
    ...overrides,
  });
};

/** What a send came to: 'sent', 'rejected' (SmsRejectedError: never retried) or 'retry' (plain Error). */
const outcomeOf = (sending: Promise<void>) =>
  sending.then(
    () => 'sent',
    (error: unknown) => (error instanceof SmsRejectedError ? 'rejected' : 'retry'),
  );

describe('MSG91 transport against the fake MSG91 (issue 27)', () => {
  it('sends an SMS as its DLT template: template id, sender, number without "+", variables', async () => {
    const transport = await withFake();
    await transport.send({ to: DEMO_RETAILER_MOBILE, text: 'not sent' }, { template: OTP });
    expect(fake!.received).toEqual([
      {
        kind: 'OTP',
        templateId: FAKE_MSG91_ACCOUNT.templateIds.OTP,
        sender: 'KISHTI',
        mobile: '919876543210',
        variables: { otp: '482913', minutes: '5' },
      },
    ]);
  });

  it('cuts a variable to the 30 characters DLT allows, so the operator does not drop the SMS', async () => {
    const transport = await withFake();
    const template: TSmsContent = {
      kind: 'SIM_CHANGE',
      variables: {
        customer: 'Priya Patel',
        now: 'slot 1: Airtel …0123, slot 2: Jio …4567',
        before: 'slot 1: Jio …0999, slot 2: empty',
      },
    };
    await transport.send({ to: '+919822001122', text: 'not sent' }, { template });
    expect(fake!.received[0]!.variables).toEqual({
      customer: 'Priya Patel',
      now: 'slot 1: Airtel …0123, slot 2: ',
      before: 'slot 1: Jio …0999, slot 2: emp',
    });
  });

  it.each<{ name: string; settings?: Partial<TMsg91Settings>; answer?: [number, string] }>([
    { name: 'a wrong auth key (401)', settings: { authKey: 'not-the-key' } },
    {
      name: 'a template id MSG91 does not know',
      settings: { templateIds: { ...FAKE_MSG91_ACCOUNT.templateIds, OTP: '6650a1f0d6fc05123a4b9999' } },
    },
    { name: 'a sender id not approved', settings: { senderId: 'OTHERS' } },
    {
      name: 'an error answered with 200',
      answer: [200, '{"type":"error","message":"Insufficient balance"}'],
    },
    { name: 'a 400 that is not JSON', answer: [400, '<html>Bad Request</html>'] },
  ])('takes $name as a permanent refusal (SmsRejectedError)', async ({ settings, answer }) => {
    const transport = await withFake(settings);
    if (answer) fake!.answerNext(...answer);
    expect(await outcomeOf(transport.send({ to: DEMO_RETAILER_MOBILE, text: '' }, { template: OTP }))).toBe(
      'rejected',
    );
    expect(fake!.requests()).toBe(1);
    expect(fake!.received).toEqual([]);
  });

  it('refuses a number MSG91 would refuse, and an SMS without a template, without asking MSG91', async () => {
    const transport = await withFake();
    expect(await outcomeOf(transport.send({ to: '12345', text: '' }, { template: OTP }))).toBe('rejected');
    expect(await outcomeOf(transport.send({ to: DEMO_RETAILER_MOBILE, text: 'free text' }))).toBe('rejected');
    expect(fake!.requests()).toBe(0);
  });

  it.each<[number, string]>([
    [503, '{"type":"error","message":"Service temporarily unavailable"}'],
    [500, 'Internal Server Error'],
    [429, '{"type":"error","message":"Too many requests"}'],
    [408, ''],
    [200, '<html>a proxy page</html>'],
    [200, '{"message":"no type"}'],
  ])('takes %i %j as worth another try (a plain Error)', async (status, body) => {
    const transport = await withFake();
    fake!.answerNext(status, body);
    expect(await outcomeOf(transport.send({ to: DEMO_RETAILER_MOBILE, text: '' }, { template: OTP }))).toBe(
      'retry',
    );
  });

  it('abandons a try after its timeout, or when the caller aborts', async () => {
    const transport = await withFake({ timeoutMs: 200 });
    fake!.hangNext();
    const startedAt = Date.now();
    await expect(transport.send({ to: DEMO_RETAILER_MOBILE, text: '' }, { template: OTP })).rejects.toThrow(
      /time/i,
    );
    expect(Date.now() - startedAt).toBeLessThan(2_000);

    const patient = createMsg91SmsTransport({
      apiUrl: fake!.url,
      authKey: FAKE_MSG91_ACCOUNT.authKey,
      senderId: FAKE_MSG91_ACCOUNT.senderId,
      templateIds: FAKE_MSG91_ACCOUNT.templateIds,
      timeoutMs: 30_000,
    });
    fake!.hangNext();
    const caller = new AbortController();
    const abortedAt = Date.now();
    setTimeout(() => caller.abort(), 100);
    await expect(
      patient.send({ to: DEMO_RETAILER_MOBILE, text: '' }, { template: OTP, signal: caller.signal }),
    ).rejects.toThrow(/abort/i);
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
  });
});

/** The app on the test database with this SMS transport (jobs off: tests run the outbox job). */
const startApp = async (transport: SmsTransport) => {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    PGLITE_ANALYZE_INTERVAL_HOURS: '0',
    JOBS_INTERVAL_MINUTES: '0',
    WEB_DIST_DIR: '/nonexistent',
    OTP_RESEND_AFTER_SECONDS: '30',
    SMS_SEND_TIMEOUT_MS: '500',
    SMS_INLINE_BUDGET_MS: '3000',
  });
  app = await buildApp(config, { pglite: await openTestPglite(), sms: transport });
  return app;
};
const requestOtp = async () => {
  const response = await app!.inject({
    method: 'POST',
    url: paths.auth.resendOtp,
    payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, purpose: 'LOGIN' },
  });
  return { status: response.statusCode, body: response.json() as unknown };
};
const outbox = () =>
  queryRows<{
    state: string;
    body: string | null;
    template_kind: string | null;
    template_vars: unknown;
    attempts: number;
    last_error: string | null;
  }>(
    app!.ctx.db,
    sql`select state, body, template_kind, template_vars, attempts, last_error from sms_outbox order by id`,
  );

describe('OTP SMS through MSG91 and the outbox (issue 27)', () => {
  it('an OTP arrives at MSG91 as the OTP template with its code; the row then keeps neither text nor variables', async () => {
    await startApp(await withFake());
    const answer = await requestOtp();
    expect(answer.status).toBe(200);
    const { data } = zEnvelope(ZLoginWithOtpResponse).parse(answer.body);
    expect(data.delivery).toBe('sent');
    expect(fake!.received).toEqual([
      {
        kind: 'OTP',
        templateId: FAKE_MSG91_ACCOUNT.templateIds.OTP,
        sender: 'KISHTI',
        mobile: '919876543210',
        variables: { otp: data.devOtp, minutes: '5' },
      },
    ]);
    expect(await outbox()).toEqual([
      expect.objectContaining({ state: 'sent', body: null, template_kind: 'OTP', template_vars: null }),
    ]);
  });

  it('a permanent refusal ends the row failed at once, variables cleared, and the request answers 503', async () => {
    await startApp(await withFake({ authKey: 'a-revoked-key' }));
    const answer = await requestOtp();
    expect({ status: answer.status, ...ZFailure.parse(answer.body) }).toMatchObject({
      status: 503,
      code: 'SMS_UNAVAILABLE',
    });
    expect(fake!.requests()).toBe(1);
    expect(await outbox()).toEqual([
      expect.objectContaining({
        state: 'failed',
        body: null,
        template_vars: null,
        last_error: expect.stringContaining('401'),
      }),
    ]);
  });

  it('a 503 from MSG91 is tried again, and the OTP still goes out within the request', async () => {
    await startApp(await withFake());
    fake!.failNext(503);
    const answer = await requestOtp();
    expect(zEnvelope(ZLoginWithOtpResponse).parse(answer.body).data.delivery).toBe('sent');
    expect(fake!.requests()).toBe(2);
    expect(fake!.received).toHaveLength(1);
    expect(await outbox()).toEqual([
      expect.objectContaining({ state: 'sent', attempts: 2, template_vars: null }),
    ]);
  });
});

describe('createSmsTransport: the gateway the configuration names (issue 27)', () => {
  const MSG91_ENV = FAKE_MSG91_ENV;
  const { SMS_WEBHOOK_URL: _webhook, ...PRODUCTION_WITHOUT_WEBHOOK } = PRODUCTION_ENV;

  it('production with SMS_PROVIDER=msg91 sends through MSG91, each kind by its configured template id', async () => {
    fake = await startFakeMsg91();
    // Production refuses an http MSG91_API_URL; the fake speaks http, so the parsed config is pointed at it.
    const config = {
      ...loadConfig({ ...PRODUCTION_WITHOUT_WEBHOOK, ...MSG91_ENV }),
      MSG91_API_URL: fake.url,
    };
    const transport = createSmsTransport(config, SILENT_LOG);
    await transport.send({ to: DEMO_RETAILER_MOBILE, text: 'not sent' }, { template: OTP });
    await transport.send(
      { to: '+919822001122', text: 'not sent' },
      { template: { kind: 'SIGNUP_DECLINED', variables: { shop: 'Patil Mobile Point' } } },
    );
    expect(fake.received.map((sms) => [sms.kind, sms.templateId])).toEqual([
      ['OTP', FAKE_MSG91_ACCOUNT.templateIds.OTP],
      ['SIGNUP_DECLINED', FAKE_MSG91_ACCOUNT.templateIds.SIGNUP_DECLINED],
    ]);
  });

  it('production by default posts the rendered text to the webhook', async () => {
    const bodies: unknown[] = [];
    webhook = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => {
        raw += chunk;
      });
      request.on('end', () => {
        bodies.push(JSON.parse(raw));
        response.end();
      });
    });
    await new Promise<void>((resolve) => webhook!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/sms`;
    const transport = createSmsTransport(loadConfig({ ...PRODUCTION_ENV, SMS_WEBHOOK_URL: url }), SILENT_LOG);
    await transport.send({ to: DEMO_RETAILER_MOBILE, text: '482913 is your Kisht OTP.' }, { template: OTP });
    expect(bodies).toEqual([{ to: DEMO_RETAILER_MOBILE, text: '482913 is your Kisht OTP.' }]);
  });

  it('outside production only logs, even with MSG91 configured', async () => {
    fake = await startFakeMsg91();
    const info = vi.fn();
    const log = { ...SILENT_LOG, info } as unknown as FastifyBaseLogger;
    const transport = createSmsTransport(
      { ...loadConfig({ NODE_ENV: 'development', ...MSG91_ENV }), MSG91_API_URL: fake.url },
      log,
    );
    await transport.send({ to: DEMO_RETAILER_MOBILE, text: 'hello' }, { template: OTP });
    expect(fake.requests()).toBe(0);
    expect(info).toHaveBeenCalledWith({ to: DEMO_RETAILER_MOBILE }, '[dev SMS] hello');
  });

  it('outside production sends through MSG91 when SMS_PROVIDER_OUTSIDE_PRODUCTION says so (a local fake)', async () => {
    fake = await startFakeMsg91();
    const transport = createSmsTransport(
      {
        ...loadConfig({ NODE_ENV: 'test', SMS_PROVIDER_OUTSIDE_PRODUCTION: 'true', ...MSG91_ENV }),
        MSG91_API_URL: fake.url,
      },
      SILENT_LOG,
    );
    await transport.send({ to: DEMO_RETAILER_MOBILE, text: 'not sent' }, { template: OTP });
    expect(fake.received.map((sms) => sms.templateId)).toEqual([FAKE_MSG91_ACCOUNT.templateIds.OTP]);
  });
});
