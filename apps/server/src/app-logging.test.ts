import { paths } from '@kisht/domain/paths';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type KishtApp } from './app';
import { loadConfig } from './config';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from './db/seed/seed';
import { openTestPglite } from './test/harness';

type TLogEntry = { level: number; msg: string; to?: string };

let app: KishtApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A Kisht app logging at info into the returned array, as NODE_ENV `nodeEnv` would. */
const appLoggingTo = async (nodeEnv: 'development' | 'test') => {
  const entries: TLogEntry[] = [];
  const config = loadConfig({
    NODE_ENV: nodeEnv,
    LOG_LEVEL: 'info',
    SEED_DEMO: 'false',
    PGLITE_ANALYZE_INTERVAL_HOURS: '0',
    JOBS_INTERVAL_MINUTES: '0',
    WEB_DIST_DIR: '/nonexistent',
  });
  app = await buildApp(config, {
    pglite: await openTestPglite(),
    logStream: { write: (line: string) => void entries.push(JSON.parse(line) as TLogEntry) },
  });
  return entries;
};

describe('request log', () => {
  it('writes one line per request in development, next to the dev OTP line', async () => {
    const entries = await appLoggingTo('development');
    await app!.inject({ method: 'GET', url: '/api/nope' });
    await app!.inject({
      method: 'POST',
      url: paths.auth.loginWithOtp,
      payload: { orgId: DEMO_ORG_ID, mobile: DEMO_RETAILER_MOBILE },
    });

    const messages = entries.map((entry) => entry.msg);
    expect(messages.filter((msg) => /^(GET|POST) /.test(msg))).toEqual([
      expect.stringMatching(/^GET \/api\/nope 404 \d+\.\d ms$/),
      expect.stringMatching(/^POST \/api\/auth\/loginWithOtp 200 \d+\.\d ms$/),
    ]);
    expect(messages).not.toContain('incoming request');
    expect(messages).not.toContain('request completed');
    const otpLine = entries.find((entry) => entry.msg.startsWith('[dev SMS]'));
    expect(otpLine).toMatchObject({
      to: DEMO_RETAILER_MOBILE,
      msg: expect.stringMatching(/^\[dev SMS\] \d{6} /),
    });
  });

  it('keeps Fastify’s structured request entries outside development', async () => {
    const entries = await appLoggingTo('test');
    await app!.inject({ method: 'GET', url: '/api/nope' });

    const messages = entries.map((entry) => entry.msg);
    expect(messages).toContain('incoming request');
    expect(messages).toContain('request completed');
    expect(messages.some((msg) => msg.startsWith('GET /api/nope'))).toBe(false);
  });
});
