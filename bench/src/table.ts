/**
 * Issue 17's table in one run: builds the web app, runs every benchmark one after another on this
 * machine (web-budget, lighthouse, command-latency, bulk-lock at 2,000 and 10,000 phones, load,
 * customer-list; with `--scale-out` also their scale-out runs on the machine's PostgreSQL and
 * Mosquitto) and prints the table, each figure against its goal, as Markdown on stdout. Each
 * benchmark's whole output is kept in `--out` (default a new folder under the system's temp dir).
 *
 * Run: `npm run table -w @kisht/bench` (`-- --scale-out`; `-- --quick` for 1,000 phones, 20,000
 * customers and one Lighthouse run, to try it). Takes ~20 minutes here, ~30 with --scale-out.
 * Figures and ratios, not a test: it fails only when a benchmark does.
 */

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    'scale-out': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const SCALE_OUT = args['scale-out'];
const QUICK = args.quick;
const OUT = args.out ?? mkdtempSync(join(tmpdir(), 'kisht-table-'));
mkdirSync(OUT, { recursive: true });
const BENCH_DIR = new URL('..', import.meta.url).pathname;
const ROOT_DIR = new URL('../..', import.meta.url).pathname;
const BULK_SIZES = QUICK ? [1_000] : [2_000, 10_000];

