import {
  buildRequestToken,
  CLIENT_HEADERS,
  readAuthSession,
  requestPath,
} from '@kisht/domain/client/client-headers';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TConfig } from '../config';

/** Routes whose callers are devices or tools, not the app: they carry no client headers. */
const EXEMPT_PATHS = new Set<string>([paths.devices.enrol]);
const API_PREFIXES = ['/api/', '/country/', '/emm/', '/micromdm/'];

/**
 * Remembers auth-session values seen inside the window, so a replayed header is refused. One
 * process's memory: with several API processes a replay could land on another one; acceptable
 * because these headers are not where security lives (design §3, §6).
 */
export class SeenValues {
  private readonly expiries = new Map<string, number>();

  constructor(private readonly ttlMs: number) {}

  /** Records the value; false when it was already seen and has not expired. */
  remember(value: string, nowMs: number): boolean {
    const expiry = this.expiries.get(value);
    if (expiry !== undefined && expiry > nowMs) return false;
    this.expiries.set(value, nowMs + this.ttlMs);
    if (this.expiries.size > 10_000) this.prune(nowMs);
    return true;
  }

  private prune(nowMs: number): void {
    for (const [value, expiry] of this.expiries) if (expiry <= nowMs) this.expiries.delete(value);
  }
}

const headerValue = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const isChecked = (request: FastifyRequest): boolean => {
  const path = requestPath(request.url);
  return API_PREFIXES.some((prefix) => path.startsWith(prefix)) && !EXEMPT_PATHS.has(path);
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
  const seen = new SeenValues(2 * windowMs);
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
    if (!seen.remember(value, now)) throw invalidSession('The auth-session header was already used');
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
