import { isIP } from 'node:net';
import { PARTNER_RATE_LIMIT_PER_MINUTE } from '@kisht/domain/partner-api/partner-api.rules';
import { z } from 'zod';

const ZBooleanFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** proxy-addr's named ranges, which Fastify's trustProxy accepts beside addresses. */
const NAMED_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IP address, an address/prefix CIDR (IPv4 /0–32, IPv6 /0–128) or a named range. */
const isProxyAddress = (entry: string): boolean => {
  if (NAMED_PROXY_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
};

/**
 * Which proxies may set X-Forwarded-For, as Fastify's trustProxy takes it: absent → false (the
 * socket's address is the client, so a header cannot dodge per-IP rate limits); otherwise a
 * comma-separated list of addresses, CIDRs or proxy-addr's named ranges (loopback, linklocal,
 * uniquelocal). A hop count is refused: Fastify 5.12 turns numeric trustProxy off because it cannot
 * check the immediate peer (a client reaching the server directly could forge the header).
 */
const ZTrustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | string[] => {
    if (value === undefined) return false;
    const entries = value.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length === 0) return entries;
    ctx.addIssue({
      code: 'custom',
      message: /^\d+$/.test(value)
        ? 'name the proxies by address or CIDR (e.g. 10.0.0.0/8); a hop count cannot tell a proxy from a client'
        : `comma-separated proxy addresses or CIDRs; not ${bad.map((entry) => JSON.stringify(entry)).join(', ')}`,
    });
    return z.NEVER;
  });

/**
 * A stand-in checksum for development: no DPC APK is signed with it, so a real phone refuses a
 * QR carrying it. Production must name the real one (DPC_SIGNATURE_CHECKSUM).
 */
const DEVELOPMENT_DPC_SIGNATURE_CHECKSUM = 'o6R0Y3ZkN9O2bW8xq8LQ1QxhJ3m5aJ6u0oX2y0T9wqI';

/** A template id at the SMS provider (MSG91's for one DLT template). */
const ZSmsTemplateId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "the template's id as the MSG91 panel shows it")
  .optional();

/** What production with WHATSAPP_PROVIDER=cloud needs: the number, a token, and the webhook's secrets. */
const WHATSAPP_REQUIRED_KEYS = [
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_ACCESS_TOKEN',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
] as const;

/** What production with SMS_PROVIDER=msg91 needs: MSG91's auth key, the DLT header, every template. */
const MSG91_REQUIRED_KEYS = [
  'MSG91_AUTH_KEY',
  'SMS_SENDER_ID',
  'SMS_TEMPLATE_OTP',
  'SMS_TEMPLATE_SIM_CHANGE',
  'SMS_TEMPLATE_WARRANTY',
  'SMS_TEMPLATE_SIGNUP_APPROVED',
  'SMS_TEMPLATE_SIGNUP_DECLINED',
  'SMS_TEMPLATE_EMI_REMINDER',
] as const;

/**
 * Server configuration, parsed once from the environment (design §2). NODE_ENV defaults to
 * production: only a server told `development` (as `npm start` does) or `test` may run on the
 * development secrets, answer `devOtp` and seed the demo organisations. In production secrets,
 * the DPC and the SMS transport must be set, the demo seed is refused, and an external broker must
 * say who authenticates devices (MQTT_BROKER_AUTH).
 */
