import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { startServerProcess } from './scale-out/server-process';
import { PRODUCTION_ENV } from './test/test-env';

/** What production needs besides the broker, so the broker rows below fail (or pass) on their own. */
const PRODUCTION = PRODUCTION_ENV;
/** A server explicitly in development (what `npm start` sets). */
const DEV = { NODE_ENV: 'development' };
const MQTT_URL = 'mqtt://broker.example.com:1883';
const BROKER_HOOK_SECRET = 'a-broker-hook-secret-of-24-chars';

describe('loadConfig', () => {
  it('gives development defaults when told development: port 8080, PGlite under ./data, embedded broker, demo seed', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    expect(config).toMatchObject({
      PORT: 8080,
      PGLITE_DATA_DIR: './data/db',
      NODE_ENV: 'development',
      SEED_DEMO: true,
      OTP_DAILY_LIMIT_PER_MOBILE: 100,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.MQTT_URL).toBeUndefined();
    expect(config.MQTT_SHARED_GROUP).toBe('kisht-server');
  });

  it('is production unless told otherwise, so a bare start refuses the development secrets', () => {
    expect(() => loadConfig({})).toThrow(/JWT_SECRET: JWT_SECRET must be set in production/);
    expect(() => loadConfig({})).toThrow(/OTP_PEPPER/);
    expect(loadConfig(PRODUCTION)).toMatchObject({
      NODE_ENV: 'production',
      SEED_DEMO: false,
      OTP_DAILY_LIMIT_PER_MOBILE: 10,
    });
  });

  it('stops a server started without NODE_ENV on the development secrets, before it opens anything', async () => {
    const outcome = await startServerProcess({
      name: 'no-node-env',
      env: { PORT: '0', HOST: '127.0.0.1', PGLITE_DATA_DIR: 'memory://' },
    }).then(
      async (server) => {
        await server.kill('SIGTERM');
        return 'it served';
      },
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/exited \(1\) before it was ready/);
    expect(outcome).toMatch(/JWT_SECRET: JWT_SECRET must be set in production/);
  });

  it('refuses the demo seed in production and seeds by default only outside it', () => {
    expect(() => loadConfig({ ...PRODUCTION, SEED_DEMO: 'true' })).toThrow(
      /SEED_DEMO: SEED_DEMO seeds demo logins anyone can use; it is refused in production/,
    );
    expect(loadConfig({ ...PRODUCTION, SEED_DEMO: 'false' }).SEED_DEMO).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).SEED_DEMO).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', SEED_DEMO: '0' }).SEED_DEMO).toBe(false);
  });

  it('refuses an http DPC download URL in production, and takes it in development (issue 27)', () => {
    expect(() =>
      loadConfig({ ...PRODUCTION, DPC_DOWNLOAD_URL: 'http://downloads.example.com/dpc.apk' }),
    ).toThrow(/DPC_DOWNLOAD_URL: DPC_DOWNLOAD_URL must be an https URL in production/);
    expect(loadConfig({ ...DEV, DPC_DOWNLOAD_URL: 'http://10.0.2.2:8080/dpc.apk' }).DPC_DOWNLOAD_URL).toBe(
      'http://10.0.2.2:8080/dpc.apk',
    );
  });

  it('refuses production without secrets, the DPC and an SMS transport, naming each key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /JWT_SECRET.*OTP_PEPPER.*DPC_DOWNLOAD_URL.*DPC_SIGNATURE_CHECKSUM.*SMS_WEBHOOK_URL/,
    );
    expect(() => loadConfig({ NODE_ENV: 'development', DPC_SIGNATURE_CHECKSUM: 'not-a-checksum' })).toThrow(
      /DPC_SIGNATURE_CHECKSUM/,
    );
  });

  it('names a malformed value', () => {
    expect(() => loadConfig({ ...DEV, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ ...DEV, DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ...DEV, MQTT_SHARED_GROUP: 'a/b' })).toThrow(/MQTT_SHARED_GROUP/);
    expect(() => loadConfig({ ...DEV, MQTT_BROKER_AUTH: 'none' })).toThrow(/MQTT_BROKER_AUTH/);
  });

  describe('SMS gateway (issue 27)', () => {
    const { SMS_WEBHOOK_URL: _webhook, ...PRODUCTION_WITHOUT_WEBHOOK } = PRODUCTION;
    const MSG91: Record<string, string> = {
      SMS_PROVIDER: 'msg91',
      MSG91_AUTH_KEY: '412345AbCdEfGhIjKlMnOp1',
      SMS_SENDER_ID: 'KISHTI',
      SMS_TEMPLATE_OTP: '6650a1f0d6fc05123a4b0001',
      SMS_TEMPLATE_SIM_CHANGE: '6650a1f0d6fc05123a4b0002',
      SMS_TEMPLATE_WARRANTY: '6650a1f0d6fc05123a4b0003',
      SMS_TEMPLATE_SIGNUP_APPROVED: '6650a1f0d6fc05123a4b0004',
      SMS_TEMPLATE_SIGNUP_DECLINED: '6650a1f0d6fc05123a4b0005',
      SMS_TEMPLATE_EMI_REMINDER: '6650a1f0d6fc05123a4b0006',
    };
    const REQUIRED = Object.keys(MSG91).filter((key) => key !== 'SMS_PROVIDER');

    it('refuses production MSG91 without the auth key, the DLT header and every template id, naming each', () => {
      expect(() => loadConfig({ ...PRODUCTION_WITHOUT_WEBHOOK, SMS_PROVIDER: 'msg91' })).toThrow(
        new RegExp(
          REQUIRED.map((key) => `${key}: ${key} must be set in production with SMS_PROVIDER=msg91`).join(
            '.*',
          ),
        ),
      );
      for (const key of REQUIRED) {
        const { [key]: _missing, ...rest } = MSG91;
        expect(() => loadConfig({ ...PRODUCTION_WITHOUT_WEBHOOK, ...rest }), key).toThrow(
          new RegExp(
            `^Invalid configuration: ${key}: ${key} must be set in production with SMS_PROVIDER=msg91$`,
          ),
        );
      }
      // Complete, MSG91 needs no webhook; its API is MSG91's own unless told otherwise.
      expect(loadConfig({ ...PRODUCTION_WITHOUT_WEBHOOK, ...MSG91 })).toMatchObject({
        SMS_PROVIDER: 'msg91',
        SMS_SENDER_ID: 'KISHTI',
        MSG91_API_URL: 'https://control.msg91.com/api/v5',
      });
    });

    it('keeps the webhook the default, required in production only with it', () => {
      expect(loadConfig(PRODUCTION).SMS_PROVIDER).toBe('webhook');
      expect(() => loadConfig(PRODUCTION_WITHOUT_WEBHOOK)).toThrow(
        /^Invalid configuration: SMS_WEBHOOK_URL: SMS_WEBHOOK_URL must be set in production$/,
      );
      expect(() => loadConfig({ ...PRODUCTION_WITHOUT_WEBHOOK, SMS_PROVIDER: 'webhook' })).toThrow(
        /SMS_WEBHOOK_URL/,
      );
      // Outside production nothing SMS is required: SMS go to the log.
      expect(loadConfig({ ...DEV, SMS_PROVIDER: 'msg91' }).SMS_PROVIDER).toBe('msg91');
    });

    it('refuses an http MSG91 API in production, where it would carry the auth key in clear', () => {
      expect(() =>
        loadConfig({
          ...PRODUCTION_WITHOUT_WEBHOOK,
          ...MSG91,
          MSG91_API_URL: 'http://control.msg91.com/api/v5',
        }),
      ).toThrow(/MSG91_API_URL: MSG91_API_URL must be an https URL in production/);
    });

    it.each([
      ['SMS_PROVIDER', 'twilio'],
      ['SMS_SENDER_ID', 'KISHT1'],
      ['SMS_SENDER_ID', 'KISH'],
      ['SMS_SENDER_ID', 'KISHTIX'],
      ['MSG91_AUTH_KEY', 'has a space'],
      ['MSG91_API_URL', 'control.msg91.com'],
      ['SMS_TEMPLATE_OTP', 'not an id'],
      ['SMS_TEMPLATE_SIGNUP_DECLINED', ''],
    ])('names %s=%j as bad', (key, value) => {
      expect(() => loadConfig({ ...DEV, [key]: value })).toThrow(
        new RegExp(`^Invalid configuration: ${key}: `),
      );
    });
  });

  describe('TRUST_PROXY', () => {
    it.each<{ value: string | undefined; trustProxy: false | string[] }>([
      { value: undefined, trustProxy: false },
      { value: '10.0.0.5', trustProxy: ['10.0.0.5'] },
      { value: '10.0.0.0/8, 192.168.1.1', trustProxy: ['10.0.0.0/8', '192.168.1.1'] },
      { value: '::1,fd00::/8', trustProxy: ['::1', 'fd00::/8'] },
      { value: 'loopback,172.16.0.0/12', trustProxy: ['loopback', '172.16.0.0/12'] },
    ])('$value → $trustProxy', ({ value, trustProxy }) => {
      expect(loadConfig(value === undefined ? DEV : { ...DEV, TRUST_PROXY: value }).TRUST_PROXY).toEqual(
        trustProxy,
      );
    });

    it.each([
      'true',
      '-1',
      '1.5',
      '',
      'proxy.example.com',
      '10.0.0.0/33',
      '::/129',
      '10.0.0.1,',
      '10.0.0.0/8/8',
    ])('refuses %j naming TRUST_PROXY', (value) => {
      expect(() => loadConfig({ ...DEV, TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY: comma-separated proxy addresses/,
      );
    });

    it.each(['0', '1', '2'])(
      'refuses the hop count %s, which Fastify cannot check against the peer',
      (value) => {
        expect(() => loadConfig({ ...DEV, TRUST_PROXY: value })).toThrow(
          /TRUST_PROXY: name the proxies by address/,
        );
      },
    );
  });

  describe('broker authentication', () => {
    it.each<{ case: string; env: Record<string, string>; refusedFor?: RegExp }>([
      {
        case: 'production, external broker, nothing said about its auth',
        env: { ...PRODUCTION, MQTT_URL },
        refusedFor: /MQTT_BROKER_AUTH: MQTT_URL is an external broker: set BROKER_HOOK_SECRET/,
      },
      {
        case: 'production, external broker, hook secret',
        env: { ...PRODUCTION, MQTT_URL, BROKER_HOOK_SECRET },
      },
      {
        case: 'production, external broker, hooks stated with the secret',
        env: { ...PRODUCTION, MQTT_URL, MQTT_BROKER_AUTH: 'hooks', BROKER_HOOK_SECRET },
      },
      {
        case: 'production, external broker that authenticates devices itself, with the probe phone',
        env: {
          ...PRODUCTION,
          MQTT_URL,
          MQTT_BROKER_AUTH: 'external',
          MQTT_PROBE_DEVICE_ID: '01a22656-51c1-70e5-b6e7-5aa01d80ab64',
          MQTT_PROBE_DEVICE_SECRET: 'probe-phone-secret-0123456789',
        },
      },
      {
        case: 'production, external broker that authenticates devices itself, without the probe phone',
        env: { ...PRODUCTION, MQTT_URL, MQTT_BROKER_AUTH: 'external' },
        refusedFor: /MQTT_PROBE_DEVICE_ID: MQTT_BROKER_AUTH=external needs MQTT_PROBE_DEVICE_ID/,
      },
      {
        case: 'production, external broker, hooks stated without the secret',
        env: { ...PRODUCTION, MQTT_URL, MQTT_BROKER_AUTH: 'hooks' },
        refusedFor: /BROKER_HOOK_SECRET: MQTT_BROKER_AUTH=hooks needs BROKER_HOOK_SECRET/,
      },
      {
        case: 'development, hooks stated without the secret',
        env: { NODE_ENV: 'development', MQTT_URL, MQTT_BROKER_AUTH: 'hooks' },
        refusedFor: /BROKER_HOOK_SECRET: MQTT_BROKER_AUTH=hooks needs BROKER_HOOK_SECRET/,
      },
      { case: 'development, external broker alone', env: { NODE_ENV: 'development', MQTT_URL } },
      { case: 'production, embedded broker (it checks devices itself)', env: PRODUCTION },
    ])('$case', ({ env, refusedFor }) => {
      if (refusedFor) {
        expect(() => loadConfig(env)).toThrow(refusedFor);
      } else {
        expect(loadConfig(env).NODE_ENV).toBe(env.NODE_ENV);
      }
    });

    it('names only BROKER_HOOK_SECRET when hooks are stated without it', () => {
      expect(() => loadConfig({ ...PRODUCTION, MQTT_URL, MQTT_BROKER_AUTH: 'hooks' })).not.toThrow(
        /MQTT_BROKER_AUTH:/,
      );
    });

    it('stops a production server on an unauthenticated external broker before it opens anything', async () => {
      const outcome = await startServerProcess({
        name: 'unauthenticated-broker',
        env: { ...PRODUCTION, MQTT_URL, PORT: '0', HOST: '127.0.0.1', PGLITE_DATA_DIR: 'memory://' },
      }).then(
        async (server) => {
          await server.kill('SIGTERM');
          return 'it served';
        },
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(/exited \(1\) before it was ready/);
      expect(outcome).toMatch(/MQTT_BROKER_AUTH: MQTT_URL is an external broker/);
      // No pino line at all: it stopped at the configuration, before the app, database or broker client.
      expect(outcome).not.toMatch(/"level":/);
    });
  });
});
