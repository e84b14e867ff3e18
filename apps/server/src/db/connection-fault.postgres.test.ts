import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type KishtApp } from '../app';
import { loadConfig } from '../config';
import { createScratchDatabase } from '../test/scratch-postgres';
import { queryRows } from './client';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from './seed/seed';

/**
 * Issue 27's fault test: PostgreSQL ends every connection of a running server again and again
 * while payments are being recorded (a failover, a proxy restart). The server keeps answering;
 * every payment it answered 200 is recorded once, nothing it did not answer 200 is recorded, no
 * receipt number is given twice; afterwards it answers as before.
 */
const PAYMENTS = 24;
const AMOUNT_PAISE = 1_000;

describe('a server whose PostgreSQL connections are ended while it records payments', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let app: KishtApp;
  let token: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase('kisht_fault');
    app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: scratch.url,
        SEED_DEMO: 'true',
        OTP_RESEND_AFTER_SECONDS: '0',
        JOBS_INTERVAL_MINUTES: '0',
        WEB_DIST_DIR: '/nonexistent',
      }),
    );
    const asked = await app.inject({
      method: 'POST',
      url: paths.auth.loginWithOtp,
      payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE },
    });
    const verified = await app.inject({
      method: 'POST',
      url: paths.auth.verifyOtp,
      payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE, otp: asked.json().data.devOtp },
    });
    token = verified.json().data.token;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await scratch?.drop();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  it('records each payment it answered once and none it did not, and answers as before afterwards', async () => {
    const list = await call('GET', `${paths.customers.list}?pageSize=20`);
    const customerIds = (list.json().data.items as { id: number }[]).map((item) => item.id);
    const instalments: { customerId: number; emiId: number }[] = [];
    for (const customerId of customerIds) {
      const details = await call('GET', `${paths.emi.details}?customer_id=${customerId}`);
      const open = (details.json().data?.instalments ?? []) as { id: number; outstandingPaise: number }[];
      const first = open.find((instalment) => instalment.outstandingPaise >= AMOUNT_PAISE * PAYMENTS);
      if (first) instalments.push({ customerId, emiId: first.id });
    }
    expect(instalments.length).toBeGreaterThan(0);
    const paidBefore = Number(
      (
        await queryRows<{ n: string }>(app.ctx.db, sql`select coalesce(sum(paid_paise), 0) as n from emis`)
      )[0]!.n,
    );

    // Ends every session of the server's database, in four waves 40 ms apart, while the payments
    // go in (a failover, a proxy restart: the sessions go, the database stays).
    let killed = 0;
    const killer = (async () => {
      for (let wave = 0; wave < 4; wave += 1) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        const { rowCount } = await scratch.admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [scratch.name],
        );
        killed += rowCount ?? 0;
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: PAYMENTS }, (_, k) => {
        const { customerId, emiId } = instalments[k % instalments.length]!;
        return call('POST', paths.emi.pay, {
          customer_id: customerId,
          emi_ids: [emiId],
          amountPaise: AMOUNT_PAISE,
          mode: 'cash',
        });
      }),
    );
    await killer;
    expect(killed).toBeGreaterThan(0);

    const statuses = answers.map((answer) => answer.statusCode);
    if (process.env.SHOW_FAULTS)
      console.log(
        killed,
        statuses,
        answers.filter((a) => a.statusCode !== 200).map((a) => a.body.slice(0, 200)),
      );
    expect(statuses.length).toBe(PAYMENTS);
    // Answered, each: recorded (200), or 503 when the retries did not outlast the loss: never a 500.
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    const answered = statuses.filter((status) => status === 200).length;
    expect(answered).toBeGreaterThan(0);

    const paidAfter = Number(
      (
        await queryRows<{ n: string }>(app.ctx.db, sql`select coalesce(sum(paid_paise), 0) as n from emis`)
      )[0]!.n,
    );
    expect(paidAfter - paidBefore).toBe(answered * AMOUNT_PAISE);
    const receipts = answers
      .filter((answer) => answer.statusCode === 200)
      .map((answer) => answer.json().data.receiptNo as string);
    expect(new Set(receipts).size).toBe(answered);
    const [counted] = await queryRows<{ payments: number }>(
      app.ctx.db,
      sql`select count(*)::int as payments from payments where amount_paise = ${AMOUNT_PAISE}`,
    );
    expect(counted?.payments).toBe(answered);

    // And it answers as before.
    expect((await call('GET', `${paths.customers.list}?pageSize=1`)).statusCode).toBe(200);
  }, 60_000);
});