export const ZConfig = z
  .object({
    /** Absent means production, the safe default; `npm start` sets development explicitly. */
    NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    /** PostgreSQL URL; when absent the embedded PGlite database is used. */
    DATABASE_URL: z.string().url().optional(),
    /** PGlite data directory; 'memory://' keeps it in memory. */
    PGLITE_DATA_DIR: z.string().default('./data/db'),
    /** External MQTT broker (mqtt:// or ws://); when absent the embedded broker serves /mqtt. */
    MQTT_URL: z.string().url().optional(),
    /**
     * The shared-subscription group the server processes of one deployment join for device events
     * on an external broker (each event goes to one of them). Give each deployment on a broker its own.
     */
    MQTT_SHARED_GROUP: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .default('kisht-server'),
    /** The server processes' own MQTT login on an external broker (its auth hook makes them superusers). */
    MQTT_USERNAME: z.string().min(1).optional(),
    MQTT_PASSWORD: z.string().min(16).optional(),
    /**
     * Turns on the external broker's HTTP auth hooks (broker_auth, broker_acl: EMQX's HTTP
     * authentication and authorisation) and is the bearer token the broker must send with them.
     */
    BROKER_HOOK_SECRET: z.string().min(24).optional(),
    /**
     * Who authenticates devices on the external broker (MQTT_URL) and keeps each to its own topics.
     * 'hooks': Kisht's HTTP auth hooks, with BROKER_HOOK_SECRET (setting the secret alone says the
     * same). 'external': the operator states that the broker does it on its own, with its own ACLs: a
     * device may subscribe only to kisht/v1/d/{id}/cmd and publish only to kisht/v1/d/{id}/evt. In
     * production an external broker needs one of the two; the embedded broker checks devices itself.
     */
    MQTT_BROKER_AUTH: z.enum(['hooks', 'external']).optional(),
    /**
     * With MQTT_BROKER_AUTH=external, the credentials of one enrolled phone kept for the broker
     * probe (its device id and secret; a test phone of the shop's own): at start the server
     * connects as it and asks for another device's command topic, which the broker must refuse.
     * Required in production with MQTT_BROKER_AUTH=external.
     */
    MQTT_PROBE_DEVICE_ID: z.string().uuid().optional(),
    MQTT_PROBE_DEVICE_SECRET: z.string().min(16).optional(),
    /** Broker URL handed to devices when an external broker is used. */
    MQTT_PUBLIC_URL: z.string().url().optional(),
    /** Base URL devices and QR codes use; derived from the request when absent. */
    PUBLIC_URL: z.string().url().optional(),
    /** The reverse proxies whose X-Forwarded-For is believed (see ZTrustProxy); none by default. */
    TRUST_PROXY: ZTrustProxy,
    JWT_SECRET: z.string().min(32).default('development-only-jwt-secret-change-me-0000'),
    /** Key for hashing OTPs (HMAC-SHA256). */
    OTP_PEPPER: z.string().min(16).default('development-only-otp-pepper'),
    OTP_TTL_SECONDS: z.coerce.number().int().positive().default(300),
    OTP_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
    OTP_RESEND_AFTER_SECONDS: z.coerce.number().int().min(0).default(30),
    MPIN_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
    MPIN_LOCK_MINUTES: z.coerce.number().int().positive().default(15),
    /**
     * OTP SMS one mobile number may be sent in 24 hours, every organisation and purpose together
     * (issue 12; refused with 429 RATE_LIMITED saying when to try again). Absent: 10, or 100 in
     * development, where people log the demo users in again and again (and no SMS is sent).
     */
    OTP_DAILY_LIMIT_PER_MOBILE: z.coerce.number().int().positive().optional(),
    /** Wrong OTPs one mobile number may try in 24 hours, over all its challenges (issue 12). */
    OTP_DAILY_WRONG_LIMIT_PER_MOBILE: z.coerce.number().int().positive().default(20),
    /** Wrong OTPs of a number in 24 hours before each further try must wait (the growing cool-down). */
    OTP_FREE_WRONG_TRIES: z.coerce.number().int().min(0).default(5),
    /** The first wait of the growing cool-down, seconds; it doubles with each wrong OTP, at most 1 hour. */
    OTP_WRONG_COOLDOWN_SECONDS: z.coerce.number().int().positive().default(30),
    /** Accepted clock skew of the auth-session header (spec §7), seconds. */
    AUTH_SESSION_WINDOW_SECONDS: z.coerce.number().int().positive().default(300),
    /** Refuse API calls without the auth-session header (spec §7). Off by default: scripts and devices call too. */
    AUTH_SESSION_REQUIRED: ZBooleanFlag.default(false),
    /** The fixed secret of the request token (spec §7); public by nature, handed to clients by the app config. */
    REQUEST_TOKEN_SECRET: z.string().min(8).default('kisht-request-token-v1'),
    SESSION_TTL_DAYS: z.coerce.number().int().positive().default(30),
    ENROLMENT_TOKEN_TTL_HOURS: z.coerce.number().int().positive().default(72),
    /**
     * Which SMS gateway production uses (docs/sms.md): `webhook` POSTs {to, text} to SMS_WEBHOOK_URL;
     * `msg91` sends each SMS as its DLT template (id and variables) through MSG91's Flow API. Outside
     * production SMS go to the server log whichever is set.
     */
    SMS_PROVIDER: z.enum(['webhook', 'msg91']).default('webhook'),
    /**
     * Outside production SMS only go to the server log, unless this is true: then they go through
     * SMS_PROVIDER too (the Playwright journeys point MSG91_API_URL at the local fake MSG91).
     */
    SMS_PROVIDER_OUTSIDE_PRODUCTION: ZBooleanFlag.default(false),
    /** Where SMS go in production with SMS_PROVIDER=webhook: POST {to, text} as JSON. */
    SMS_WEBHOOK_URL: z.string().url().optional(),
    /** The DLT header (sender id) the SMS carry: the 6 letters registered on the DLT platform. */
    SMS_SENDER_ID: z
      .string()
      .regex(/^[A-Za-z]{6}$/, 'the 6-letter DLT header (sender id), e.g. KISHTI')
      .optional(),
    /** MSG91's auth key, sent as its `authkey` header (MSG91 panel → Authkey). */
    MSG91_AUTH_KEY: z.string().regex(/^\S+$/, 'the auth key from the MSG91 panel, without spaces').optional(),
    /** MSG91's API base URL; the Flow API is {MSG91_API_URL}/flow (tests point it at a local fake). */
    MSG91_API_URL: z.string().url().default('https://control.msg91.com/api/v5'),
    /**
     * The template id MSG91 shows for each SMS kind's template (created in its panel with the DLT
     * template id, the sender id and the exact registered text; docs/sms.md lists the texts).
     */
    SMS_TEMPLATE_OTP: ZSmsTemplateId,
    /** …of the SIM-change notice to the retailer. */
    SMS_TEMPLATE_SIM_CHANGE: ZSmsTemplateId,
    /** …of the extended-warranty expiry reminder. */
    SMS_TEMPLATE_WARRANTY: ZSmsTemplateId,
    /** …of the join request's approval, */
    SMS_TEMPLATE_SIGNUP_APPROVED: ZSmsTemplateId,
    /** …and of its refusal (two texts, so two DLT templates). */
    SMS_TEMPLATE_SIGNUP_DECLINED: ZSmsTemplateId,
    /** …of the payment reminder to the customer (issue 29). */
    SMS_TEMPLATE_EMI_REMINDER: ZSmsTemplateId,
    /**
     * Payment reminders on WhatsApp (issue 29, docs/whatsapp.md): `log` writes them to the server
     * log (development, tests); `cloud` sends them through the WhatsApp Business Cloud API.
     */
    WHATSAPP_PROVIDER: z.enum(['log', 'cloud']).default('log'),
    /** The Cloud API's base with its version; messages go to {base}/{phone-number-id}/messages. */
    WHATSAPP_API_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
    /** The business phone number's id (WhatsApp Manager → API setup). */
    WHATSAPP_PHONE_NUMBER_ID: z
      .string()
      .regex(/^\d{5,20}$/, 'the phone number id, digits only')
      .optional(),
    /** A system user's permanent access token, sent as the Bearer token. */
    WHATSAPP_ACCESS_TOKEN: z.string().regex(/^\S+$/, 'the access token, without spaces').optional(),
    /** The Meta app's secret: the webhook's X-Hub-Signature-256 is an HMAC under it. */
    WHATSAPP_APP_SECRET: z.string().min(8).optional(),
    /** The verify token given to Meta when the webhook was subscribed. */
    WHATSAPP_VERIFY_TOKEN: z.string().min(8).optional(),
    /** The approved template's name (four body variables: company, name, amount, due date). */
    WHATSAPP_TEMPLATE_EMI_REMINDER: z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/)
      .default('emi_reminder'),
    /** How long one WhatsApp send may take before it is abandoned, ms. */
    WHATSAPP_SEND_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
    /** How long one try to hand an SMS to the gateway may take before it is abandoned, ms. */
    SMS_SEND_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
    /**
     * How long an OTP request waits for its SMS to reach the gateway (tries and back-off included)
     * before answering `delivery: 'queued'` and leaving the SMS to the outbox job, ms.
     */
    SMS_INLINE_BUDGET_MS: z.coerce.number().int().positive().default(4000),
    /** Tries in all before an SMS is given up as failed (its body is then cleared). */
    SMS_MAX_ATTEMPTS: z.coerce.number().int().positive().default(10),
    /**
     * The outbox's wait before trying a failed SMS again, seconds; it doubles with each try made (at
     * most an hour): with the defaults the last of 10 tries comes about half an hour after the first.
     */
    SMS_RETRY_AFTER_SECONDS: z.coerce.number().int().positive().default(5),
    /** The device policy controller APK and its signing certificate checksum (URL-safe base64 SHA-256). */
    /**
     * Wi-Fi a factory-reset phone joins before it downloads the DPC (Android
     * EXTRA_PROVISIONING_WIFI_*): none unless the SSID is set.
     */
    PROVISIONING_WIFI_SSID: z.string().min(1).max(32).optional(),
    PROVISIONING_WIFI_PASSWORD: z.string().min(1).max(63).optional(),
    PROVISIONING_WIFI_SECURITY_TYPE: z.enum(['NONE', 'WPA', 'WEP', 'EAP']).default('WPA'),
    PROVISIONING_WIFI_HIDDEN: ZBooleanFlag.default(false),
    DPC_COMPONENT_NAME: z.string().default('in.kisht.dpc/.KishtDeviceAdminReceiver'),
    DPC_DOWNLOAD_URL: z.string().url().optional(),
    DPC_SIGNATURE_CHECKSUM: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'URL-safe base64 SHA-256 (43 characters, no padding)')
      .default(DEVELOPMENT_DPC_SIGNATURE_CHECKSUM),
    /**
     * The link-based app's APK (issue 15, docs/enrolment.md): where the deep link's "Install the
     * Kisht app" points. LINK_APP_DOWNLOAD_URL: a URL elsewhere (a CDN, a store page); else the
     * server's /emm/linkflapk, which serves LINK_APP_APK_FILE (a path on the server) when set, and
     * otherwise a clearly named plain-text placeholder (a demo server has no signed build).
     */
    LINK_APP_DOWNLOAD_URL: z.string().url().optional(),
    LINK_APP_APK_FILE: z.string().min(1).optional(),
    /**
     * Wake-up pushes through Firebase Cloud Messaging (device protocol §14): the path of the
     * Firebase service account JSON key (project_id, client_email, private_key, token_uri). Absent:
     * no pushes; a dozing phone gets its policy at its next reconnect.
     */
    FCM_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
    /** The FCM HTTP v1 API's base URL (tests point it at a local fake). */
    FCM_API_URL: z.string().url().default('https://fcm.googleapis.com'),
    /**
     * Google's Android Management API for managed-Android phones (device_type 1;
     * docs/android-management.md): the base URL (tests point it at a local fake).
     */
    AMAPI_API_URL: z.string().url().default('https://androidmanagement.googleapis.com'),
    /**
     * The enterprise Kisht manages phones in, `enterprises/{id}` (from enterprises.create). Absent:
     * managed Android is off and its enrolment QR answers 503 MDM_UNAVAILABLE.
     */
    AMAPI_ENTERPRISE_NAME: z
      .string()
      .regex(/^enterprises\/[A-Za-z0-9_-]+$/, 'enterprises/{enterpriseId}')
      .optional(),
    /**
     * Path of the Google Cloud service account JSON key with the Android Management API enabled
     * (scope https://www.googleapis.com/auth/androidmanagement). Managed Android needs this or
     * AMAPI_ACCESS_TOKEN beside AMAPI_ENTERPRISE_NAME.
     */
    AMAPI_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
    /**
     * A fixed OAuth bearer token instead of the service account (tests and a local fake only: real
     * tokens expire within the hour). Refused in production.
     */
    AMAPI_ACCESS_TOKEN: z.string().min(1).optional(),
    /** How long one Android Management API request may take, ms. */
    AMAPI_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    /**
     * Load shedding (plugins/load-shedding.ts): past this many requests in hand a new request
     * answers 503 at once; 0 turns the check off. Absent: 64, or 0 under NODE_ENV=test, where a
     * busy shared CI machine must not shed a test's requests.
     */
    LOAD_SHED_MAX_IN_FLIGHT: z.coerce.number().int().min(0).optional(),
    /** …or while the event loop's mean delay is over this many ms. Absent: 1000, or 0 under test. */
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).optional(),
    /** How often the event loop is sampled for load shedding, ms. */
    LOAD_SHED_SAMPLE_INTERVAL_MS: z.coerce.number().int().min(10).default(1000),
    /** Hours between ANALYZE runs of the embedded database (it has no autovacuum); 0 turns them off. */
    PGLITE_ANALYZE_INTERVAL_HOURS: z.coerce.number().min(0).default(6),
    /** Minutes between runs of the periodic jobs (EMIs maturing); 0 turns them off. */
    JOBS_INTERVAL_MINUTES: z.coerce.number().min(0).default(60),
    /**
     * Seed the demo organisations (known logins) on start when the database is empty. Absent: on
     * outside production. Refused in production.
     */
    SEED_DEMO: ZBooleanFlag.optional(),
    /**
     * The job clock (modules/job-clock): POST paths.jobClock.run runs a periodic job as if it were
     * a given instant (the debit of a due date, the reminders and the ladder after grace), for
     * journeys and demos that cannot wait for the calendar. Off by default; refused in production.
     */
    JOB_CLOCK: ZBooleanFlag.default(false),
    /**
     * Requests one partner API key may make per minute on one server process (docs/partner-api.md);
     * more answer 429 with Retry-After.
     */
    PARTNER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(PARTNER_RATE_LIMIT_PER_MINUTE),
    WEB_DIST_DIR: z.string().optional(),
    /**
     * HDB Financial Services' customer API (docs/financers.md): base URL of the hand-off of HDB
     * customers. Absent outside production: an in-process fake HDB on an ephemeral port; absent in
     * production: hand-offs stay pending (and are reported in the log).
     */
    HDB_API_URL: z.string().url().optional(),
    /** The API key HDB issued to the organisation, sent as the x-api-key header. */
    HDB_API_KEY: z.string().min(8).optional(),
    /**
     * Sign in with Google (OpenID Connect, docs/google-sign-in.md): the issuer whose discovery
     * document is read. Tests point it at a local provider; an http issuer is refused in production.
     */
    GOOGLE_OIDC_ISSUER: z.string().url().default('https://accounts.google.com'),
    /** The OAuth client id; absent: Google sign-in is off (the login page hides its button). */
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /**
     * The web app's public origin (https://kisht.example.in): the redirect URI registered with
     * Google is PUBLIC_BASE_URL + /api/auth/oauth/callback, and the callback sends the browser back
     * to PUBLIC_BASE_URL + /login. Absent: PUBLIC_URL, else the request's own origin.
     */
    PUBLIC_BASE_URL: z.string().url().optional(),
    /**
     * The payment gateway (Razorpay model, docs/payment-gateway.md): the API key id (public, handed
     * to the checkout) and secret (Basic auth of the Orders API, and the key of razorpay_signature).
     * Absent outside production: an in-process fake gateway on an ephemeral port; absent in
     * production: online payments answer 503 PAYMENT_GATEWAY_UNAVAILABLE.
     */
    RAZORPAY_KEY_ID: z.string().min(1).optional(),
    RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
    /** The secret of the gateway's webhook (X-Razorpay-Signature = HMAC-SHA256 of the raw body). */
    RAZORPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** The Orders API's base URL (tests point it at the fake gateway). */
    RAZORPAY_API_URL: z.string().url().default('https://api.razorpay.com'),
    /** The checkout script the web app loads (Razorpay Checkout: window.Razorpay). */
    RAZORPAY_CHECKOUT_URL: z.string().url().default('https://checkout.razorpay.com/v1/checkout.js'),
    /**
     * Apple devices through NanoMDM (issue 15, docs/apple.md): the base URL of NanoMDM's API
     * (`{NANOMDM_URL}/v1/enqueue/{udid}`, `/v1/push/{udid}`). Absent: no Apple bridge; the Apple
     * enrolment QR answers 503 MDM_UNAVAILABLE. When set, NANOMDM_API_KEY, APPLE_MDM_TOPIC,
     * APPLE_MDM_SERVER_URL, APPLE_SCEP_URL and APPLE_SCEP_CHALLENGE are required too.
     */
    NANOMDM_URL: z.string().url().optional(),
    /** NanoMDM's `-api` key: the password of its API's Basic auth (user `nanomdm`). */
    NANOMDM_API_KEY: z.string().min(1).optional(),
    /**
     * NanoMDM's `-webhook-hmac-key`: its webhook's X-Hmac-Signature (base64 HMAC-SHA256 of the
     * body) is checked with it. Required in production when NANOMDM_URL is set.
     */
    NANOMDM_WEBHOOK_SECRET: z.string().min(16).optional(),
    /** How long one NanoMDM API call may take, ms. */
    NANOMDM_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    /**
     * NanoMDM posts each webhook once and never again (issue 27): an Apple command still `sent` this
     * long after it went to NanoMDM, ms, is taken as a lost report and enqueued again, and the phone
     * asked for its state; an iPhone tied to its customer (Authenticate) but not enrolled this long
     * is asked too, and its answer finishes the enrolment (a lost TokenUpdate). Default 10 minutes.
     */
    NANOMDM_RECONCILE_AFTER_MS: z.coerce.number().int().positive().default(600_000),
    /** The APNs push topic of the MDM push certificate (com.apple.mgmt.External.…), the profile's Topic. */
    APPLE_MDM_TOPIC: z.string().min(1).optional(),
    /** NanoMDM's public MDM endpoint (https://mdm.example.in/mdm): the profile's ServerURL and CheckInURL. */
    APPLE_MDM_SERVER_URL: z.string().url().optional(),
    /** The SCEP server that issues the phone's MDM identity certificate (micromdm/scep), and its challenge. */
    APPLE_SCEP_URL: z.string().url().optional(),
    APPLE_SCEP_CHALLENGE: z.string().min(1).optional(),
    /** The enrolment profile's PayloadIdentifier (its MDM payload appends `.mdm`); unclaim removes it. */
    APPLE_MDM_PROFILE_IDENTIFIER: z.string().min(1).default('in.kisht.mdm.enrolment'),
    /** install_apple_onemodapp: an in-house app's https manifest URL (InstallApplication ManifestURL)… */
    APPLE_ONE_MODE_APP_MANIFEST_URL: z
      .string()
      .url()
      .refine((url) => url.startsWith('https://'), 'Apple requires an https manifest URL')
      .optional(),
    /** …or its App Store id (InstallApplication iTunesStoreID). */
    APPLE_ONE_MODE_APP_ITUNES_ID: z.coerce.number().int().positive().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((config, ctx) => {
    if (config.NANOMDM_URL) {
      for (const key of [
        'NANOMDM_API_KEY',
        'APPLE_MDM_TOPIC',
        'APPLE_MDM_SERVER_URL',
        'APPLE_SCEP_URL',
        'APPLE_SCEP_CHALLENGE',
      ] as const) {
        if (!config[key]) {
          ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required with NANOMDM_URL` });
        }
      }
      if (config.NODE_ENV === 'production' && !config.NANOMDM_WEBHOOK_SECRET) {
        ctx.addIssue({
          code: 'custom',
          path: ['NANOMDM_WEBHOOK_SECRET'],
          message: "NANOMDM_WEBHOOK_SECRET must be set in production (NanoMDM's -webhook-hmac-key)",
        });
      }
    }
    if (config.MQTT_BROKER_AUTH === 'hooks' && !config.BROKER_HOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['BROKER_HOOK_SECRET'],
        message:
          'MQTT_BROKER_AUTH=hooks needs BROKER_HOOK_SECRET, the bearer token the broker sends to the auth hooks',
      });
    }
    if (config.NODE_ENV !== 'production') return;
    if (config.MQTT_BROKER_AUTH === 'external') {
      for (const key of ['MQTT_PROBE_DEVICE_ID', 'MQTT_PROBE_DEVICE_SECRET'] as const) {
        if (config[key]) continue;
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `MQTT_BROKER_AUTH=external needs ${key}: an enrolled phone's credentials, with which the server checks at start that the broker keeps one phone from another's commands`,
        });
      }
    }
    if (config.JOB_CLOCK) {
      ctx.addIssue({
        code: 'custom',
        path: ['JOB_CLOCK'],
        message: 'JOB_CLOCK runs the jobs at any instant anyone names; it is refused in production',
      });
    }
    if (config.SEED_DEMO) {
      ctx.addIssue({
        code: 'custom',
        path: ['SEED_DEMO'],
        message: 'SEED_DEMO seeds demo logins anyone can use; it is refused in production',
      });
    }
    for (const key of ['JWT_SECRET', 'OTP_PEPPER'] as const) {
      if (config[key].startsWith('development-only')) {
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} must be set in production` });
      }
    }
    // A provisioning QR must name the real DPC: where to download it and its signing certificate.
    if (!config.DPC_DOWNLOAD_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DPC_DOWNLOAD_URL'],
        message: 'DPC_DOWNLOAD_URL must be set in production (the https URL of the DPC APK)',
      });
    } else if (new URL(config.DPC_DOWNLOAD_URL).protocol !== 'https:') {
      // A device-owner phone installs whatever answers this URL: over http anyone on the path could
      // swap the APK (its checksum would then refuse it, and the shop's enrolment would fail).
      ctx.addIssue({
        code: 'custom',
        path: ['DPC_DOWNLOAD_URL'],
        message: 'DPC_DOWNLOAD_URL must be an https URL in production',
      });
    }
    if (config.DPC_SIGNATURE_CHECKSUM === DEVELOPMENT_DPC_SIGNATURE_CHECKSUM) {
      ctx.addIssue({
        code: 'custom',
        path: ['DPC_SIGNATURE_CHECKSUM'],
        message:
          "DPC_SIGNATURE_CHECKSUM must be set in production (URL-safe base64 SHA-256 of the DPC's signing certificate)",
      });
    }
    if (config.AMAPI_ACCESS_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['AMAPI_ACCESS_TOKEN'],
        message:
          'AMAPI_ACCESS_TOKEN is for tests; in production set AMAPI_SERVICE_ACCOUNT_FILE (docs/android-management.md)',
      });
    }
    if (config.SMS_PROVIDER === 'webhook' && !config.SMS_WEBHOOK_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_WEBHOOK_URL'],
        message: 'SMS_WEBHOOK_URL must be set in production',
      });
    }
    if (config.WHATSAPP_PROVIDER === 'cloud') {
      for (const key of WHATSAPP_REQUIRED_KEYS) {
        if (!config[key]) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `${key} must be set in production with WHATSAPP_PROVIDER=cloud`,
          });
        }
      }
    }
    if (config.SMS_PROVIDER === 'msg91') {
      // Indian operators drop an SMS without its DLT header and template (docs/sms.md).
      for (const key of MSG91_REQUIRED_KEYS) {
        if (!config[key]) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `${key} must be set in production with SMS_PROVIDER=msg91`,
          });
        }
      }
      if (new URL(config.MSG91_API_URL).protocol !== 'https:') {
        ctx.addIssue({
          code: 'custom',
          path: ['MSG91_API_URL'],
          message: 'MSG91_API_URL must be an https URL in production (it carries the auth key)',
        });
      }
    }
    // Unless something is known to check devices, a client that reaches the broker may read any
    // device's commands or forge its events. MQTT_BROKER_AUTH=hooks without the secret is refused above.
    if (config.MQTT_URL && !config.MQTT_BROKER_AUTH && !config.BROKER_HOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['MQTT_BROKER_AUTH'],
        message:
          "MQTT_URL is an external broker: set BROKER_HOOK_SECRET (Kisht's broker auth hooks) or MQTT_BROKER_AUTH=external (the broker authenticates devices itself)",
      });
    }
  })
  .transform(
    ({
      SEED_DEMO,
      OTP_DAILY_LIMIT_PER_MOBILE,
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS,
      LOAD_SHED_MAX_IN_FLIGHT,
      ...config
    }) => {
      const isTest = config.NODE_ENV === 'test';
      return {
        ...config,
        SEED_DEMO: SEED_DEMO ?? config.NODE_ENV !== 'production',
        OTP_DAILY_LIMIT_PER_MOBILE:
          OTP_DAILY_LIMIT_PER_MOBILE ?? (config.NODE_ENV === 'development' ? 100 : 10),
        LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS ?? (isTest ? 0 : 1000),
        LOAD_SHED_MAX_IN_FLIGHT: LOAD_SHED_MAX_IN_FLIGHT ?? (isTest ? 0 : 64),
      };
    },
  );

export type TConfig = z.infer<typeof ZConfig>;

/** Parses configuration from an environment-like record. Throws with every bad key named. */
export const loadConfig = (env: Record<string, string | undefined> = process.env): TConfig => {
  const result = ZConfig.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return result.data;
};
