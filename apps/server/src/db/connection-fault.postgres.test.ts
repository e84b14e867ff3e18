import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type KishtApp } from '../app';
import { loadConfig } from '../config';
import { findBatch } from '../modules/devices/bulk-batches.repository';
import { FIRST_CHUNK, resumeStaleBulkBatches } from '../modules/devices/bulk-batches.service';
import { createScratchDatabase } from '../test/scratch-postgres';
import { queryRows } from './client';
import { createCustomerWithLoan } from './seed/factories';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from './seed/seed';

/**
 * Issue 27's fault test: PostgreSQL ends every connection of a running server again and again
 * (a failover, a proxy restart) while payments are being recorded, and while a bulk lock writes
 * its commands. The server keeps answering; every payment it answered 200 is recorded once,
 * nothing it did not answer 200 is recorded, no receipt number is given twice; every phone of the
 * bulk lock gets exactly one live lock; afterwards it answers as before.
 */
const PAYMENTS = 24;
const AMOUNT_PAISE = 1_000;
/** Phones of the bulk lock: its first chunk in the request, the rest in chunks after the answer. */
const BULK_PHONES = FIRST_CHUNK + 1_100;

/** The n-th IMEI of the bulk lock's phones (the factory's random ones would collide among 2,400). */
const bulkImei = (n: number): string => {
  const body = `35${String(910_000_000 + n).padStart(12, '0')}`;
  return `${body}${imeiCheckDigit(body)}`;
};

describe('a server whose PostgreSQL connections are ended while it works', () => {
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

  /** Ends every session of the server's database in `waves` waves `gapMs` apart; how many ended. */
  const endSessions = async (waves: number, gapMs: number): Promise<number> => {
    let ended = 0;
    for (let wave = 0; wave < waves; wave += 1) {
      await new Promise((resolve) => setTimeout(resolve, gapMs));
      const { rowCount } = await scratch.admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [scratch.name],
      );
      ended += rowCount ?? 0;
    }
    return ended;
  };

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
    const killer = endSessions(4, 40);
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
    const killed = await killer;
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

  it('gives every phone of a bulk lock exactly one live lock when its sessions end mid batch', async () => {
    const { db } = app.ctx;
    const [retailer] = await queryRows<{ id: number }>(
      db,
      sql`select id from users where org_id = ${DEMO_ORG_ID} and mobile = ${DEMO_RETAILER_MOBILE}`,
    );
    const [product] = await queryRows<{ id: number; brand: string; name: string; price_paise: number }>(
      db,
      sql`select id, brand, name, price_paise from products where org_id = ${DEMO_ORG_ID} limit 1`,
    );
    const customerIds: number[] = [];
    for (let start = 0; start < BULK_PHONES; start += 25) {
      const made = await Promise.all(
        Array.from({ length: Math.min(25, BULK_PHONES - start) }, (_, k) =>
          createCustomerWithLoan(db, {
            orgId: DEMO_ORG_ID,
            retailerId: retailer!.id,
            product: { ...product!, pricePaise: product!.price_paise },
            mobile: `+9196${String(start + k).padStart(8, '0')}`,
            imei1: bulkImei(2 * (start + k)),
            imei2: bulkImei(2 * (start + k) + 1),
            status: 1,
            isEnrolled: true,
          }),
        ),
      );
      customerIds.push(...made.map(({ customer }) => customer.id));
    }
    // A bulk lock reaches customers with an instalment overdue: the first is, for each.
    await db.execute(sql`update emis set due_date = current_date - 3
      where instalment_no = 1 and customer_id = any(${sql.param(customerIds)}::int[])`);

    // Sessions end while the request writes the batch and its first chunk, and while the rest is
    // written after the answer. A 503 is answered with the request again, as a client would.
    const killer = endSessions(8, 50);
    let answer = await call('POST', paths.devices.bulkLockUnlock, {
      action: 'lock',
      customer_ids: customerIds,
    });
    const batchIds: string[] = [];
    for (let attempt = 0; answer.statusCode === 503 && attempt < 5; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      answer = await call('POST', paths.devices.bulkLockUnlock, {
        action: 'lock',
        customer_ids: customerIds,
      });
    }
    expect(answer.statusCode, answer.body).toBe(200);
    batchIds.push(answer.json().data.batchId);
    const killed = await killer;
    expect(killed).toBeGreaterThan(0);

    // The batch finishes: by its own writer, or, where that gave up, by the bulk job taking up a
    // stale batch (made stale here rather than waiting its minute).
    const isDone = async () => (await findBatch(db, DEMO_ORG_ID, batchIds[0]!))?.doneAt != null;
    const deadline = Date.now() + 15_000;
    while (!(await isDone()) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const wasDoneByItself = await isDone();
    if (!wasDoneByItself) {
      await db.execute(sql`update bulk_batches set claimed_at = now() - interval '2 minutes'`);
      await resumeStaleBulkBatches(app.ctx);
    }
    expect(await isDone()).toBe(true);
    if (process.env.SHOW_FAULTS)
      console.log({ status: answer.statusCode, resumed: !wasDoneByItself, killed });

    // Every phone: one live lock (a lock a repeated request wrote supersedes the earlier one).
    const perPhone = await queryRows<{ live: number; n: number }>(
      db,
      sql`select count(*) filter (where c.state not in ('cancelled', 'expired', 'failed'))::int as live,
                 count(*)::int as n
          from devices d left join device_commands c on c.device_id = d.id and c.name = 'lock'
          where d.customer_id = any(${sql.param(customerIds)}::int[])
          group by d.id`,
    );
    expect(perPhone).toHaveLength(BULK_PHONES);
    expect(perPhone.filter((phone) => phone.live !== 1)).toEqual([]);
    const [batch] = await queryRows<{ n: number; devices: number }>(
      db,
      sql`select count(*)::int as n, count(distinct device_id)::int as devices
          from device_commands where batch_id = ${batchIds[0]!}::uuid`,
    );
    expect(batch).toEqual({ n: BULK_PHONES, devices: BULK_PHONES });
    expect((await call('GET', `${paths.customers.list}?pageSize=1`)).statusCode).toBe(200);
  }, 120_000);
});
