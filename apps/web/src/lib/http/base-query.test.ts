import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TBaseQuery } from './base-query';
import { createBaseQuery, DEFAULT_ERROR_MESSAGE, SESSION_GONE_STATUS } from './base-query';

const BASE_URL = 'http://kisht.test';

/** A fake network: answers every request with the next queued response and records the requests. */
const createFakeNetwork = () => {
  const requests: Request[] = [];
  const responses: Array<() => Response> = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    requests.push(input instanceof Request ? input : new Request(input, init));
    const next = responses.shift();
    if (!next) throw new TypeError('Failed to fetch');
    return next();
  };
  const reply = (status: number, body: unknown) =>
    responses.push(
      () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );
  return { fetchFn, requests, reply };
};

const queryApi = (): BaseQueryApi => {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    abort: () => controller.abort(),
    dispatch: () => undefined,
    getState: () => ({}),
    extra: undefined,
    endpoint: 'test',
    type: 'query',
  } as BaseQueryApi;
};

describe('createBaseQuery', () => {
  let network: ReturnType<typeof createFakeNetwork>;
  let sessionGoneCalls: number;
  let baseQuery: TBaseQuery;

  beforeEach(() => {
    localStorage.clear();
    network = createFakeNetwork();
    sessionGoneCalls = 0;
    baseQuery = createBaseQuery({
      baseUrl: BASE_URL,
      fetchFn: network.fetchFn,
      onSessionGone: () => {
        sessionGoneCalls += 1;
      },
    });
  });

  it('sends the bearer token when one is stored, and platform: mobile always', async () => {
    localStorage.setItem('token', 'jwt-123');
    network.reply(200, { response: 'success', message: 'ok', data: null });
    await baseQuery('/api/x', queryApi(), {});
    const [request] = network.requests;
    expect(request?.headers.get('Authorization')).toBe('Bearer jwt-123');
    expect(request?.headers.get('platform')).toBe('mobile');
  });

  it('sends no Authorization header without a token', async () => {
    network.reply(200, { response: 'success', message: 'ok', data: null });
    await baseQuery('/api/x', queryApi(), {});
    expect(network.requests[0]?.headers.has('Authorization')).toBe(false);
    expect(network.requests[0]?.headers.get('platform')).toBe('mobile');
  });

  it('unwraps a success envelope to its data', async () => {
    network.reply(200, { response: 'success', message: 'ok', data: { total: 3 } });
    const result = await baseQuery('/api/stats', queryApi(), {});
    expect(result.error).toBeUndefined();
    expect(result.data).toEqual({ total: 3 });
  });

  it('raises a 400 with the server message, code and fields', async () => {
    network.reply(400, {
      response: 'failure',
      message: 'Validation failed',
      code: 'VALIDATION_FAILED',
      fields: [{ field: 'imei1', message: 'IMEI must be 15 digits' }],
      data: null,
    });
    const result = await baseQuery({ url: '/country/x', method: 'POST', body: {} }, queryApi(), {});
    expect(result.data).toBeUndefined();
    expect(result.error).toEqual({
      status: 400,
      message: 'Validation failed',
      code: 'VALIDATION_FAILED',
      fields: [{ field: 'imei1', message: 'IMEI must be 15 digits' }],
    });
  });

  it("raises a failure when response is 'failure' even with HTTP 200 (spec §8)", async () => {
    network.reply(200, { response: 'failure', message: 'Plan not available', data: null });
    const result = await baseQuery('/api/plans', queryApi(), {});
    expect(result.data).toBeUndefined();
    expect(result.error?.message).toBe('Plan not available');
  });

  it("falls back to the data's message when the error has none (spec §8)", async () => {
    network.reply(400, {
      response: 'failure',
      message: '',
      data: { message: 'Please contact admin for prices' },
    });
    const result = await baseQuery('/api/payments', queryApi(), {});
    expect(result.error?.message).toBe('Please contact admin for prices');
  });

  it("falls back to 'Something went wrong' when there is no message at all", async () => {
    network.reply(500, { oops: true });
    const result = await baseQuery('/api/x', queryApi(), {});
    expect(result.error).toMatchObject({
      status: 500,
      message: DEFAULT_ERROR_MESSAGE,
      code: null,
      fields: [],
    });
    expect(DEFAULT_ERROR_MESSAGE).toBe('Something went wrong');
  });

  it('uses the translated fallback message when given one', async () => {
    const translated = createBaseQuery({
      baseUrl: BASE_URL,
      fetchFn: network.fetchFn,
      fallbackMessage: () => 'Kuch galat ho gaya',
    });
    network.reply(404, {});
    const result = await translated('/api/x', queryApi(), {});
    expect(result.error?.message).toBe('Kuch galat ho gaya');
  });

  it('turns a network failure into an error with the fallback message', async () => {
    const result = await baseQuery('/api/x', queryApi(), {});
    expect(result.error).toMatchObject({ status: 'FETCH_ERROR', message: DEFAULT_ERROR_MESSAGE });
  });

  it('on 511 clears all local storage and reports the session gone (spec §8)', async () => {
    localStorage.setItem('token', 'jwt-123');
    localStorage.setItem('user_id', '7');
    localStorage.setItem('language', 'hn');
    network.reply(SESSION_GONE_STATUS, {
      response: 'failure',
      message: 'Session expired',
      code: 'SESSION_INVALID',
      data: null,
    });
    const result = await baseQuery('/api/customer', queryApi(), {});
    expect(result.error?.status).toBe(SESSION_GONE_STATUS);
    expect(localStorage.length).toBe(0);
    expect(sessionGoneCalls).toBe(1);
  });

  it('does not clear storage on other failures', async () => {
    localStorage.setItem('token', 'jwt-123');
    network.reply(401, { response: 'failure', message: 'Nope', code: 'FORBIDDEN', data: null });
    await baseQuery('/api/customer', queryApi(), {});
    expect(localStorage.getItem('token')).toBe('jwt-123');
    expect(sessionGoneCalls).toBe(0);
  });
});
