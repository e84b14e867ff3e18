import { AppError, AppErrorCode } from '@kisht/domain/common/errors';

/**
 * NanoMDM's command API (github.com/micromdm/nanomdm docs/openapi.yaml): the two calls Kisht makes.
 * NanoMDM queues a command for an enrolment id (an iPhone's UDID) and sends the APNs push that makes
 * the phone check in and fetch it; results come back through its webhook (apple-webhook.service).
 */
export type TNanoMdmClient = {
  /**
   * `PUT /v1/enqueue/{udid}` with the command's XML plist as the body (it must hold CommandUUID and
   * Command.RequestType). Resolves once NanoMDM stored it (its push may still have failed: the
   * phone then fetches it at its next check-in). Throws AppError MDM_UNAVAILABLE when NanoMDM cannot
   * be reached, times out, or refuses the command (its command_error in the message).
   */
  enqueue: (udid: string, plistXml: string) => Promise<void>;
  /** `GET /v1/push/{udid}`: asks the phone to check in. Throws AppError MDM_UNAVAILABLE as enqueue. */
  push: (udid: string) => Promise<void>;
};

/** NanoMDM's APIResult (api/types.go): every field optional. */
type TApiResult = {
  status?: Record<string, { push_result?: string; push_error?: string; command_error?: string }>;
  no_push?: boolean;
  push_error?: string;
  command_error?: string;
  command_uuid?: string;
  request_type?: string;
};

/**
 * The NanoMDM client over HTTP (fetch, AbortSignal.timeout). `baseUrl` is NANOMDM_URL, `apiKey` the
 * `-api` key sent as Basic auth with the fixed user `nanomdm`, `timeoutMs` the limit of one call.
 */
export const createNanoMdmClient = (options: {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}): TNanoMdmClient => {
  const base = options.baseUrl.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`nanomdm:${options.apiKey}`).toString('base64')}`;
  const call = async (what: string, url: string, init: RequestInit): Promise<TApiResult> => {
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new AppError(
        AppErrorCode.MDM_UNAVAILABLE,
        `NanoMDM did not answer (${what}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const text = await response.text();
    let result: TApiResult = {};
    try {
      result = text ? (JSON.parse(text) as TApiResult) : {};
    } catch {
      // A proxy's HTML error page: the status says enough.
    }
    if (response.status === 401) {
      throw new AppError(AppErrorCode.MDM_UNAVAILABLE, `NanoMDM refused the API key (${what})`);
    }
    // 200 every id succeeded; 207 some failed; 500 all failed or the request was bad (api/api.go).
    // A push error alone leaves the command stored: the phone fetches it at its next check-in.
    const statuses = Object.values(result.status ?? {});
    const commandErrors = [result.command_error, ...statuses.map((s) => s.command_error)].filter(
      (e): e is string => Boolean(e),
    );
    const pushErrors = [result.push_error, ...statuses.map((s) => s.push_error)].filter((e): e is string =>
      Boolean(e),
    );
    const isStored = commandErrors.length === 0 && (response.status === 200 || pushErrors.length > 0);
    if (what === 'enqueue' ? !isStored : response.status !== 200 || pushErrors.length > 0) {
      const why = [...commandErrors, ...pushErrors].join('; ');
      throw new AppError(
        AppErrorCode.MDM_UNAVAILABLE,
        `NanoMDM ${what} failed (HTTP ${response.status})${why ? `: ${why}` : ''}`,
      );
    }
    return result;
  };
  return {
    enqueue: async (udid, plistXml) => {
      await call('enqueue', `${base}/v1/enqueue/${encodeURIComponent(udid)}`, {
        method: 'PUT',
        headers: { 'content-type': 'text/plain' },
        body: plistXml,
      });
    },
    push: async (udid) => {
      await call('push', `${base}/v1/push/${encodeURIComponent(udid)}`, { method: 'GET' });
    },
  };
};
