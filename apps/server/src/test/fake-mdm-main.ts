import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { paths } from '@kisht/domain/paths';
import { type FakeAndroidManagement, startFakeAndroidManagement } from './fake-android-management';
import { FAKE_MSG91_ENV, startFakeMsg91, type TFakeMsg91 } from './fake-msg91';
import { type FakeIphone, type FakeNanoMdm, startFakeNanoMdm } from './fake-nanomdm';
import { FAKE_WHATSAPP_ACCOUNT, startFakeWhatsApp, type TFakeWhatsApp } from './fake-whatsapp';

/**
 * The MDM fakes as one process, for the Playwright journeys' server (e2e/support/global-setup.ts)
 * and for a person trying the Apple and managed-Android families by hand (docs/apple.md,
 * docs/android-management.md):
 *
 *   cd apps/server && node --import tsx src/test/fake-mdm-main.ts [--kisht-url http://127.0.0.1:3000]
 *
 * It starts the fake NanoMDM (fake-nanomdm.ts; its webhook goes to the Kisht server's
 * paths.apple.webhook, signed with a fresh HMAC key) and the fake Android Management API
 * (fake-android-management.ts), each on an ephemeral port of 127.0.0.1, and a control HTTP API on
 * a third one through which a journey acts as the phone. Prints one JSON line on stdout:
 * `{ controlUrl, nanomdmUrl, amapiUrl, env }`, `env` being the Kisht server's environment for
 * both fakes (NANOMDM_*, APPLE_*, AMAPI_*). Control API (JSON in and out; errors `{ error }`):
 * - `POST /control/kisht {url}`: the Kisht server's base URL (the webhook goes to url + paths.apple.webhook);
 * - `POST /control/iphone/enrol {profileUrl, serialNumber, udid?, supervised?, imei?}`: a simulated
 *   iPhone fetches the enrolment profile from `profileUrl` and installs it (Authenticate,
 *   TokenUpdate) → `{udid, checkins}` (the webhook's answers);
 * - `POST /control/iphone/checkout {serialNumber}`: the user removes the MDM profile (CheckOut);
 * - `GET /control/iphone?serialNumber=`: the phone as it stands: lock screen, lost mode, the
 *   commands it ran (RequestType and the plist's Command dict) and how it answered each
 *   (`answers`: status Acknowledged/Error/NotNow and the webhook's HTTP status), what waits, and
 *   the enqueues NanoMDM refused;
 * - `POST /control/amapi/enrol {qrPayload, imei, serialNumber?}`: a phone scans the managed-Android
 *   QR (the enrolment token in its admin extras bundle) → the AMAPI Device;
 * - `GET /control/amapi/devices`: the enterprise's devices; `GET /control/amapi/commands`: the
 *   commands issued (devices.issueCommand bodies, with the answered status);
 * - `GET /control/sms`: the SMS the fake MSG91 accepted (template id, mobile, variables);
 *   `GET /control/whatsapp`: the template messages the fake WhatsApp Cloud API accepted.
 */

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
};

const readJson = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('a JSON object is expected');
  return parsed as Record<string, unknown>;
};

const requiredString = (body: Record<string, unknown>, field: string): string => {
  const value = body[field];
  if (typeof value !== 'string' || !value) throw new Error(`${field} is required (a string)`);
  return value;
};

/** A UDID of the shape iPhones have (00008110-XXXXXXXXXXXXXXXX) for a simulated phone. */
const newUdid = () => `00008110-${randomBytes(8).toString('hex').toUpperCase()}`;

const phoneBySerial = (nano: FakeNanoMdm, serialNumber: string): FakeIphone | undefined =>
  [...nano.phones.values()].reverse().find((phone) => phone.info.serialNumber === serialNumber);

/** The AMAPI enrolment token value a managed-Android QR carries (CloudDPC's EXTRA_ENROLLMENT_TOKEN). */
const enrolmentTokenOf = (qrPayload: string): string => {
  const payload = JSON.parse(qrPayload) as Record<string, unknown>;
  const extras = payload['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE'] as
    | Record<string, unknown>
    | undefined;
  const token = extras?.['com.google.android.apps.work.clouddpc.EXTRA_ENROLLMENT_TOKEN'];
  if (typeof token !== 'string' || !token) throw new Error('qrPayload carries no enrolment token');
  return token;
};

