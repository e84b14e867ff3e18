import { buildRequestToken, readAuthSession } from '@kisht/domain/client/client-headers';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TBaseQuery, TRequestContext } from './base-query';
import { createBaseQuery, DEFAULT_ERROR_MESSAGE, fileRequest, SESSION_GONE_STATUS } from './base-query';

const BASE_URL = 'http://kisht.test';
const SECRET = 'test-request-token-secret';
const CONTEXT: TRequestContext = { baseUrl: BASE_URL, orgId: 41, requestTokenSecret: SECRET };
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36';

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
  /** Queues a response of any kind (a CSV file). */
  const replyWith = (response: () => Response) => responses.push(response);
  return { fetchFn, requests, reply, replyWith };
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
      getContext: () => CONTEXT,
      userAgent: () => ANDROID_CHROME,
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

  it('sends every spec §7 client header, signed for the request path', async () => {
    localStorage.setItem('token', 'jwt-123');
    localStorage.setItem('deviceDetails', '{"model":"Galaxy A54","os":"android"}');
    network.reply(200, { response: 'success', message: 'ok', data: null });
    const before = Date.now();
    await baseQuery(
      { url: '/api/customer/get_customers_qrCode', params: { customer_id: 5 } },
      queryApi(),
      {},
    );
    const request = network.requests[0];
    if (!request) throw new Error('no request sent');
    expect(request.url).toBe(`${BASE_URL}/api/customer/get_customers_qrCode?customer_id=5`);
    const headers = request.headers;
    expect(headers.get('authorization')).toBe('Bearer jwt-123');
    expect(headers.get('platform')).toBe('mobile');
    expect(headers.get('device-details')).toBe('{"model":"Galaxy A54","os":"android"}');
    expect(headers.get('browser-name')).toBe('Chrome');
    expect(headers.get('browser-version')).toBe('126.0.6478.122');
    expect(headers.get('device-type')).toBe('mobile');
    expect(headers.get('device-platform')).toBe('android');

    const authSession = headers.get('auth-session') ?? '';
    const timestamp = await readAuthSession('/api/customer/get_customers_qrCode', authSession);
    expect(timestamp).not.toBeNull();
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Date.now());
    // Made for this path only.
    expect(await readAuthSession('/api/customer', authSession)).toBeNull();

    expect(headers.get('request-token')).toBe(
      await buildRequestToken({ orgId: 41, path: '/api/customer/get_customers_qrCode', secret: SECRET }),
    );
  });

  it('leaves out device-details when none are stored, and request-token until the secret is known', async () => {
    const unsigned = createBaseQuery({
      getContext: () => ({ ...CONTEXT, requestTokenSecret: null }),
      fetchFn: network.fetchFn,
      userAgent: () => '',
    });
    network.reply(200, { response: 'success', message: 'ok', data: null });
    await unsigned('/api/organizations/get_org_app_config', queryApi(), {});
    const headers = network.requests[0]?.headers;
    expect(headers?.has('device-details')).toBe(false);
    expect(headers?.has('request-token')).toBe(false);
    expect(headers?.get('auth-session')).toMatch(/^[0-9a-f]{32}:[0-9a-f]+$/);
    expect(headers?.get('device-platform')).toBe('unknown');
  });

  it("sends each call to the context's base URL at the time of the call", async () => {
    let baseUrl = 'http://first.test';
    const moving = createBaseQuery({
      getContext: () => ({ ...CONTEXT, baseUrl }),
      fetchFn: network.fetchFn,
    });
    network.reply(200, { response: 'success', message: 'ok', data: null });
    network.reply(200, { response: 'success', message: 'ok', data: null });
    await moving('/api/x', queryApi(), {});
    baseUrl = 'https://api.shree.test/';
    await moving('/api/x', queryApi(), {});
    expect(network.requests.map((request) => request.url)).toEqual([
      'http://first.test/api/x',
      'https://api.shree.test/api/x',
    ]);
  });

  it("uses the app's own origin when the base URL is empty", async () => {
    const sameOrigin = createBaseQuery({
      getContext: () => ({ ...CONTEXT, baseUrl: '' }),
      fetchFn: network.fetchFn,
    });
    network.reply(200, { response: 'success', message: 'ok', data: null });
    await sameOrigin('/api/x', queryApi(), {});
    expect(network.requests[0]?.url).toBe(`${window.location.origin}/api/x`);
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
      getContext: () => CONTEXT,
      fetchFn: network.fetchFn,
      fallbackMessage: () => 'Kuch galat ho gaya',
    });
    network.reply(404, {});
    const result = await translated('/api/x', queryApi(), {});
    expect(result.error?.message).toBe('Kuch galat ho gaya');
  });

  it("shows an error code's message in the user's language, else the server's (issue 28)", async () => {
    const translated = createBaseQuery({
      getContext: () => CONTEXT,
      fetchFn: network.fetchFn,
      codeMessage: (code) => (code === 'NO_KEYS' ? 'इस प्रकार की कोई की नहीं बची।' : null),
    });
    network.reply(409, {
      response: 'failure',
      message: 'No keys left',
      code: 'NO_KEYS',
      data: null,
      fields: [{ field: 'appType', message: 'No keys left' }],
    });
    expect((await translated('/api/x', queryApi(), {})).error).toMatchObject({
      message: 'इस प्रकार की कोई की नहीं बची।',
      code: 'NO_KEYS',
      fields: [{ field: 'appType', message: 'इस प्रकार की कोई की नहीं बची।' }],
    });
    network.reply(409, { response: 'failure', message: 'Server words', code: 'SOMETHING_NEW', data: null });
    expect((await translated('/api/x', queryApi(), {})).error?.message).toBe('Server words');
  });

  it('turns a network failure into an error with the fallback message', async () => {
    const result = await baseQuery('/api/x', queryApi(), {});
    expect(result.error).toMatchObject({ status: 'FETCH_ERROR', message: DEFAULT_ERROR_MESSAGE });
  });

  it('says the network failed, not that something went wrong, when given an offline message (issue 12)', async () => {
    const translated = createBaseQuery({
      getContext: () => CONTEXT,
      fetchFn: network.fetchFn,
      fallbackMessage: () => 'Something went wrong',
      offlineMessage: () => 'You are offline',
    });
    expect((await translated('/api/x', queryApi(), {})).error).toMatchObject({
      status: 'FETCH_ERROR',
      message: 'You are offline',
    });
    network.reply(500, {});
    expect((await translated('/api/x', queryApi(), {})).error?.message).toBe('Something went wrong');
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

  it('leaves storage alone on a 511 answering a call made before a logout (that session is gone already)', async () => {
    localStorage.setItem('token', 'jwt-old');
    localStorage.setItem('phone', '+919876543211');
    // The person logs out while the call is on its way: the token goes, the phone stays.
    network.replyWith(() => {
      localStorage.removeItem('token');
      return new Response(JSON.stringify({ response: 'failure', message: 'Session expired', data: null }), {
        status: SESSION_GONE_STATUS,
        headers: { 'content-type': 'application/json' },
      });
    });
    const result = await baseQuery('/api/customer', queryApi(), {});
    expect(result.error?.status).toBe(SESSION_GONE_STATUS);
    expect(localStorage.getItem('phone')).toBe('+919876543211');
    expect(sessionGoneCalls).toBe(0);
  });

  it('does not clear storage on other failures', async () => {
    localStorage.setItem('token', 'jwt-123');
    network.reply(401, { response: 'failure', message: 'Nope', code: 'FORBIDDEN', data: null });
    await baseQuery('/api/customer', queryApi(), {});
    expect(localStorage.getItem('token')).toBe('jwt-123');
    expect(sessionGoneCalls).toBe(0);
  });

  describe('file requests (CSV exports)', () => {
    const CSV = 'No.,Due date,Amount\n1,05-01-2026,8814.86\n';
    const csvResponse = () =>
      new Response(CSV, { status: 200, headers: { 'Content-Type': 'text/csv; charset=utf-8' } });

    /** The headers of a request as a plain object, minus the per-request auth-session. */
    const stableHeaders = (request: Request | undefined) => {
      const entries = [...(request?.headers.entries() ?? [])].filter(
        ([name]) => name !== 'auth-session' && name !== 'accept' && name !== 'content-type',
      );
      return Object.fromEntries(entries);
    };

    it('sends the same spec §7 headers as an API call, and resolves to the file text', async () => {
      localStorage.setItem('token', 'jwt-123');
      localStorage.setItem('deviceDetails', '{"model":"Galaxy A54","os":"android"}');
      network.reply(200, { response: 'success', message: 'ok', data: null });
      await baseQuery(
        { url: '/api/emi/customer_emi_details/csv', params: { customer_id: 5 } },
        queryApi(),
        {},
      );
      network.replyWith(csvResponse);
      const result = await baseQuery(
        fileRequest('/api/emi/customer_emi_details/csv', { customer_id: 5 }),
        queryApi(),
        {},
      );
      expect(result.error).toBeUndefined();
      expect(result.data).toBe(CSV);

      const [apiCall, fileCall] = network.requests;
      expect(fileCall?.url).toBe(`${BASE_URL}/api/emi/customer_emi_details/csv?customer_id=5`);
      expect(stableHeaders(fileCall)).toEqual(stableHeaders(apiCall));
      expect(fileCall?.headers.get('authorization')).toBe('Bearer jwt-123');
      expect(fileCall?.headers.get('request-token')).toBe(
        await buildRequestToken({ orgId: 41, path: '/api/emi/customer_emi_details/csv', secret: SECRET }),
      );
      expect(
        await readAuthSession(
          '/api/emi/customer_emi_details/csv',
          fileCall?.headers.get('auth-session') ?? '',
        ),
      ).not.toBeNull();
      expect(fileCall?.headers.get('accept')).toBe('text/csv, application/json');
    });

    it("raises the server's failure envelope like any call", async () => {
      network.reply(404, {
        response: 'failure',
        message: 'Customer not found',
        code: 'CUSTOMER_NOT_FOUND',
        data: null,
      });
      const result = await baseQuery(fileRequest('/api/customer/csv', { status: 'all' }), queryApi(), {});
      expect(result.data).toBeUndefined();
      expect(result.error).toMatchObject({
        status: 404,
        message: 'Customer not found',
        code: 'CUSTOMER_NOT_FOUND',
      });
    });

    it('on 511 clears local storage and reports the session gone, like any call', async () => {
      localStorage.setItem('token', 'jwt-123');
      network.reply(SESSION_GONE_STATUS, { response: 'failure', message: 'Session expired', data: null });
      const result = await baseQuery(fileRequest('/api/customer/csv', {}), queryApi(), {});
      expect(result.error?.status).toBe(SESSION_GONE_STATUS);
      expect(localStorage.length).toBe(0);
      expect(sessionGoneCalls).toBe(1);
    });

    it('still unwraps a JSON envelope (a success answer that is not a file is not taken for one)', async () => {
      network.reply(200, { response: 'failure', message: 'Export not allowed', data: null });
      const result = await baseQuery(fileRequest('/api/customer/csv', {}), queryApi(), {});
      expect(result.error?.message).toBe('Export not allowed');
    });
  });
});