const log = (text: string) =>
  process.stderr.write(`[table ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

/**
 * Runs a command to its end, keeping its stdout (also in `OUT/<name>.txt`, stderr beside it).
 * Resolves with the output; rejects on an exit code not in `okCodes` (default 0).
 */
const run = (
  name: string,
  command: string[],
  options: { cwd?: string; env?: Record<string, string>; okCodes?: number[] } = {},
): Promise<string> =>
  new Promise((resolve, reject) => {
    log(`${name}: ${command.join(' ')}`);
    const started = performance.now();
    const child = spawn(command[0]!, command.slice(1), {
      cwd: options.cwd ?? BENCH_DIR,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => {
      writeFileSync(join(OUT, `${name}.txt`), stdout);
      writeFileSync(join(OUT, `${name}.stderr.txt`), stderr);
      log(`${name}: exit ${code} after ${((performance.now() - started) / 1000).toFixed(0)} s`);
      if ((options.okCodes ?? [0]).includes(code ?? -1)) resolve(stdout);
      else reject(new Error(`${name} exited ${code}; its output is in ${OUT}`));
    });
  });

/** Runs bench/src/<script> with tsx, as its npm script does. */
const bench = (name: string, script: string, argv: string[] = [], env: Record<string, string> = {}) =>
  run(name, [process.execPath, '--import', 'tsx', `src/${script}`, ...argv], { env });

/** The key=value pairs of a benchmark's SUMMARY line (values may be quoted). */
const summaryOf = (output: string): Record<string, string> => {
  const line = output.split('\n').find((l) => l.startsWith('SUMMARY '));
  if (!line) throw new Error('no SUMMARY line');
  return Object.fromEntries(
    [...line.matchAll(/(\w+)=("[^"]*"|\S+(?: (?:ms|s)(?=\s|$))?)/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/"/g, ''),
    ]),
  );
};

/** web-budget's total brotli KB of a route. */
const budgetOf = (output: string, route: string): string => {
  const section = output.split(`${route}:`)[1] ?? '';
  const total = /total\s+[\d.]+\s+([\d.]+)/.exec(section);
  return total ? `${total[1]} KB` : 'not found';
};

/** lighthouse's medians of a page: score and LCP (its columns: score, FCP, LCP, …; times as "2.33 s"). */
const lighthouseOf = (output: string, path: string): string => {
  const section = output.split(`${path} (landed`)[1] ?? '';
  const median = /median\s+(\d+)\s+([\d.]+ s)\s+([\d.]+ s)/.exec(section);
  return median ? `${median[1]} (LCP ${median[3]})` : 'not found';
};

/** load's served 200s/s and p99 at `connections`. */
const loadOf = (output: string, connections: number): string => {
  const match = new RegExp(`${connections} connections: Kisht served (\\d+) 200s/s.*?p99 (\\d+) ms`).exec(
    output,
  );
  return match ? `${match[1]}/s, p99 ${match[2]} ms` : 'not found';
};

/** customer-list's p50 ratios, worst case named. */
const customerListOf = (output: string): string => {
  const rows = output
    .split('\n')
    .map((line) => /^(\S+(?: \S+)?)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ label: match[1]!, ratio: match[2]! }));
  if (rows.length === 0) return 'not found';
  const worst = rows.reduce((a, b) => (Number(b.ratio) > Number(a.ratio) ? b : a));
  const best = rows.reduce((a, b) => (Number(b.ratio) < Number(a.ratio) ? b : a));
  return `${best.ratio}–${worst.ratio}× (worst: ${worst.label})`;
};

const rows: { measure: string; figure: string; goal: string }[] = [];
const add = (measure: string, figure: string, goal: string) => {
  rows.push({ measure, figure, goal });
  log(`${measure}: ${figure}`);
};
const loadAtStart = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');

log(`outputs go to ${OUT}`);
await run('web-build', ['npm', 'run', 'build', '-w', '@kisht/web'], { cwd: ROOT_DIR });

// web-budget exits 1 over the budget: a figure for the table, not a failure of the run.
const budgetOutput = await run('web-budget', [process.execPath, '--import', 'tsx', 'src/web-budget.ts'], {
  okCodes: [0, 1],
});
add(
  'JS+CSS to open /login, /dashboard (brotli)',
  `${budgetOf(budgetOutput, '/login')}, ${budgetOf(budgetOutput, '/dashboard')}`,
  '≤ 120 KB, ≤ 200 KB (issue 28)',
);

const lighthouse = await bench('lighthouse', 'lighthouse.ts', ['--runs', QUICK ? '1' : '3']);
add(
  'Lighthouse mobile /login, /dashboard (median)',
  `${lighthouseOf(lighthouse, '/login')}, ${lighthouseOf(lighthouse, '/dashboard')}`,
  '≥ 90, LCP ≤ 2.5 s',
);

/**
 * Phones per 2 GB of server memory from the peak RSS of two bulk runs: the slope between them is
 * what a phone costs, the intercept what the server costs with none.
 */
const phonesPer2Gb = (runs: { devices: number; mib: number }[]): string => {
  const text = runs.map((r) => `${r.mib} MiB at ${r.devices.toLocaleString('en-US')}`).join(', ');
  if (runs.length < 2 || runs.some((r) => Number.isNaN(r.mib))) return text;
  const [small, big] = [runs[0]!, runs.at(-1)!];
  const perPhone = (big.mib - small.mib) / (big.devices - small.devices);
  const idle = small.mib - small.devices * perPhone;
  return `${text}: ${(perPhone * 1024).toFixed(0)} KiB a phone, ≈ ${Math.round((2048 - idle) / perPhone / 1000)}k per 2 GB`;
};

const modes = SCALE_OUT ? (['embedded', 'scale-out'] as const) : (['embedded'] as const);
for (const mode of modes) {
  const flag = mode === 'scale-out' ? ['--scale-out'] : [];
  const latency = summaryOf(await bench(`command-latency-${mode}`, 'command-latency.ts', flag));
  add(
    `one lock, HTTP → done ack / raw publish, p50 (${mode})`,
    `${latency.ratio_p50}× (${latency.done_p50} against ${latency.baseline_p50})`,
    '≤ 2×',
  );
  const memory: { devices: number; mib: number }[] = [];
  for (const devices of BULK_SIZES) {
    const processes = devices > 5_000 ? ['--phone-processes', '2'] : [];
    const bulk = summaryOf(
      await bench(`bulk-lock-${mode}-${devices}`, 'bulk-lock.ts', [
        ...flag,
        '--devices',
        String(devices),
        ...processes,
      ]),
    );
    add(
      `bulk lock 99% done / raw round, ${devices.toLocaleString('en-US')} phones (${mode})`,
      `${bulk.ratio} (${bulk.done99} against ${bulk.baseline99}; ${bulk.duplicates} duplicates, request ${bulk.request})`,
      devices <= 2_000 ? '≤ 1.3×' : '≤ 1.5×',
    );
    add(
      `${devices.toLocaleString('en-US')} phones connecting and saying hello (${mode})`,
      bulk.connect_ratio === 'n/a' || bulk.raw_connect === 'not'
        ? `${bulk.connect} (raw connect not measured)`
        : `${bulk.connect} against ${bulk.raw_connect} raw: ${bulk.connect_ratio}×`,
      'within 2× of the raw connect',
    );
    // Embedded: "1321 MiB"; scale-out: "A 452 MiB, B 313 MiB" (the API processes, summed).
    const rss = [...(bulk.server_rss ?? '').matchAll(/(\d+) MiB/g)].map((m) => Number(m[1]));
    memory.push({ devices, mib: rss.length > 0 ? rss.reduce((a, b) => a + b, 0) : Number.NaN });
  }
  add(`server memory during the bulk (${mode})`, phonesPer2Gb(memory), '≥ 50k phones per 2 GB');
}

const loadEmbedded = await bench('load-pglite', 'load.ts');
add('200 clients, list + details (PGlite)', loadOf(loadEmbedded, 200), 'p99 < 200 ms; 503 early');
if (SCALE_OUT) {
  const loadPostgres = await bench('load-postgres', 'load.ts', [], {
    POSTGRES: process.env.POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test',
  });
  add('200 clients, list + details (PostgreSQL)', loadOf(loadPostgres, 200), 'p99 < 200 ms; 503 early');
}

const customers = QUICK ? 20_000 : 100_000;
const list = await bench('customer-list', 'customer-list.ts', [], { CUSTOMERS: String(customers) });
add(`customer list ${customers.toLocaleString('en-US')} / 2, p50`, customerListOf(list), '≤ 2×');

const loadAtEnd = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(
  `Issue 17's table, one run (${new Date().toISOString().slice(0, 10)}; load average ${loadAtStart} → ${loadAtEnd}; outputs in ${OUT})\n`,
);
console.log('| measure | this run | goal |');
console.log('|---|---|---|');
for (const row of rows) console.log(`| ${row.measure} | ${row.figure} | ${row.goal} |`);
