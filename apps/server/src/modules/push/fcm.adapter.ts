import { importPKCS8, SignJWT } from 'jose';
import pRetry, { AbortError } from 'p-retry';
import { z } from 'zod';
import type { TPushGateway, TWakeResult } from './push.service';

/**
 * Firebase Cloud Messaging HTTP v1 (https://firebase.google.com/docs/cloud-messaging/send-message):
 * `POST {apiUrl}/v1/projects/{project_id}/messages:send` with an OAuth 2.0 access token of the
 * project's service account, got by the JWT bearer grant (RFC 7523) at the key's `token_uri`.
 * The service account JSON is the file Firebase gives (Project settings → Service accounts).
 */
export const ZServiceAccount = z.object({
  project_id: z.string().min(1),
  client_email: z.string().min(3),
  /** PEM, PKCS#8 RSA private key. */
  private_key: z.string().min(1),
  token_uri: z.string().url(),
});
export type TServiceAccount = z.infer<typeof ZServiceAccount>;

/** The only OAuth scope sending needs. */
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/** How long one HTTP call may take, ms; then it counts as failed and is retried. */
const CALL_TIMEOUT_MS = 10_000;

/** An FCM error that says the registration token is dead (uninstalled app, expired token). */
const isUnregistered = (status: number, body: string) =>
  status === 404 || (status === 400 && /UNREGISTERED|registration-token-not-registered/.test(body));

/**
 * An FCM error that says this token will never work for Kisht's sender (FCM's ErrorCode
 * reference): 403 SENDER_ID_MISMATCH (the token belongs to another Firebase project), or a 400
 * INVALID_ARGUMENT whose detail is FCM's own (`FcmError`: a malformed or truncated token), not a
 * field of our message (`BadRequest`, our bug: thrown, the token kept). Retrying it is useless.
 */
const isRejectedToken = (status: number, body: string) =>
  status === 403 || (status === 400 && /FcmError|registration token/i.test(body));

/** An FCM error answer (google.rpc.Status): its status and details, one of them FCM's own FcmError. */
const ZFcmErrorBody = z.object({
  error: z.object({
    status: z.string().optional(),
    details: z.array(z.object({ errorCode: z.string().optional() })).optional(),
  }),
});

/**
 * FCM's name for the error of an answer, for the audit log (issue 27): the `errorCode` of its
 * FcmError detail (`SENDER_ID_MISMATCH`, `UNREGISTERED`, `INVALID_ARGUMENT`, …), else the
 * error's `status` (`PERMISSION_DENIED`, `NOT_FOUND`), else `HTTP <status>` for a body that names
 * neither. At most 64 characters.
 */
export const fcmErrorOf = (status: number, body: string): string => {
  let parsed: ReturnType<typeof ZFcmErrorBody.safeParse> | undefined;
  try {
    parsed = ZFcmErrorBody.safeParse(JSON.parse(body));
  } catch {
    parsed = undefined;
  }
  const error = parsed?.success ? parsed.data.error : undefined;
  const named = error?.details?.find((detail) => detail.errorCode)?.errorCode ?? error?.status;
  return (named || `HTTP ${status}`).slice(0, 64);
};

/** The longest pause a Retry-After may impose on wake-ups, ms (a wake-up is worth ten minutes). */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/** A Retry-After header (delay-seconds or an HTTP date) as ms from now, capped; null when absent or unreadable. */
export const retryAfterMs = (header: string | null, now = Date.now()): number | null => {
  if (!header) return null;
  const ms = /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
};

/**
 * The FCM gateway: a high-priority data message `{ kind: 'wake', deviceId }` (collapse key
 * `kisht-wake`, 10 minutes to live: a wake-up older than that is worth nothing) to the token.
 * Access tokens are reused until a minute before they expire. 429 and 5xx answers and network
 * errors are retried 3 times with backoff (p-retry), except that an answer with `Retry-After`
 * pauses every wake-up until then (thrown at once, no request, while paused); a dead token
 * answers `unregistered`, a token FCM will never take for this sender (400 with FCM's detail, 403)
 * `rejected`, each with FCM's error code (fcmErrorOf); any other 4xx throws at once.
 */
export const createFcmGateway = (options: {
  serviceAccount: TServiceAccount;
  apiUrl: string;
  fetch?: typeof fetch;
  retryMinTimeoutMs?: number;
}): TPushGateway => {
  const { serviceAccount } = options;
  const fetchFn = options.fetch ?? fetch;
  let token: { value: string; expiresAt: number } | undefined;

  const accessToken = async (): Promise<string> => {
    if (token && token.expiresAt - 60_000 > Date.now()) return token.value;
    const key = await importPKCS8(serviceAccount.private_key, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(serviceAccount.client_email)
      .setAudience(serviceAccount.token_uri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const response = await fetchFn(serviceAccount.token_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    if (!response.ok) throw httpError('FCM token', response.status, await response.text());
    const body = z
      .object({ access_token: z.string().min(1), expires_in: z.number().positive() })
      .parse(await response.json());
    token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return token.value;
  };

  /** Until when FCM asked us (Retry-After) to send nothing, ms since the epoch. */
  let pausedUntil = 0;
  const send = async (wake: { token: string; deviceId: string }): Promise<TWakeResult> => {
    if (Date.now() < pausedUntil) {
      throw new AbortError(`FCM asked to wait until ${new Date(pausedUntil).toISOString()} (Retry-After)`);
    }
    const response = await fetchFn(
      `${options.apiUrl.replace(/\/$/, '')}/v1/projects/${encodeURIComponent(serviceAccount.project_id)}/messages:send`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          message: {
            token: wake.token,
            data: { kind: 'wake', deviceId: wake.deviceId },
            android: { priority: 'HIGH', ttl: '600s', collapse_key: 'kisht-wake' },
          },
        }),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      },
    );
    const text = await response.text();
    if (response.ok) return { kind: 'sent' };
    if (isUnregistered(response.status, text)) {
      return { kind: 'unregistered', fcmError: fcmErrorOf(response.status, text) };
    }
    if (isRejectedToken(response.status, text)) {
      return { kind: 'rejected', fcmError: fcmErrorOf(response.status, text) };
    }
    if (response.status === 401) token = undefined;
    const wait = retryAfterMs(response.headers.get('retry-after'));
    if (wait !== null && (response.status === 429 || response.status >= 500)) {
      pausedUntil = Date.now() + wait;
      throw new AbortError(httpError('FCM send', response.status, `${text} (Retry-After ${wait} ms)`));
    }
    throw httpError('FCM send', response.status, text);
  };

  return {
    name: 'fcm',
    wake: (wake) =>
      pRetry(() => send(wake), {
        retries: 3,
        minTimeout: options.retryMinTimeoutMs ?? 500,
        // Only what may pass on its own is retried: throttling, server errors, the network.
        shouldRetry: (error) => !(error instanceof AbortError),
      }),
  };
};

/** An Error for an HTTP failure; a 4xx other than 401/408/429 is final (p-retry's AbortError). */
const httpError = (what: string, status: number, body: string): Error => {
  const error = new Error(`${what} answered HTTP ${status}: ${body.slice(0, 200)}`);
  const isFinal = status >= 400 && status < 500 && ![401, 408, 429].includes(status);
  return isFinal ? new AbortError(error) : error;
};
