import { buildApp, type KishtApp } from '../app';
import { loadConfig, type TConfig } from '../config';
import { findUserByMobile } from '../modules/auth/auth.repository';
import { openSession } from '../modules/auth/auth.service';
import type { SmsTransport } from '../modules/sms/sms.transport';
import { acquireTestPglite, borrowed } from './pglite-pool';
import { acquireTestPostgres, isPostgresRun } from './postgres-pool';

export { openTestPglite } from './pglite-pool';

export type TestApp = {
  app: KishtApp;
  /** Every SMS the server sent, newest last. */
  sms: { to: string; text: string }[];
  /** Logs in through the real OTP routes and returns the bearer token. */
  login: (orgId: number, mobile: string) => Promise<string>;
  /**
   * A bearer token for the user with this mobile in the organisation, from a session opened
   * directly (no OTP round): for tests that are not about signing in. Throws for an unknown user.
   */
  tokenFor: (orgId: number, mobile: string) => Promise<string>;
  close: () => Promise<void>;
};

/**
 * A Kisht app on an in-memory PGlite holding the demo seed (on the machine's PostgreSQL in the
 * `server-postgres` project: postgres-pool.ts), with SMS captured; `smsDelayMs` makes the captured
 * gateway take that long per message (a real one takes a while).
 */
export const createTestApp = async (
  overrides: Record<string, string> = {},
  options: {
    smsDelayMs?: number;
    /** The SMS gateway to send through instead of the in-memory one (then `sms` stays empty). */
    smsTransport?: SmsTransport;
  } = {},
): Promise<TestApp> => {
  const config: TConfig = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    OTP_RESEND_AFTER_SECONDS: '0',
    // The template was analysed once in global-setup; per-app ANALYZE would only slow tests down.
    PGLITE_ANALYZE_INTERVAL_HOURS: '0',
    // Tests run jobs by calling them, so their effects are deterministic.
    JOBS_INTERVAL_MINUTES: '0',
    WEB_DIST_DIR: '/nonexistent',
    ...overrides,
  });
  const sent: { to: string; text: string }[] = [];
  const sms: SmsTransport = {
    send: async (message) => {
      if (options.smsDelayMs) await new Promise((resolve) => setTimeout(resolve, options.smsDelayMs));
      sent.push(message);
    },
  };
  const transport = options.smsTransport ?? sms;
  const app = isPostgresRun()
    ? await buildPostgresApp(config, transport)
    : await buildPgliteApp(config, transport);
  const login = async (orgId: number, mobile: string) => {
    const requested = await app.inject({
      method: 'POST',
      url: '/api/auth/loginWithOtp',
      payload: { orgId, mobile },
    });
    if (requested.statusCode !== 200) throw new Error(`OTP request failed: ${requested.body}`);
    const code = /^(\d{6})/.exec(sent.at(-1)!.text)![1];
    const verified = await app.inject({
      method: 'POST',
      url: '/api/auth/verifyOtpAuth',
      payload: { orgId, mobile, otp: code },
    });
    if (verified.statusCode !== 200) throw new Error(`OTP verify failed: ${verified.body}`);
    return verified.json().data.token as string;
  };
  const tokenFor = async (orgId: number, mobile: string) => {
    const user = await findUserByMobile(app.ctx.db, orgId, mobile);
    if (!user) throw new Error(`no user ${mobile} in organisation ${orgId}`);
    return (await openSession(app.ctx, user, {})).token;
  };
  return { app, sms: sent, login, tokenFor, close: () => app.close() };
};

const buildPgliteApp = async (config: TConfig, sms: SmsTransport): Promise<KishtApp> => {
  const { pglite, release } = await acquireTestPglite();
  return buildApp(config, { pglite: borrowed(pglite, release), sms });
};

/** The app on a PostgreSQL test database, which goes back to the worker when the app has closed. */
const buildPostgresApp = async (config: TConfig, sms: SmsTransport): Promise<KishtApp> => {
  const { url, release } = await acquireTestPostgres();
  const app = await buildApp({ ...config, DATABASE_URL: url }, { sms });
  const close = app.close.bind(app);
  Object.assign(app, {
    close: async () => {
      await close();
      await release();
    },
  });
  return app;
};

/** Authorization header for a token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
