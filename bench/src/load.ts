/**
 * Benchmark (issue 17, "Load"): autocannon with 50 and then 200 connections, against a Fastify
 * hello-world on this machine (the baseline: what HTTP alone gives here, measured in the same
 * run) and against Kisht's customer list (a page of 50) and customer details, alternated, with the
 * server's load shedding as it ships (@fastify/under-pressure: 64 requests in hand, 1 s
 * event-loop delay). autocannon runs in a child process, so its own work does not load the
 * servers' event loop. Prints, per case, requests a second, latency p50/p99/max (ms), answers by
 * status, errors and timeouts, and Kisht's 200s a second as a share of the hello-world's answers
 * a second (autocannon does not honour Retry-After, so a shed connection asks again at once).
 *
 * Run: `npm run load -w @kisht/bench` (DURATION_S=15 per case, CUSTOMERS=20000, CONNECTIONS=50,200;
 * POSTGRES=postgres://postgres@127.0.0.1:5432/test runs Kisht on a fresh database there instead of
 * PGlite; SHED_IN_FLIGHT and SHED_DELAY_MS set the shedding limits, the server's defaults otherwise).
 * Asserts nothing.
 */

import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { paths } from '@kisht/domain/paths';
import Fastify from 'fastify';
import { openLoadDatabase, startLoadApp } from './support/load-server';

const run = promisify(execFile);
const DURATION_S = Number(process.env.DURATION_S ?? 15);
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 20_000);
const CONNECTIONS = (process.env.CONNECTIONS ?? '50,200').split(',').map(Number);
const POSTGRES = process.env.POSTGRES;
/** The shedding limits to run with; the server's defaults (64 in hand, 1 s loop delay) unless set. */
const SHED_IN_FLIGHT = process.env.SHED_IN_FLIGHT ?? '64';
const SHED_DELAY_MS = process.env.SHED_DELAY_MS ?? '1000';

/** What the worker sends back of autocannon's result. */
type TLoadResult = {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  total: number;
};

/**
 * Runs autocannon in a child process with the options given as its argument, and prints the
 * figures the table needs as JSON (autocannon in a worker thread answers raw histograms instead).
 */
const CHILD_CODE = `
const autocannon = require('autocannon');
autocannon(JSON.parse(process.argv[1])).then((r) => console.log(JSON.stringify({
  requestsPerSecond: r.requests.average,
  p50: r.latency.p50,
  p99: r.latency.p99,
  max: r.latency.max,
  statuses: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([s, v]) => [s, v.count])),
  errors: r.errors,
  timeouts: r.timeouts,
  total: r.requests.total,
})));
`;

const load = async (options: Record<string, unknown>): Promise<TLoadResult> => {
  const { stdout } = await run(process.execPath, ['-e', CHILD_CODE, JSON.stringify(options)], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as TLoadResult;
};

const print = (label: string, r: TLoadResult) =>
  console.log(
    `${label.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  max ${r.max} ms  ${Object.entries(
      r.statuses,
    )
      .map(([s, n]) => `${s}×${n}`)
      .join(', ')}  errors ${r.errors}  timeouts ${r.timeouts}`,
  );

const main = async () => {
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ host: '127.0.0.1', port: 0 });
  const helloUrl = `http://127.0.0.1:${(hello.server.address() as AddressInfo).port}/`;

  const database = await openLoadDatabase(CUSTOMERS, POSTGRES);
  const kisht = await startLoadApp(database, {
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: SHED_DELAY_MS,
    LOAD_SHED_MAX_IN_FLIGHT: SHED_IN_FLIGHT,
  });
  // Each connection walks this list: a list page, then a customer's details, 50 times over.
  const requests = Array.from({ length: 50 }, (_, i) => [
    { method: 'GET', path: `${paths.customers.list}?page=${1 + i}` },
    { method: 'GET', path: `${paths.customers.details}?customer_id=${database.customerIds[i * 7]}` },
  ]).flat();
  console.log(
    `autocannon, ${DURATION_S} s a case; Kisht on ${database.kind} with ${CUSTOMERS} customers, load shedding on (${SHED_IN_FLIGHT} in hand, ${SHED_DELAY_MS} ms loop delay)`,
  );
  const summary: string[] = [];
  for (const connections of CONNECTIONS) {
    const baseline = await load({ url: helloUrl, connections, duration: DURATION_S });
    print(`hello-world, ${connections} connections`, baseline);
    const real = await load({
      url: kisht.base,
      connections,
      duration: DURATION_S,
      timeout: 30,
      headers: { authorization: `Bearer ${kisht.token}` },
      requests,
    });
    print(`Kisht list+details, ${connections}`, real);
    // autocannon does not wait as Retry-After says: a shed connection asks again at once, so the
    // answers a second count 503s too; the 200s a second are what the server served.
    const servedPerSecond = (real.statuses['200'] ?? 0) / DURATION_S;
    summary.push(
      `${connections} connections: Kisht served ${servedPerSecond.toFixed(0)} 200s/s (${real.requestsPerSecond.toFixed(0)} answers/s with 503s) = ${(servedPerSecond / baseline.requestsPerSecond).toFixed(4)} of hello-world's ${baseline.requestsPerSecond.toFixed(0)}/s; p99 ${real.p99} ms (hello-world ${baseline.p99} ms)`,
    );
  }
  console.log(`\nSUMMARY ${summary.join(' | ')}`);
  await kisht.stop();
  await database.close();
  await hello.close();
  process.exit(0);
};

await main();
