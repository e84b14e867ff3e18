import {
  buildRequestToken,
  CLIENT_HEADERS,
  readAuthSession,
  requestPath,
} from '@kisht/domain/client/client-headers';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { TConfig } from '../config';

/** Routes whose callers are devices or tools, not the app: they carry no client headers. */
// The payment gateway's webhook is signed by the gateway (X-Razorpay-Signature), not by our app;
// a plan's code is redeemed by the app on the customer's phone (issue 14); the link-based family's
// deep link page and APK are opened by the phone's browser, and its code exchanged by the app (issue 15).
const EXEMPT_PATHS = new Set<string>([
  paths.devices.enrol,
  paths.payments.webhook,
  paths.plans.redeem,
  paths.emm.exchangeCode,
  paths.emm.linkApk,
  paths.emm.deepLinkLanding,
  // NanoMDM's webhook (X-Hmac-Signature), issue 15.
  paths.apple.webhook,
  // An advertisement image the phone fetches by its signed address (issue 16).
  paths.advertisements.deviceImage,
]);
/** Exempt path prefixes: the Apple enrolment profiles Safari on the iPhone opens (issue 15). */
const EXEMPT_PREFIXES = [paths.apple.enrolmentProfilePrefix];
const API_PREFIXES = ['/api/', '/country/', '/emm/', '/micromdm/'];

/**
 * Most auth-session values remembered at once. Beyond it the least recently seen value is
 * forgotten before its time to live, so its replay would pass: 100,000 is far above what one
 * process serves in a window (~330 requests a second for 5 minutes) and bounds the memory to
 * well under 20 MB (values are ~65 characters).
 */
export const SEEN_VALUES_MAX = 100_000;

/**
 * Remembers auth-session values seen inside the window, so a replayed header is refused. One
 * process's memory: with several API processes a replay could land on another one; acceptable
 * because these headers are not where security lives (design §3, §6). An LRU cache with a time to
 * live: ttlMs in ms, at most `max` values; `now` (ms, monotonic, never 0) replaces the clock in tests.
 */
export class SeenValues {
  private readonly values: LRUCache<string, true>;

  constructor({ ttlMs, max = SEEN_VALUES_MAX, now }: { ttlMs: number; max?: number; now?: () => number }) {
    this.values = new LRUCache<string, true>({
      max,
      ttl: ttlMs,
      // Read the clock on every check rather than caching it for a millisecond: one call a request.
      ttlResolution: 0,
      ...(now ? { perf: { now } } : {}),
    });
  }

  /** Records the value; false when it was already seen and has not expired. */
  remember(value: string): boolean {
    if (this.values.has(value)) return false;
    this.values.set(value, true);
    return true;
  }

  /** How many values are remembered (expired ones may count until they are next looked up or pushed out). */
  get size(): number {
    return this.values.size;
  }
}

const headerValue = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const isChecked = (request: FastifyRequest): boolean => {
  const path = requestPath(request.url);
  return (
    API_PREFIXES.some((prefix) => path.startsWith(prefix)) &&
    !EXEMPT_PATHS.has(path) &&
    !EXEMPT_PREFIXES.some((prefix) => path.startsWith(prefix))
  );
};

/** The organisation a request acts for: the session's, else the body's orgId or the query's org_id. */
const requestOrgId = (request: FastifyRequest): number | null => {
  if (request.actor) return request.actor.orgId;
  const body = request.body as { orgId?: unknown } | undefined;
  if (typeof body?.orgId === 'number') return body.orgId;
  const query = request.query as { org_id?: unknown } | undefined;
  const fromQuery = Number(query?.org_id);
  return Number.isInteger(fromQuery) && fromQuery > 0 ? fromQuery : null;
};

/**
 * Verifies the client headers of spec §7 on API calls: an auth-session header must decrypt for the
 * request path to a timestamp within ±AUTH_SESSION_WINDOW_SECONDS and must not be a replay; a
 * request-token header must match the organisation and path. Missing headers are accepted unless
 * AUTH_SESSION_REQUIRED. Failures answer 400 AUTH_SESSION_INVALID or REQUEST_TOKEN_INVALID.
 */
export const registerClientContract = (app: FastifyInstance, config: TConfig): void => {
  const windowMs = config.AUTH_SESSION_WINDOW_SECONDS * 1000;
  // A header is accepted up to windowMs either side of its timestamp, so it stays replayable for
  // up to twice the window after it was first seen.
  const seen = new SeenValues({ ttlMs: 2 * windowMs });
  const invalidSession = (reason: string) => new AppError(AppErrorCode.AUTH_SESSION_INVALID, reason);

  app.addHook('onRequest', async (request) => {
    if (!isChecked(request)) return;
    const value = headerValue(request, CLIENT_HEADERS.authSession);
    if (!value) {
      if (config.AUTH_SESSION_REQUIRED) throw invalidSession('The auth-session header is missing');
      return;
    }
    const timestamp = await readAuthSession(requestPath(request.url), value);
    if (timestamp === null) throw invalidSession('The auth-session header is not valid for this request');
    const now = Date.now();
    if (Math.abs(now - timestamp) > windowMs) {
      throw invalidSession("The auth-session header is outside the time window; check the device's clock");
    }
    if (!seen.remember(value)) throw invalidSession('The auth-session header was already used');
  });

  app.addHook('preHandler', async (request) => {
    if (!isChecked(request)) return;
    const token = headerValue(request, CLIENT_HEADERS.requestToken);
    const orgId = requestOrgId(request);
    if (!token || orgId === null) return;
    const expected = await buildRequestToken({
      orgId,
      path: request.url,
      secret: config.REQUEST_TOKEN_SECRET,
    });
    if (token !== expected) {
      throw new AppError(
        AppErrorCode.REQUEST_TOKEN_INVALID,
        'The request token does not match this organisation and path',
      );
    }
  });
};
