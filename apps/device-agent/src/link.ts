import { ZFailure, zEnvelope } from '@kisht/domain/common/envelope';
import {
  DeepLinkError,
  parseDeepLink,
  ZEnrolmentCodeInput,
  ZExchangeEnrolmentCodeResponse,
} from '@kisht/domain/devices/link-enrolment';
import { paths } from '@kisht/domain/paths';

/**
 * The link-based app's ways in (issue 15, docs/enrolment.md): the deep link the shop gave the
 * customer (`https://…/emm/l?org_id=…&token=…`, or the app's `kisht://enrol?server=…&org_id=…&token=…`),
 * or an 8-character enrolment code typed in, exchanged at the server's /emm/generate_code. Both end
 * with a one-time enrolment token and the server URL, which the agent enrols with as from the QR.
 */

/** What the agent enrols with, whichever way it came. */
export type TEnrolmentSource = { enrolmentToken: string; serverUrl: string };

/** A link or code the agent cannot use; `code` is the server's error code, or BAD_LINK / NETWORK / BAD_RESPONSE. */
export class LinkEnrolmentError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LinkEnrolmentError';
  }
}

/**
 * Reads a deep link (either form) into the token and server URL. Throws LinkEnrolmentError
 * (BAD_LINK) with a message a person can act on for anything that is not a Kisht deep link.
 */
export const readDeepLink = (text: string): TEnrolmentSource & { orgId: number } => {
  try {
    const link = parseDeepLink(text);
    return { enrolmentToken: link.token, serverUrl: link.serverUrl, orgId: link.orgId };
  } catch (error) {
    if (error instanceof DeepLinkError) throw new LinkEnrolmentError(error.message, 'BAD_LINK');
    throw error;
  }
};

const ZExchangeEnvelope = zEnvelope(ZExchangeEnrolmentCodeResponse);

/**
 * Exchanges a typed enrolment code of organisation `orgId` at `${serverUrl}/emm/generate_code` (a
 * public call with no client headers: the app on the phone) for a one-time token; the server URL
 * the answer names is the one to enrol with. Throws LinkEnrolmentError: BAD_CODE for a code that
 * is not 8 Crockford letters (nothing sent), the server's code (NOT_FOUND: 'Code not found') when
 * it refuses, NETWORK when it cannot be reached, BAD_RESPONSE for an unexpected answer.
 */
export const exchangeEnrolmentCode = async (options: {
  serverUrl: string;
  orgId: number;
  code: string;
  fetch?: typeof fetch;
}): Promise<TEnrolmentSource> => {
  const code = ZEnrolmentCodeInput.safeParse(options.code);
  if (!code.success) throw new LinkEnrolmentError('the enrolment code is 8 letters and digits', 'BAD_CODE');
  if (!URL.canParse(options.serverUrl)) {
    throw new LinkEnrolmentError(`not a server URL: ${options.serverUrl}`, 'BAD_LINK');
  }
  const url = `${options.serverUrl.replace(/\/+$/, '')}${paths.emm.exchangeCode}`;
  let answer: Response;
  try {
    answer = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ orgId: options.orgId, code: code.data }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new LinkEnrolmentError(`cannot reach ${url}: ${cause}`, 'NETWORK');
  }
  const body: unknown = await answer.json().catch(() => null);
  const failure = ZFailure.safeParse(body);
  if (failure.success || !answer.ok) {
    throw new LinkEnrolmentError(
      `code refused: ${failure.success ? failure.data.message : `HTTP ${answer.status}`}`,
      failure.success ? failure.data.code : 'BAD_RESPONSE',
      answer.status,
    );
  }
  const success = ZExchangeEnvelope.safeParse(body);
  if (!success.success) {
    throw new LinkEnrolmentError(`unexpected answer from ${url}`, 'BAD_RESPONSE', answer.status);
  }
  return {
    enrolmentToken: success.data.data.token,
    serverUrl: success.data.data.serverUrl.replace(/\/+$/, ''),
  };
};
