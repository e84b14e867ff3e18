/**
 * Lighthouse benchmark (issue 17, "Lighthouse mobile"): the performance score, FCP, LCP, TBT, CLS
 * and Speed Index of /login and of the demo retailer's /dashboard, served by the real server from
 * the built web app, measured by Lighthouse's default mobile run (Moto G Power emulation, simulated
 * slow 4G and 4× CPU throttling) in the machine's Debian Chromium. Each page is measured `--runs N`
 * times (default 3), each run with an empty HTTP cache and no service worker, and the medians are
 * printed. Builds nothing: run `npm run build -w @kisht/web` first (WEB_DIST=<dir> serves another
 * build, e.g. a copy kept from before a change, to compare).
 *
 * The server runs in this process on 127.0.0.1 port 0 (PGlite in memory with the demo seed, as
 * support/load-server.ts starts it). The dashboard run signs in as the demo retailer by OTP over the
 * API and stores the session in the page's localStorage (the keys lib/auth-storage.ts saveAuthSession
 * writes) before Lighthouse loads /dashboard; Lighthouse's own storage reset is off for that reason,
 * so each run clears the HTTP cache and the origin's other storage itself.
 *
 * Run: `npm run lighthouse -w @kisht/bench -- --runs 5` (CHROMIUM=<path> or CHROMIUM_PATH=<path> for another browser).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { TAuthSession } from '@kisht/domain/auth/auth.schema';
import { paths } from '@kisht/domain/paths';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '@kisht/server/db/seed/seed';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../e2e/support/chromium';
import { openLoadDatabase, startLoadApp } from './support/load-server';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1)
  throw new Error(`--runs must be a positive integer, got ${args.runs}`);

const DIST = resolve(process.env.WEB_DIST ?? new URL('../../apps/web/dist', import.meta.url).pathname);
if (!existsSync(resolve(DIST, 'index.html'))) {
  console.error(`No web build at ${DIST}: run \`npm run build -w @kisht/web\` first.`);
  process.exit(2);
}

/** The metrics printed per run, by Lighthouse audit id; times in ms, CLS unitless. */
const METRICS = [
  { id: 'first-contentful-paint', label: 'FCP', unit: 'ms' },
  { id: 'largest-contentful-paint', label: 'LCP', unit: 'ms' },
  { id: 'total-blocking-time', label: 'TBT', unit: 'ms' },
  { id: 'cumulative-layout-shift', label: 'CLS', unit: '' },
  { id: 'speed-index', label: 'SI', unit: 'ms' },
] as const;

type TRun = { score: number; finalUrl: string; metrics: Record<string, number> };

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const format = (value: number, unit: string) =>
  unit === 'ms' ? `${(value / 1000).toFixed(2)} s` : value.toFixed(3);

/** Signs the demo retailer in by OTP over the API; the session the web app stores after verifying. */
const signInRetailer = async (base: string): Promise<TAuthSession> => {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: unknown }).data;
  };
  const sent = (await post(paths.auth.loginWithOtp, {
    orgId: DEMO_ORG_ID,
    mobile: DEMO_RETAILER_MOBILE,
  })) as {
    devOtp: string;
  };
  return (await post(paths.auth.verifyOtp, {
    orgId: DEMO_ORG_ID,
    mobile: DEMO_RETAILER_MOBILE,
    otp: sent.devOtp,
  })) as TAuthSession;
};

/**
 * Empties the HTTP cache and everything the origin stores (service worker, Cache Storage,
 * IndexedDB, cookies, localStorage), then stores `session` as the web app does when signing in.
 * Done from a page on the origin that does not start the app (the favicon), so nothing is cached.
 */
const prepareOrigin = async (page: Page, base: string, session: TAuthSession | null) => {
  await page.goto(`${base}/favicon.svg`);
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Storage.clearDataForOrigin', { origin: base, storageTypes: 'all' });
  await cdp.detach();
  if (!session) return;
  await page.evaluate((stored) => {
    // lib/auth-storage.ts saveAuthSession (spec §3 keys).
    localStorage.setItem('token', stored.token);
    localStorage.setItem('user_id', String(stored.user.id));
    localStorage.setItem('account_id', String(stored.user.orgId));
    localStorage.setItem('phone', stored.user.mobile);
    localStorage.setItem('type', stored.user.userType);
    if (stored.user.hasMpin) localStorage.setItem('mpin', '1');
  }, session);
};

const measure = async (page: Page, url: string): Promise<TRun> => {
  const result = await lighthouse(
    url,
    { output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
    undefined,
    page,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const metrics: Record<string, number> = {};
  for (const metric of METRICS) metrics[metric.id] = lhr.audits[metric.id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
    finalUrl: lhr.finalDisplayedUrl,
    metrics,
  };
};

const printRuns = (path: string, runs: TRun[]) => {
  const header = ['run', 'score', ...METRICS.map((metric) => metric.label)];
  const rows = runs.map((run, index) => [
    String(index + 1),
    String(run.score),
    ...METRICS.map((metric) => format(run.metrics[metric.id]!, metric.unit)),
  ]);
  rows.push([
    'median',
    String(median(runs.map((run) => run.score))),
    ...METRICS.map((metric) => format(median(runs.map((run) => run.metrics[metric.id]!)), metric.unit)),
  ]);
  console.log(`${path} (landed on ${new URL(runs[0]!.finalUrl).pathname})`);
  for (const row of [header, ...rows]) console.log(`  ${row.map((cell) => cell.padStart(8)).join(' ')}`);
  console.log('');
};

const database = await openLoadDatabase(0);
const app = await startLoadApp(database, { WEB_DIST_DIR: DIST });
const chrome = await chromeLauncher.launch({ chromePath: chromiumPath(), chromeFlags: CHROMIUM_ARGS });
try {
  const browser = await puppeteer.connect({
    browserURL: `http://127.0.0.1:${chrome.port}`,
    defaultViewport: null,
  });
  const session = await signInRetailer(app.base);
  const version = await browser.version();
  console.log(
    `Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, ` +
      `mobile defaults, performance; ${version}; ${DIST}; ${RUNS} runs per page; ` +
      `load average at start ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}\n`,
  );
  for (const { path, session: pageSession } of [
    { path: '/login', session: null },
    { path: '/dashboard', session },
  ]) {
    const runs: TRun[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const page = await browser.newPage();
      await prepareOrigin(page, app.base, pageSession);
      runs.push(await measure(page, `${app.base}${path}`));
      await page.close();
    }
    printRuns(path, runs);
  }
  console.log(
    `load average at end ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  await browser.disconnect();
} finally {
  chrome.kill();
  await app.stop();
  await database.close();
}
// Keep-alive sockets the killed browser left on the in-process server can hold the event loop
// open after the figures are printed (as load.ts does, exit when done).
process.exit(0);
