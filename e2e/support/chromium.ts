import { execFileSync } from 'node:child_process';

/**
 * The machine's Debian chromium (`CHROMIUM_PATH=<path>`, or `CHROMIUM=<path>`, for another), never
 * a downloaded browser. The e2e journeys and the benchmarks in bench/ launch this one.
 */
export const chromiumPath = (): string =>
  process.env.CHROMIUM_PATH ??
  process.env.CHROMIUM ??
  execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();

/** Flags for a headless chromium in this sandbox: the e2e journeys' and the benchmarks'. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
