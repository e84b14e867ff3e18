import { execFileSync } from 'node:child_process';

/** The machine's Debian chromium (`CHROMIUM=<path>` for another), never a downloaded browser. */
export const chromiumPath = (): string =>
  process.env.CHROMIUM ?? execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();

/** Flags for a headless chromium in this sandbox (the same as the e2e journeys'). */
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
