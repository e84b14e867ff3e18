import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { paths } from '@kisht/domain/paths';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { TConfig } from './config';
import { keepPlannerStatistics, openDatabase } from './db/client';
import { seedDemo } from './db/seed/seed';
import type { StatementCounter } from './db/statement-counter';
import { createEmbeddedBroker, createExternalBus, type EmbeddedBroker } from './device-channel/broker';
import { probeBrokerLockdown } from './device-channel/broker-probe';
import type { DeviceBus } from './device-channel/bus';
import { registerClockedJobs, startJobs } from './jobs/scheduler';
import type { AppContext } from './lib/context';
import { JobRunners } from './lib/job-runners';
import {
  advertisementsPublicRoutes,
  advertisementsRoutes,
} from './modules/advertisements/advertisements.routes';
import { androidManagementRoutes } from './modules/android-management/android-management.routes';
import {
  createAndroidManagementBridge,
  startAndroidManagementJobs,
} from './modules/android-management/android-management.service';
import { createAppleBridge } from './modules/apple-mdm/apple-bridge';
import { applePublicRoutes, appleRoutes } from './modules/apple-mdm/apple-mdm.routes';
import { createNanoMdmClient } from './modules/apple-mdm/nanomdm.client';
import { authPublicRoutes, authSessionRoutes } from './modules/auth/auth.routes';
import { autopayRoutes } from './modules/autopay/autopay.routes';
import { catalogueRoutes } from './modules/catalogue/catalogue.routes';
import { collectionsRoutes } from './modules/collections/collections.routes';
import { customerDetailsRoutes } from './modules/customer-details/customer-details.routes';
import { customersRoutes } from './modules/customers/customers.routes';
import { brokerHookRoutes } from './modules/devices/broker-hooks.routes';
import { createDeviceAuthenticator } from './modules/devices/device-connections';
import { DeviceEventRecorder } from './modules/devices/device-events.service';
import { completeUninstall, notifySimChange } from './modules/devices/device-lifecycle.service';
import { CommandDispatcher } from './modules/devices/device-outbox.service';
import { deviceSettingsRoutes } from './modules/devices/device-settings.routes';
import { deviceCommandRoutes } from './modules/devices/devices.routes';
import { setDevicePresence } from './modules/devices/devices.service';
import { enrolmentQrRoutes, enrolmentRoutes } from './modules/devices/enrolment.routes';
import { recordOfflineLock } from './modules/devices/payoff.service';
import { emiRoutes } from './modules/emi/emi.routes';
import { emmPublicRoutes, emmRoutes } from './modules/emm/emm.routes';
import { recordAppRemoved } from './modules/emm/emm.service';
import { financersRoutes } from './modules/financers/financers.routes';
import { jobClockRoutes } from './modules/job-clock/job-clock.routes';
import { joiningAdminRoutes, joiningPublicRoutes } from './modules/joining/joining.routes';
import { keyRefundRoutes } from './modules/key-refund/key-refund.routes';
import { keyRequestsRoutes } from './modules/key-requests/key-requests.routes';
import { ledgerRoutes } from './modules/ledger/ledger.routes';
import { mediaRoutes } from './modules/media/media.routes';
import { messagesRoutes } from './modules/messages/messages.routes';
import { networkRoutes } from './modules/network/network.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { oauthRoutes } from './modules/oauth/oauth.routes';
import { orgPagesRoutes } from './modules/org-pages/org-pages.routes';
import { orgsRoutes } from './modules/orgs/orgs.routes';
import { partnerApiRoutes } from './modules/partner-api/partner-api.routes';
import { partnerKeysRoutes } from './modules/partner-api/partner-keys.routes';
import { PARTNER_SECURITY_SCHEME } from './modules/partner-api/partner-openapi';
import { paymentQrRoutes } from './modules/payment-qr/payment-qr.routes';
import { paymentsRoutes } from './modules/payments/payments.routes';
import { plansPublicRoutes, plansRoutes } from './modules/plans/plans.routes';
import { createPushGateway, type TPushGateway } from './modules/push/push.service';
import { remindersRoutes } from './modules/reminders/reminders.routes';
import { retailerRoutes } from './modules/retailers/retailers.routes';
import { createSmsTransport } from './modules/sms/create-sms-transport';
import { SmsOutbox } from './modules/sms/sms.service';
import type { SmsTransport } from './modules/sms/sms.transport';
import { warrantyRoutes } from './modules/warranty/warranty.routes';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { tellCommandsApplied } from './modules/webhooks/webhooks.service';
import { createWhatsAppTransport } from './modules/whatsapp/create-whatsapp-transport';
import type { WhatsAppTransport } from './modules/whatsapp/whatsapp.transport';
import { registerClientContract } from './plugins/client-contract';
import { registerErrorHandling } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { registerLoadShedding } from './plugins/load-shedding';
import { SnapshotRateLimitStore } from './plugins/rate-limit-store';
import { registerWebApp } from './plugins/web-app';

