/**
 * Benchmark (issue 29): the collections view for a portfolio of LOANS open loans (12 monthly
 * instalments each, about a quarter of the past ones unpaid, the paid ones with their payment and
 * allocation), against a baseline measured in the same run: the same calls for the second demo
 * organisation, which has a handful. Prints p50/p99 per call, the ratio to the baseline and the
 * statements each sends. Run: `npm run collections -w @kisht/bench` (LOANS=10000 SAMPLES=20).
 * Not a test: it prints figures, it asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { istDate } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import { buildApp } from '@kisht/server/app';
import { loadConfig } from '@kisht/server/config';
import { createPglite, openDatabase } from '@kisht/server/db/client';
import {
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
  seedDemo,
} from '@kisht/server/db/seed/seed';
import { seedManyCustomers } from './seed-customers';
import { loginInProcess } from './support/in-process-login';

const LOANS = Number(process.env.LOANS ?? 10_000);
const SAMPLES = Number(process.env.SAMPLES ?? 20);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const main = async () => {
  const started = performance.now();
  const pglite = await createPglite('memory://');
  const { db } = await openDatabase({ pglite });
  await seedDemo(db);
  await seedManyCustomers(db, LOANS);
  const today = istDate();
  // Each bulk customer's loan: 12 monthly instalments from 9 months ago, spread over the month by
  // id; a past instalment is paid (on time or a few days late) unless its hash says otherwise.
  await pglite.exec(`
    delete from emis where customer_id in (select id from customers where org_id = ${DEMO_ORG_ID} and first_name <> 'Priya' and id > 100);
    insert into emis (org_id, customer_id, instalment_no, due_date, amount_paise, principal_paise, interest_paise, paid_paise)
    select ${DEMO_ORG_ID}, c.id, n, due, 100000, 90000, 10000,
      case when due < date '${today}' and (c.id * 7 + n * 13) % 100 >= 25 then 100000 else 0 end
    from customers c
    cross join generate_series(1, 12) as n
    cross join lateral (select (date '${today}' - interval '9 months' + ((c.id % 28) || ' days')::interval
      + ((n - 1) || ' months')::interval)::date as due) d
    where c.org_id = ${DEMO_ORG_ID} and c.id > 100;
    insert into payments (org_id, customer_id, receipt_no, amount_paise, mode, received_at)
    select org_id, customer_id, 'BENCH-' || id, paid_paise, 'cash', (due_date + ((id % 9) || ' days')::interval)::timestamptz
    from emis where org_id = ${DEMO_ORG_ID} and paid_paise > 0 and customer_id > 100;
    insert into payment_allocations (payment_id, emi_id, amount_paise)
    select p.id, e.id, e.paid_paise from emis e join payments p on p.receipt_no = 'BENCH-' || e.id
    where e.org_id = ${DEMO_ORG_ID};
    ANALYZE;
  `);
  const counts = await pglite.query<{ emis: number; payments: number }>(
    `select (select count(*)::int from emis) as emis, (select count(*)::int from payments) as payments`,
  );
  console.log(
    `seeded ${LOANS} loans (${counts.rows[0]!.emis} instalments, ${counts.rows[0]!.payments} payments) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const app = await buildApp(
    loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', WEB_DIST_DIR: '/nonexistent' }),
    { pglite, sms: { send: async () => {} } },
  );
  const login = async (orgId: number, mobile: string) => (await loginInProcess(app, orgId, mobile)).token;
  const big = await login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  const small = await login(SECOND_ORG_ID, SECOND_RETAILER_MOBILE);

  const measure = async (token: string, url: string) => {
    const times: number[] = [];
    let statements = 0;
    for (let i = 0; i < SAMPLES + 2; i += 1) {
      const t0 = performance.now();
      const { result, statements: sent } = await app.statements.measure(() =>
        app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }),
      );
      const elapsed = performance.now() - t0;
      if (result.statusCode !== 200) throw new Error(`${url} failed: ${result.body}`);
      // The counter sees each statement twice here (once on the PGlite handle given to buildApp, once
      // in the app's own wrapper), so statements are counted by their text.
      statements = new Set(sent.map((statement) => statement.text)).size;
      if (i >= 2) times.push(elapsed); // the first two warm up
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99), statements };
  };

  const cases: [string, string][] = [
    ['summary', paths.collections.summary],
    ['bucket 1–30', `${paths.collections.customers}?bucket=1_30`],
    ['bucket 90+', `${paths.collections.customers}?bucket=90_plus`],
    ['export csv', `${paths.collections.export}?format=csv`],
  ];
  console.log(`collections, ${SAMPLES} samples each (ms); baseline = same call, the second organisation`);
  console.log('case          big p50  big p99  base p50  base p99  ratio p50  statements');
  for (const [label, url] of cases) {
    const baseline = await measure(small, url);
    const result = await measure(big, url);
    console.log(
      `${label.padEnd(12)} ${result.p50.toFixed(1).padStart(8)}  ${result.p99.toFixed(1).padStart(7)}  ${baseline.p50.toFixed(1).padStart(8)}  ${baseline.p99.toFixed(1).padStart(8)}  ${(result.p50 / baseline.p50).toFixed(1).padStart(9)}  ${String(result.statements).padStart(10)}`,
    );
  }
  await app.close();
};

await main();
