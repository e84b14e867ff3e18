import pRetry, { AbortError } from 'p-retry';
import { z } from 'zod';
import type { TFinancerCustomer, TFinancerGateway, TFinancerLoan } from './financer.gateway';

/**
 * HDB Financial Services' customer API as this adapter speaks it. HDB's real API is not public;
 * this request shape is ours (docs/financers.md) and is mapped to HDB's contract once it is signed:
 *
 * `POST {apiUrl}/v1/customers`, headers `x-api-key: <HDB_API_KEY>`, `idempotency-key:
 * kisht-{orgId}-{customerId}`, JSON `THdbCreateCustomerBody`; answer 200/201 `{ reference }`.
 */
export const HDB_CREATE_CUSTOMER_PATH = '/v1/customers';

/** The JSON body of HDB's create-customer call (ours until HDB's contract is signed). */
export type THdbCreateCustomerBody = {
  partnerCustomerId: string;
  applicant: {
    firstName: string;
    lastName: string;
    mobile: string;
    email: string | null;
    dateOfBirth: string | null;
    address: TFinancerCustomer['address'];
  };
  device: { imei1: string; imei2: string; model: string };
  /** Integer paise; annual rate in basis points. */
  loan: TFinancerLoan;
};

const ZHdbAnswer = z.object({ reference: z.string().trim().min(1).max(64) });

/** How long one HTTP call may take, ms; then it counts as failed and is retried. */
export const HDB_CALL_TIMEOUT_MS = 8_000;

/** The body HDB gets for one customer and loan. */
export const toHdbBody = ({
  customer,
  loan,
}: {
  customer: TFinancerCustomer;
  loan: TFinancerLoan;
}): THdbCreateCustomerBody => ({
  partnerCustomerId: `${customer.orgId}-${customer.customerId}`,
  applicant: {
    firstName: customer.firstName,
    lastName: customer.lastName,
    mobile: customer.mobile,
    email: customer.email,
    dateOfBirth: customer.dateOfBirth,
    address: customer.address,
  },
  device: { imei1: customer.imei1, imei2: customer.imei2, model: customer.productName },
  loan,
});

/** An Error for an HTTP failure; a 4xx other than 408/429 is final (p-retry's AbortError). */
const httpError = (status: number, body: string): Error => {
  const error = new Error(`HDB answered HTTP ${status}: ${body.slice(0, 200)}`);
  const isFinal = status >= 400 && status < 500 && ![408, 429].includes(status);
  return isFinal ? new AbortError(error) : error;
};

/**
 * The HDB gateway over HTTP (fetch): each call is cut off after timeoutMs (AbortSignal.timeout,
 * default HDB_CALL_TIMEOUT_MS); network errors, timeouts, 408, 429 and 5xx are retried `retries`
 * times (default 2) with exponential back-off from retryMinTimeoutMs (p-retry); any other 4xx
 * throws at once. The idempotency key makes a retry of a call HDB did get harmless.
 */
export const createHdbGateway = (options: {
  apiUrl: string;
  apiKey: string;
  name?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  retries?: number;
  retryMinTimeoutMs?: number;
}): TFinancerGateway => {
  const fetchFn = options.fetch ?? fetch;
  const url = `${options.apiUrl.replace(/\/$/, '')}${HDB_CREATE_CUSTOMER_PATH}`;
  const send = async (request: { customer: TFinancerCustomer; loan: TFinancerLoan }) => {
    const response = await fetchFn(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': options.apiKey,
        'idempotency-key': `kisht-${request.customer.orgId}-${request.customer.customerId}`,
      },
      body: JSON.stringify(toHdbBody(request)),
      signal: AbortSignal.timeout(options.timeoutMs ?? HDB_CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) throw httpError(response.status, text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`HDB answered HTTP ${response.status} without JSON: ${text.slice(0, 200)}`);
    }
    const answer = ZHdbAnswer.safeParse(json);
    if (!answer.success) throw new Error(`HDB answered without a reference: ${text.slice(0, 200)}`);
    return { reference: answer.data.reference };
  };
  return {
    name: options.name ?? 'hdb',
    createCustomer: (request) =>
      pRetry(() => send(request), {
        retries: options.retries ?? 2,
        minTimeout: options.retryMinTimeoutMs ?? 500,
      }),
  };
};