export type BuildAppOptions = {
  /** An open PGlite to use instead of opening one from config (tests pass one from a template). */
  pglite?: PGlite;
  /** Replaces the SMS gateway transport under the outbox (tests capture messages or fake a gateway). */
  sms?: SmsTransport;
  /** Replaces the WhatsApp transport chosen from config (tests capture reminders). */
  whatsapp?: WhatsAppTransport;
  /** Replaces the wake-up push gateway chosen from config (FCM_SERVICE_ACCOUNT_FILE). */
  push?: TPushGateway;
  /** Writes log lines (JSON, one a line) here instead of stdout or pino-pretty (tests read them). */
  logStream?: DestinationStream;
};

/** The built server: Fastify plus its shared services and the database's statement counter. */
export type KishtApp = FastifyInstance & {
  ctx: AppContext;
  broker: EmbeddedBroker | null;
  statements: StatementCounter;
};

const API_PREFIXES = [
  '/api/',
  '/country/',
  '/emm/',
  '/micromdm/',
  paths.partner.prefix,
  paths.mqtt,
  paths.docs,
];

/**
 * Fastify's logger: none when LOG_LEVEL is silent; in development pino-pretty, one line per entry
 * (people read it, the dev OTP line among them); otherwise JSON lines to stdout (or `stream`).
 */
const loggerOptions = (
  config: TConfig,
  stream: DestinationStream | undefined,
): FastifyServerOptions['logger'] => {
  if (config.LOG_LEVEL === 'silent') return false;
  if (stream) return { level: config.LOG_LEVEL, stream };
  if (config.NODE_ENV !== 'development') return { level: config.LOG_LEVEL };
  return {
    level: config.LOG_LEVEL,
    transport: {
      target: 'pino-pretty',
      options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId', singleLine: true },
    },
  };
};

