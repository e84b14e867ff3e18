/**
 * Benchmark (issue 4): the customer list call with 100k customers in one organisation, against a
 * baseline measured in the same run — the same calls for an organisation with two customers.
 * Prints p50/p99 per case and the ratio to the baseline. Run: `npm run customer-list -w @kisht/bench`
 * (CUSTOMERS=100000 SAMPLES=200 to change the size; EXPLAIN=1 prints the search plans). Not a test:
 * it prints figures, it asserts nothing.
 */
import { performance } from 'node:perf_hooks';

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

const CUSTOMERS = Number(process.env.CUSTOMERS ?? 100_000);
const SAMPLES = Number(process.env.SAMPLES ?? 200);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const main = async () => {
  const started = performance.now();
  const pglite = await createPglite('memory://');
  const { db } = await openDatabase({ pglite });
  await seedDemo(db);
  await seedManyCustomers(db, CUSTOMERS);
  await pglite.exec('ANALYZE'); // as the server does at start and every few hours (PGlite has no autovacuum)
  const seeded = performance.now();
  console.log(`seeded ${CUSTOMERS} customers in ${((seeded - started) / 1000).toFixed(1)} s`);

  if (process.env.EXPLAIN) {
    for (const q of [
      // As customers.repository searches 10 digits: the trigram index on the last 6, strpos for all.
      `select id from customers where org_id = 41 and (mobile like '%054321%' and strpos(mobile, '9000054321') > 0)`,
      `select customer_id from devices where org_id = 41 and ((imei1 like '%054321%' and strpos(imei1, '35100000054321') > 0) or (imei2 like '%054321%' and strpos(imei2, '35100000054321') > 0))`,
      // A name search's total: the kept counts of the first and last names matching (less those
      // matching by both, counted on customers, when both kinds match).
      `select kind, sum(total) from customer_counts where org_id = 41 and kind in (1, 2) and name ilike '%Meera%' group by kind`,
    ]) {
      const plan = await pglite.query<{ 'QUERY PLAN': string }>(`explain analyze ${q}`);
      console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
  }
  const app = await buildApp(
    loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', WEB_DIST_DIR: '/nonexistent' }),
    {
      pglite,
      sms: { send: async () => {} },
    },
  );
  const login = async (orgId: number, mobile: string) => (await loginInProcess(app, orgId, mobile)).token;
  const big = await login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  const small = await login(SECOND_ORG_ID, SECOND_RETAILER_MOBILE);

  const measure = async (token: string, query: string) => {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES + 10; i += 1) {
      const t0 = performance.now();
      const response = await app.inject({
        method: 'GET',
        url: `${paths.customers.list}${query}`,
        headers: { authorization: `Bearer ${token}` },
      });
      const elapsed = performance.now() - t0;
      if (response.statusCode !== 200) throw new Error(`list failed: ${response.body}`);
      if (i >= 10) times.push(elapsed); // the first ten warm up
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  };

  const cases: [string, string][] = [
    ['first page', ''],
    ['page 200', '?page=200'],
    ['status filter', '?status=install'],
    ['search name', '?search=Meera'],
    ['search mobile', '?search=9000054321'],
    ['search IMEI', '?search=35100000054321'],
  ];
  console.log(
    `customer list, ${SAMPLES} samples each (ms); baseline = same call, organisation with 2 customers`,
  );
  console.log('case            big p50  big p99  base p50  base p99  ratio p50');
  for (const [label, query] of cases) {
    const baseline = await measure(small, query);
    const result = await measure(big, query);
    console.log(
      `${label.padEnd(15)} ${result.p50.toFixed(1).padStart(7)}  ${result.p99.toFixed(1).padStart(7)}  ${baseline.p50.toFixed(1).padStart(8)}  ${baseline.p99.toFixed(1).padStart(8)}  ${(result.p50 / baseline.p50).toFixed(1).padStart(9)}`,
    );
  }
  await app.close();
};

await main();