/** The fakes a control request may act on. */
type TFakes = { nano: FakeNanoMdm; amapi: FakeAndroidManagement; msg91: TFakeMsg91; whatsapp: TFakeWhatsApp };

const handleControl = async (
  request: IncomingMessage,
  { nano, amapi, msg91, whatsapp }: TFakes,
): Promise<[number, unknown]> => {
  const url = new URL(request.url ?? '/', 'http://control');
  const route = `${request.method} ${url.pathname}`;
  switch (route) {
    case 'GET /control/health':
      return [200, { ok: true }];
    case 'POST /control/kisht': {
      const base = requiredString(await readJson(request), 'url').replace(/\/+$/, '');
      nano.webhookUrl = `${base}${paths.apple.webhook}`;
      return [200, { webhookUrl: nano.webhookUrl }];
    }
    case 'POST /control/iphone/enrol': {
      const body = await readJson(request);
      const profileUrl = requiredString(body, 'profileUrl');
      const serialNumber = requiredString(body, 'serialNumber');
      if (!nano.webhookUrl) throw new Error('the Kisht server is not known yet: POST /control/kisht first');
      const profile = await fetch(profileUrl);
      if (!profile.ok) return [502, { error: `the profile answered ${profile.status}` }];
      const phone = nano.phone(typeof body.udid === 'string' ? body.udid : newUdid(), {
        serialNumber,
        ...(typeof body.imei === 'string' ? { imei: body.imei } : {}),
        ...(typeof body.supervised === 'boolean' ? { supervised: body.supervised } : {}),
      });
      const checkins = await phone.installProfile(await profile.text());
      return [200, { udid: phone.udid, checkins }];
    }
    case 'POST /control/iphone/checkout': {
      const phone = phoneBySerial(nano, requiredString(await readJson(request), 'serialNumber'));
      if (!phone) return [404, { error: 'no iPhone with that serial number' }];
      return [200, { answer: await phone.removeProfile() }];
    }
    case 'GET /control/iphone': {
      const phone = phoneBySerial(nano, url.searchParams.get('serialNumber') ?? '');
      if (!phone) return [404, { error: 'no iPhone with that serial number' }];
      const commandOf = (c: { uuid: string; requestType: string; command: unknown }) => ({
        uuid: c.uuid,
        requestType: c.requestType,
        command: c.command,
      });
      return [
        200,
        {
          udid: phone.udid,
          serialNumber: phone.info.serialNumber,
          lockScreen: phone.lockScreen,
          isLostMode: phone.isLostMode,
          ran: phone.ran.map(commandOf),
          queue: phone.queue.map(commandOf),
          answers: phone.answers,
          refused: nano.refused.map((r) => r.error),
        },
      ];
    }
    case 'POST /control/amapi/enrol': {
      const body = await readJson(request);
      const device = amapi.enrolPhone({
        tokenValue: enrolmentTokenOf(requiredString(body, 'qrPayload')),
        imei: requiredString(body, 'imei'),
        ...(typeof body.serialNumber === 'string' ? { serialNumber: body.serialNumber } : {}),
      });
      return [200, device];
    }
    case 'GET /control/amapi/devices':
      return [200, [...amapi.devices.values()]];
    case 'GET /control/amapi/commands':
      return [
        200,
        amapi.requests
          .filter((r) => r.method === 'POST' && r.path.endsWith(':issueCommand'))
          .map((r) => ({ device: r.path.slice(0, -':issueCommand'.length), body: r.body, status: r.status })),
      ];
    case 'GET /control/sms':
      return [200, msg91.received];
    case 'GET /control/whatsapp':
      return [200, whatsapp.sent];
    default:
      return [404, { error: `no control route ${route}` }];
  }
};

