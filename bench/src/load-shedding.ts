/**
 * Benchmark (issue 12): 200 clients hammering the customer list and details calls of one server
 * (PGlite, CUSTOMERS customers), once with load shedding off (the baseline, measured in the same
 * run) and once on (@fastify/under-pressure, the server's defaults). The clients run in a worker
 * thread so their own work does not load the server's event loop; a client told 503 waits as
 * its Retry-After says. Prints, per phase, the answers
 * by status and the wait of every answer (p50/p95/p99/max, share over 5 s and 30 s). Run:
 * `npm run load-shedding -w @kisht/bench` (CLIENTS=200 SECONDS=30 CUSTOMERS=20000; SHED_IN_FLIGHT and
 * SHED_DELAY_MS set the shedding phase's limits, the server's defaults otherwise; POSTGRES=<url> runs on
 * a fresh database of that PostgreSQL instead of PGlite). Asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { paths } from '@kisht/domain/paths';
import { openLoadDatabase, startLoadApp } from './support/load-server';

const CLIENTS = Number(process.env.CLIENTS ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 30);
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 20_000);
/** A PostgreSQL URL (e.g. the machine's postgres://postgres@127.0.0.1:5432/test): run on a fresh database there instead of PGlite. */
const POSTGRES = process.env.POSTGRES;

/** The load: CLIENTS loops, each a list page then a customer's details, until the time is up. */
const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, token, ids, clients, seconds, listPath, detailsPath } = workerData;
const results = [];
const until = Date.now() + seconds * 1000;
const call = async (url) => {
  const t0 = performance.now();
  let status = 0;
  try {
    const response = await fetch(base + url, { headers: { authorization: 'Bearer ' + token } });
    await response.arrayBuffer();
    status = response.status;
    results.push([status, performance.now() - t0]);
    // A polite client waits as Retry-After says before its next call.
    const retryAfter = Number(response.headers.get('retry-after') ?? 0);
    if (status === 503 && retryAfter > 0) await new Promise((r) => setTimeout(r, retryAfter * 1000));
  } catch { results.push([-1, performance.now() - t0]); }
};
const client = async (n) => {
  for (let i = 0; Date.now() < until; i += 1) {
    await call(listPath + '?page=' + (1 + ((n + i) % 50)));
    await call(detailsPath + '?customer_id=' + ids[(n * 7 + i) % ids.length]);
  }
};
Promise.all(Array.from({ length: clients }, (_, n) => client(n))).then(() => parentPort.postMessage(results));
`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const main = async () => {
  const database = await openLoadDatabase(CUSTOMERS, POSTGRES);
  const ids = database.customerIds;

  const phase = async (label: string, shedding: Record<string, string>) => {
    const { base, token, stop } = await startLoadApp(database, shedding);
    const started = performance.now();
    const results = await new Promise<[number, number][]>((resolve, reject) => {
      const worker = new Worker(CLIENT_CODE, {
        eval: true,
        workerData: {
          base,
          token,
          ids,
          clients: CLIENTS,
          seconds: SECONDS,
          listPath: paths.customers.list,
          detailsPath: paths.customers.details,
        },
      });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const elapsedS = (performance.now() - started) / 1000;
    await stop();
    const byStatus = new Map<number, number>();
    for (const [status] of results) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const waits = results.map(([, ms]) => ms).sort((a, b) => a - b);
    const ok = results
      .filter(([status]) => status === 200)
      .map(([, ms]) => ms)
      .sort((a, b) => a - b);
    const shed = results
      .filter(([status]) => status === 503)
      .map(([, ms]) => ms)
      .sort((a, b) => a - b);
    const share = (ms: number) => ((100 * waits.filter((w) => w > ms).length) / waits.length).toFixed(1);
    console.log(`\n${label}: ${results.length} answers in ${elapsedS.toFixed(1)} s`);
    console.log(`  by status: ${[...byStatus].map(([s, n]) => `${s}×${n}`).join(', ')}`);
    console.log(
      `  every answer (ms): p50 ${percentile(waits, 50).toFixed(0)}, p95 ${percentile(waits, 95).toFixed(0)}, p99 ${percentile(waits, 99).toFixed(0)}, max ${(waits.at(-1) ?? 0).toFixed(0)}; over 5 s ${share(5000)}%, over 30 s ${share(30_000)}%`,
    );
    console.log(
      `  200s (ms): p50 ${percentile(ok, 50).toFixed(0)}, p99 ${percentile(ok, 99).toFixed(0)}; 503s (ms): p50 ${percentile(shed, 50).toFixed(0)}, p99 ${percentile(shed, 99).toFixed(0)}`,
    );
    return { p99: percentile(waits, 99), served: ok.length / elapsedS };
  };

  console.log(`${CLIENTS} clients, ${SECONDS} s per phase, ${CUSTOMERS} customers (${database.kind})`);
  const baseline = await phase('baseline: load shedding off', {
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    LOAD_SHED_MAX_IN_FLIGHT: '0',
  });
  // The server's defaults unless SHED_IN_FLIGHT / SHED_DELAY_MS say otherwise (to compare settings).
  const inFlight = process.env.SHED_IN_FLIGHT ?? '64';
  const delayMs = process.env.SHED_DELAY_MS ?? '1000';
  const shedding = await phase(`load shedding on (${inFlight} in hand, event-loop delay ${delayMs} ms)`, {
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: delayMs,
    LOAD_SHED_MAX_IN_FLIGHT: inFlight,
  });
  console.log(
    `\nratio on/off: p99 wait ${(shedding.p99 / baseline.p99).toFixed(2)}, calls served a second ${(shedding.served / baseline.served).toFixed(2)}`,
  );
  await database.close();
  process.exit(0);
};

await main();
