/**
 * Benchmark (issue 4): first render of the customer_list page in Debian chromium with 100k
 * customers in the organisation, against a baseline measured in the same run — the same page for
 * an organisation with two customers. Time from navigation to the first customer row on screen.
 * Needs the built web app (`npm run build -w @kisht/web`). Run: `npm run customer-list-page -w
 * @kisht/bench` (CUSTOMERS=100000 SAMPLES=15). Prints figures; asserts nothing.
 */
import type { AddressInfo } from 'node:net';
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
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from '../../e2e/support/chromium';
import { seedManyCustomers } from './seed-customers';

const CUSTOMERS = Number(process.env.CUSTOMERS ?? 100_000);
const SAMPLES = Number(process.env.SAMPLES ?? 15);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const main = async () => {
  const pglite = await createPglite('memory://');
  const { db } = await openDatabase({ pglite });
  await seedDemo(db);
  await seedManyCustomers(db, CUSTOMERS);
  await pglite.exec('ANALYZE');
  const app = await buildApp(
    loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', OTP_RESEND_AFTER_SECONDS: '0' }),
    { pglite, sms: { send: async () => {} } },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const login = async (orgId: number, mobile: string) => {
    const sent = await app.inject({
      method: 'POST',
      url: paths.auth.loginWithOtp,
      payload: { orgId, mobile },
    });
    const otp = sent.json().data.devOtp;
    const verified = await app.inject({
      method: 'POST',
      url: paths.auth.verifyOtp,
      payload: { orgId, mobile, otp },
    });
    const { token, user } = verified.json().data;
    return {
      token: token as string,
      user: user as { id: number; orgId: number; userType: string; mobile: string },
    };
  };

  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
  });
  const measure = async (session: Awaited<ReturnType<typeof login>>) => {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES + 2; i += 1) {
      const context = await browser.newContext({
        serviceWorkers: 'block',
        viewport: { width: 412, height: 915 },
      });
      await context.addInitScript((s) => {
        localStorage.setItem('token', s.token);
        localStorage.setItem('user_id', String(s.user.id));
        localStorage.setItem('account_id', String(s.user.orgId));
        localStorage.setItem('type', s.user.userType);
        localStorage.setItem('phone', s.user.mobile);
        localStorage.setItem('language', 'en');
      }, session);
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`${base}/customer_list`);
      await page
        .locator('[data-testid^="customer-row-"]')
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      const elapsed = performance.now() - t0;
      if (i >= 2) times.push(elapsed); // two warm-up loads
      await context.close();
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  };

  const baseline = await measure(await login(SECOND_ORG_ID, SECOND_RETAILER_MOBILE));
  const big = await measure(await login(DEMO_ORG_ID, DEMO_RETAILER_MOBILE));
  console.log(`customer_list first render, ${SAMPLES} loads each (ms): navigation → first row visible`);
  console.log(`${CUSTOMERS} customers: p50 ${big.p50.toFixed(0)}  p99 ${big.p99.toFixed(0)}`);
  console.log(`2 customers (baseline): p50 ${baseline.p50.toFixed(0)}  p99 ${baseline.p99.toFixed(0)}`);
  console.log(`ratio p50 ${(big.p50 / baseline.p50).toFixed(2)}`);
  await browser.close();
  await app.close();
};

await main();