/** The Kisht server's settings for both fakes as `export NAME='value'` lines a shell can `eval`. */
const shellExports = (env: Record<string, string>): string =>
  Object.entries(env)
    .map(([name, value]) => `export ${name}='${value.replaceAll("'", "'\\''")}'`)
    .join('\n');

const main = async () => {
  const { values: args } = parseArgs({
    options: {
      'kisht-url': { type: 'string' },
      /** The control API's port; NanoMDM gets the next one and the AMAPI fake the one after. */
      port: { type: 'string', default: '0' },
      /** Print `export NAME=value` lines (and the control URL) instead of the JSON line. */
      exports: { type: 'boolean', default: false },
    },
  });
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_533) throw new Error('--port must be a port number');
  const apiKey = randomBytes(16).toString('hex');
  const webhookSecret = randomBytes(24).toString('hex');
  const nano = await startFakeNanoMdm(apiKey, webhookSecret, port === 0 ? 0 : port + 1);
  const amapi = await startFakeAndroidManagement({ port: port === 0 ? 0 : port + 2 });
  const msg91 = await startFakeMsg91();
  const whatsapp = await startFakeWhatsApp();
  if (args['kisht-url']) nano.webhookUrl = `${args['kisht-url'].replace(/\/+$/, '')}${paths.apple.webhook}`;

  const env = {
    NANOMDM_URL: nano.url,
    NANOMDM_API_KEY: apiKey,
    NANOMDM_WEBHOOK_SECRET: webhookSecret,
    APPLE_MDM_TOPIC: 'com.apple.mgmt.External.00000000-kisht-fake',
    // Where a real iPhone would check in; the simulated one only reads its query (kisht_token).
    APPLE_MDM_SERVER_URL: `${nano.url}/mdm`,
    APPLE_SCEP_URL: `${nano.url}/scep`,
    APPLE_SCEP_CHALLENGE: randomBytes(8).toString('hex'),
    AMAPI_API_URL: amapi.url,
    AMAPI_ENTERPRISE_NAME: amapi.enterpriseName,
    AMAPI_ACCESS_TOKEN: amapi.token,
  };
  const messagingEnv = {
    ...FAKE_MSG91_ENV,
    SMS_PROVIDER_OUTSIDE_PRODUCTION: 'true',
    MSG91_API_URL: msg91.url,
    WHATSAPP_PROVIDER: 'cloud',
    WHATSAPP_API_URL: whatsapp.url,
    WHATSAPP_PHONE_NUMBER_ID: FAKE_WHATSAPP_ACCOUNT.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: FAKE_WHATSAPP_ACCOUNT.accessToken,
    WHATSAPP_APP_SECRET: randomBytes(16).toString('hex'),
    WHATSAPP_VERIFY_TOKEN: randomBytes(8).toString('hex'),
  };

  const control = createServer((request, response) => {
    // The settings as shell lines, for `eval "$(curl -s <controlUrl>/control/env)"` (README step 6).
    if (request.method === 'GET' && request.url === '/control/env') {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`${shellExports(env)}\n`);
      return;
    }
    handleControl(request, { nano, amapi, msg91, whatsapp }).then(
      ([status, body]) => json(response, status, body),
      (error: unknown) => json(response, 400, { error: (error as Error).message ?? String(error) }),
    );
  });
  await new Promise<void>((resolve) => control.listen(port, '127.0.0.1', resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

  // A webhook that fails (the server gone) must not end the fakes.
  process.on('unhandledRejection', (error) => {
    process.stderr.write(`fake-mdm: ${String(error)}\n`);
  });
  const stop = async () => {
    control.close();
    await Promise.all([nano.close(), amapi.close(), msg91.close(), whatsapp.close()]);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());

  process.stdout.write(
    args.exports
      ? `${shellExports({ KISHT_FAKE_MDM_CONTROL_URL: controlUrl, ...env })}\n`
      : `${JSON.stringify({ controlUrl, nanomdmUrl: nano.url, amapiUrl: amapi.url, env, messagingEnv })}\n`,
  );
};

main().catch((error: unknown) => {
  process.stderr.write(`fake-mdm: ${String(error)}\n`);
  process.exit(1);
});