/**
 * Development request log: one line per request when its response is sent (`GET /api/x 200 7.4 ms`)
 * instead of Fastify's "incoming request" and "request completed" entries with the whole request
 * and response. Error entries (the error handler's, stream errors) stay as Fastify writes them.
 */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = `${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }
}

const defaultWebDist = () => resolve(fileURLToPath(new URL('../../web/dist', import.meta.url)));

/**
 * Builds the Kisht server (design §1, §2): database (PGlite or PostgreSQL) with migrations, the
 * device channel (embedded broker at /mqtt or an external one), every route, OpenAPI at /docs and,
 * when built, the web app. Never listens; main.ts does. Closing the app closes everything.
 */
export const buildApp = async (givenConfig: TConfig, options: BuildAppOptions = {}): Promise<KishtApp> => {
  // With an external broker nothing serves /mqtt here: unless told otherwise, devices get MQTT_URL.
  const config: TConfig =
    givenConfig.MQTT_URL && !givenConfig.MQTT_PUBLIC_URL
      ? { ...givenConfig, MQTT_PUBLIC_URL: givenConfig.MQTT_URL }
      : givenConfig;
  // A broker said to authenticate devices itself is checked before anything is opened (issue 27).
  if (config.MQTT_URL && config.NODE_ENV === 'production' && config.MQTT_BROKER_AUTH === 'external') {
    const open = await probeBrokerLockdown(
      config.MQTT_URL,
      config.MQTT_PROBE_DEVICE_ID && config.MQTT_PROBE_DEVICE_SECRET
        ? { id: config.MQTT_PROBE_DEVICE_ID, secret: config.MQTT_PROBE_DEVICE_SECRET }
        : undefined,
    );
    if (open.length > 0) {
      throw new Error(
        `MQTT_BROKER_AUTH=external, but the broker at MQTT_URL does not keep devices out or apart: ${open.join('; ')}. Anyone could read every phone's commands and forge its acks; not starting.`,
      );
    }
  }
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    // Development logs one line per request, so the dev OTP stays easy to find among them; test and
    // production keep Fastify's structured "incoming request" / "request completed" entries.
    ...(config.NODE_ENV === 'development' ? { logController: new OneLineRequestLog() } : {}),
    // Only named proxies may say who the client is: per-IP rate limits key on request.ip.
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 6 * 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDataDir: config.PGLITE_DATA_DIR,
    ...(options.pglite ? { pglite: options.pglite } : {}),
    onConnectionLost: (error) =>
      app.log.warn({ err: error }, 'a database connection was ended by the server; the pool opens a new one'),
  });
  const { db } = database;
  if (config.SEED_DEMO) await seedDemo(db, app.log);
  // Load shedding measures the event loop from here: opening the database (PGlite's start, the
  // migrations) and the seed block it for seconds, which would shed the first requests.
  await registerLoadShedding(app, config);
  const stopStatistics =
    database.driver === 'pglite' && config.PGLITE_ANALYZE_INTERVAL_HOURS > 0
      ? keepPlannerStatistics(database, config.PGLITE_ANALYZE_INTERVAL_HOURS * 3_600_000, app.log)
      : () => {};

  let broker: EmbeddedBroker | null = null;
  let bus: DeviceBus;
  if (config.MQTT_URL) {
    bus = await createExternalBus({
      url: config.MQTT_URL,
      sharedGroup: config.MQTT_SHARED_GROUP,
      ...(config.MQTT_USERNAME ? { username: config.MQTT_USERNAME, password: config.MQTT_PASSWORD } : {}),
      log: app.log,
      clientId: `kisht-server-${process.pid}-${Date.now()}`,
    });
  } else {
    broker = await createEmbeddedBroker({
      log: app.log,
      authenticateDevice: createDeviceAuthenticator(db),
      onPresence: (deviceId, isOnline) => {
        setDevicePresence(db, deviceId, isOnline).catch((error: unknown) =>
          app.log.warn({ err: error, deviceId }, 'presence update failed'),
        );
      },
    });
    broker.attach(app.server);
    bus = broker;
  }
  const dispatcher = new CommandDispatcher(
    db,
    bus,
    app.log,
    options.push ?? createPushGateway(config, app.log),
  );
  const deviceEvents = new DeviceEventRecorder(db, dispatcher, app.log);
  await bus.subscribeEvents(deviceEvents.handleEvent);

  const smsTransport = options.sms ?? createSmsTransport(config, app.log);
  const sms = new SmsOutbox({ db, transport: smsTransport, config, log: app.log });
  const whatsapp = options.whatsapp ?? createWhatsAppTransport(config, app.log);
  const jobs = new JobRunners();
  const ctx: AppContext = { db, config, sms, whatsapp, dispatcher, deviceEvents, jobs };
  const jobDeps = { db, dispatcher, sms, whatsapp, whatsappTemplate: config.WHATSAPP_TEMPLATE_EMI_REMINDER };
  registerClockedJobs(jobs, jobDeps, app.log);
  deviceEvents.hooks = {
    simChanged: (change) => notifySimChange(ctx, change),
    offlineLock: (report) => recordOfflineLock(ctx, { deviceId: report.device.id, data: report.data }),
    commandDone: (done) => completeUninstall(db, done),
    commandsDone: async (done) => {
      await tellCommandsApplied(db, done);
    },
    appRemoved: (report) => recordAppRemoved(db, report),
  };
  // Apple devices (device_type 3) through NanoMDM (docs/apple.md), when configured.
  if (config.NANOMDM_URL && config.NANOMDM_API_KEY) {
    dispatcher.bridges.apple_mdm = createAppleBridge({
      db,
      config,
      client: createNanoMdmClient({
        baseUrl: config.NANOMDM_URL,
        apiKey: config.NANOMDM_API_KEY,
        timeoutMs: config.NANOMDM_TIMEOUT_MS,
      }),
      events: deviceEvents,
      log: app.log,
    });
  }
  // Managed Android (device_type 1) through Google's Android Management API, when configured.
  const androidManagement = createAndroidManagementBridge({ db, config, events: deviceEvents, log: app.log });
  if (androidManagement) dispatcher.bridges.android_management = androidManagement;

  await app.register(rateLimit, { global: false, store: SnapshotRateLimitStore });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Kisht API',
        version: '0.1.0',
        description: 'Device financing: customers, EMIs and device control.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          partnerKey: PARTNER_SECURITY_SCHEME,
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: paths.docs });

  const webDist = config.WEB_DIST_DIR ?? defaultWebDist();
  const hasWeb = existsSync(join(webDist, 'index.html'));
  if (hasWeb) await registerWebApp(app, webDist);
  registerErrorHandling(app, {
    // Client routes get index.html; API paths and missing files (a /locales/xx.json, say) get a 404.
    spaFallback: hasWeb
      ? (url) =>
          !API_PREFIXES.some((prefix) => url.startsWith(prefix)) && !/\.[a-z0-9]+$/i.test(url.split('?')[0]!)
      : null,
  });

  registerInputGuard(app);
  registerClientContract(app, config);
  await app.register(orgsRoutes, ctx);
  await app.register(deviceSettingsRoutes, ctx);
  await app.register(authPublicRoutes, ctx);
  await app.register(enrolmentRoutes, ctx);
  await app.register(emmPublicRoutes, ctx);
  await app.register(applePublicRoutes, ctx);
  await app.register(brokerHookRoutes, ctx);
  await app.register(authSessionRoutes, ctx);
  await app.register(catalogueRoutes, ctx);
  await app.register(customersRoutes, ctx);
  await app.register(customerDetailsRoutes, ctx);
  await app.register(enrolmentQrRoutes, ctx);
  await app.register(emmRoutes, ctx);
  await app.register(deviceCommandRoutes, ctx);
  await app.register(appleRoutes, ctx);
  await app.register(androidManagementRoutes, ctx);
  await app.register(emiRoutes, ctx);
  await app.register(collectionsRoutes, ctx);
  await app.register(remindersRoutes, ctx);
  await app.register(mediaRoutes, ctx);
  await app.register(paymentQrRoutes, ctx);
  await app.register(paymentsRoutes, ctx);
  await app.register(autopayRoutes, ctx);
  await app.register(financersRoutes, ctx);
  await app.register(retailerRoutes, ctx);
  await app.register(joiningPublicRoutes, ctx);
  await app.register(joiningAdminRoutes, ctx);
  await app.register(oauthRoutes, ctx);
  await app.register(ledgerRoutes, ctx);
  await app.register(keyRefundRoutes, ctx);
  await app.register(keyRequestsRoutes, ctx);
  await app.register(networkRoutes, ctx);
  await app.register(plansPublicRoutes, ctx);
  await app.register(plansRoutes, ctx);
  await app.register(warrantyRoutes, ctx);
  await app.register(orgPagesRoutes, ctx);
  await app.register(notificationsRoutes, ctx);
  await app.register(messagesRoutes, ctx);
  await app.register(advertisementsPublicRoutes, ctx);
  await app.register(advertisementsRoutes, ctx);
  await app.register(webhooksRoutes, ctx);
  await app.register(partnerKeysRoutes, ctx);
  await app.register(partnerApiRoutes, ctx);
  // Never in production (config refuses JOB_CLOCK there).
  if (config.JOB_CLOCK) await app.register(jobClockRoutes, ctx);

  const stopJobs =
    config.JOBS_INTERVAL_MINUTES > 0
      ? startJobs(jobDeps, config.JOBS_INTERVAL_MINUTES * 60_000, app.log)
      : () => {};
  const stopAndroidManagementJobs =
    androidManagement && config.JOBS_INTERVAL_MINUTES > 0
      ? startAndroidManagementJobs(androidManagement, config.JOBS_INTERVAL_MINUTES * 60_000, app.log)
      : () => {};

  // Devices hold WebSocket connections the HTTP server cannot close by itself: drop the device
  // channel first, so closing never waits for phones to hang up.
  app.addHook('preClose', async () => {
    stopJobs();
    stopAndroidManagementJobs();
    stopStatistics();
    // A bulk's chunks being written stop at the next one (the bulk job resumes them).
    await dispatcher.close();
    await bus.close();
    // SMS deliveries already under way (SIM-change notices) finish before the database closes.
    await sms.settled();
  });
  app.addHook('onClose', async () => {
    await database.close();
  });
  const kisht = app as unknown as KishtApp;
  kisht.ctx = ctx;
  kisht.broker = broker;
  kisht.statements = database.statements;
  return kisht;
};
