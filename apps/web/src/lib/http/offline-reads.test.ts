import { configureStore } from '@reduxjs/toolkit';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubIndexedDb } from '../../test/fake-indexeddb';
import type { TBaseQuery, TBaseQueryExtraOptions } from './base-query';
import { createBaseQuery, NEEDS_CONNECTION_CODE, SESSION_GONE_STATUS } from './base-query';
import type { TOfflineReadStore } from './offline-reads';
import {
  clearOfflineReads,
  createIdbReadStore,
  MAX_SAVED_READS,
  offlineReadKey,
  READABLE_OFFLINE,
} from './offline-reads';
import { offlineReadsSlice, selectSavedReadTime } from './offline-reads-slice';

/**
 * Issue 28, offline reading: the answers of the read endpoints that ask for it are saved in
 * IndexedDB under the signed-in user and the request, served with their time when the network
 * does not answer, and forgotten at logout and 511; a change made offline is refused unsent.
 */

const BASE_URL = 'http://kisht.test';
const LIST_PATH = '/api/customer';
const LIST_REQUEST = { url: LIST_PATH, params: { page: 1, pageSize: 20, status: 'all' } };
const LIST_KEY = 'listCustomers({"search":"","status":"all"})';
const PAGE = { items: [{ id: 7, firstName: 'Aarav' }], total: 1, page: 1, pageSize: 20 };
/** 15-01-2026 10:30 AM in India. */
const SAVED_AT = Date.parse('2026-01-15T05:00:00Z');

/** A network that answers from its queue while online and fails as a browser does offline. */
const createNetwork = () => {
  const requests: Request[] = [];
  const answers: Array<() => Response> = [];
  let isOnline = true;
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    requests.push(input instanceof Request ? input : new Request(input, init));
    const answer = answers.shift();
    if (!isOnline || !answer) throw new TypeError('Failed to fetch');
    return answer();
  };
  const reply = (status: number, body: unknown) =>
    answers.push(
      () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    );
  return {
    fetchFn,
    requests,
    reply,
    replyData: (data: unknown) => reply(200, { response: 'success', message: 'ok', data }),
    isOnline: () => isOnline,
    setOnline: (value: boolean) => {
      isOnline = value;
    },
  };
};

const createReduxStore = () => configureStore({ reducer: { offlineReads: offlineReadsSlice.reducer } });

/** What RTK Query hands the base query for one call of an endpoint. */
const callApi = (
  store: ReturnType<typeof createReduxStore>,
  type: BaseQueryApi['type'],
  queryCacheKey?: string,
): BaseQueryApi => {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    abort: () => controller.abort(),
    dispatch: store.dispatch,
    getState: store.getState,
    extra: undefined,
    endpoint: 'test',
    type,
    ...(queryCacheKey ? { queryCacheKey } : {}),
  } as BaseQueryApi;
};

const signIn = (userId: number) => {
  localStorage.setItem('token', `jwt-${userId}`);
  localStorage.setItem('user_id', String(userId));
};

describe('offlineReadKey', () => {
  it('is the user, the path and the sorted parameters: never the base URL', () => {
    expect(
      offlineReadKey(12, { url: LIST_PATH, params: { status: 'all', page: 2, search: undefined } }),
    ).toBe('12:/api/customer?page=2&status=all');
    expect(offlineReadKey(12, { url: '/country/upcoming_emi_counts' })).toBe(
      '12:/country/upcoming_emi_counts',
    );
    expect(offlineReadKey(13, { url: LIST_PATH, params: { page: 2, status: 'all' } })).not.toBe(
      offlineReadKey(12, { url: LIST_PATH, params: { page: 2, status: 'all' } }),
    );
  });
});

describe('saved reads in IndexedDB (createIdbReadStore)', () => {
  beforeEach(() => {
    stubIndexedDb();
  });

  it('keeps a read with its time until cleared', async () => {
    const reads = createIdbReadStore();
    await reads.save('12:/api/customer?page=1', { data: PAGE, savedAt: SAVED_AT });
    expect(await reads.load('12:/api/customer?page=1')).toEqual({ data: PAGE, savedAt: SAVED_AT });
    expect(await reads.load('13:/api/customer?page=1')).toBeUndefined();
    await clearOfflineReads(reads);
    expect(await reads.load('12:/api/customer?page=1')).toBeUndefined();
  });

  it(`keeps the ${MAX_SAVED_READS} newest reads, dropping the oldest`, async () => {
    const reads = createIdbReadStore();
    for (let index = 0; index <= MAX_SAVED_READS; index += 1) {
      await reads.save(`12:/country/getCustomerProfile?customer_id=${index}`, {
        data: { id: index },
        savedAt: SAVED_AT + index,
      });
    }
    expect(await reads.load('12:/country/getCustomerProfile?customer_id=0')).toBeUndefined();
    expect(await reads.load('12:/country/getCustomerProfile?customer_id=1')).toBeDefined();
    expect(await reads.load(`12:/country/getCustomerProfile?customer_id=${MAX_SAVED_READS}`)).toBeDefined();
  });

  it('reads nothing, and clearing never fails, where the browser has no IndexedDB', async () => {
    vi.stubGlobal('indexedDB', undefined);
    const reads = createIdbReadStore();
    await expect(reads.load('12:/api/customer')).rejects.toThrow();
    await expect(clearOfflineReads(reads)).resolves.toBeUndefined();
  });
});

describe('the base query offline (issue 28)', () => {
  let network: ReturnType<typeof createNetwork>;
  let reads: TOfflineReadStore;
  let store: ReturnType<typeof createReduxStore>;
  let baseQuery: TBaseQuery;
  let sessionGoneCalls: number;

  /** Reads the list as the customer list's first page does. */
  const readList = (extraOptions: TBaseQueryExtraOptions = READABLE_OFFLINE) =>
    baseQuery(LIST_REQUEST, callApi(store, 'query', LIST_KEY), extraOptions);

  /** Waits for the answer saved behind the scenes (the answer does not wait for the disk). */
  const savedUnder = async (key: string) => {
    await vi.waitFor(async () => expect(await reads.load(key)).toBeDefined());
    return reads.load(key);
  };

  beforeEach(() => {
    localStorage.clear();
    stubIndexedDb();
    network = createNetwork();
    reads = createIdbReadStore();
    store = createReduxStore();
    sessionGoneCalls = 0;
    baseQuery = createBaseQuery({
      getContext: () => ({ baseUrl: BASE_URL, orgId: 41, requestTokenSecret: null }),
      fetchFn: network.fetchFn,
      offlineReads: reads,
      isOnline: network.isOnline,
      offlineMessage: () => 'You are offline',
      needsConnectionMessage: () => 'This needs a connection. Nothing was sent.',
      onSessionGone: () => {
        sessionGoneCalls += 1;
      },
    });
    signIn(12);
  });

  it('saves a read that asks for it, under the user and the request, with the time it was fetched', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(SAVED_AT);
    network.replyData(PAGE);
    expect((await readList()).data).toEqual(PAGE);
    expect(await savedUnder('12:/api/customer?page=1&pageSize=20&status=all')).toEqual({
      data: PAGE,
      savedAt: SAVED_AT,
    });
  });

  it('saves nothing for an endpoint that does not ask, a POST, or when nobody is signed in', async () => {
    network.replyData(PAGE);
    await readList({});
    network.replyData(PAGE);
    await baseQuery({ ...LIST_REQUEST, method: 'POST' }, callApi(store, 'query', LIST_KEY), READABLE_OFFLINE);
    localStorage.removeItem('user_id');
    network.replyData(PAGE);
    await readList();
    // A read saved after them: once it is there, anything they had saved would be too.
    signIn(12);
    network.replyData(PAGE);
    const secondPage = { url: LIST_PATH, params: { ...LIST_REQUEST.params, page: 2 } };
    await baseQuery(secondPage, callApi(store, 'query', LIST_KEY), READABLE_OFFLINE);
    await savedUnder('12:/api/customer?page=2&pageSize=20&status=all');
    expect(await reads.load('12:/api/customer?page=1&pageSize=20&status=all')).toBeUndefined();
  });

  it('offline, answers with the saved read, and records as of when for the screen', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(SAVED_AT);
    network.replyData(PAGE);
    await readList();
    await savedUnder('12:/api/customer?page=1&pageSize=20&status=all');

    vi.setSystemTime(SAVED_AT + 60 * 60_000);
    network.setOnline(false);
    const result = await readList();
    expect(result.error).toBeUndefined();
    expect(result.data).toEqual(PAGE);
    expect(selectSavedReadTime(store.getState(), LIST_KEY)).toBe(SAVED_AT);
    // The network was tried first: a saved read never stands in for an answer that could come.
    expect(network.requests).toHaveLength(2);
  });

  it("never serves another user's saved read", async () => {
    network.replyData(PAGE);
    await readList();
    await savedUnder('12:/api/customer?page=1&pageSize=20&status=all');
    signIn(13);
    network.setOnline(false);
    const result = await readList();
    expect(result.data).toBeUndefined();
    expect(result.error).toMatchObject({ status: 'FETCH_ERROR', message: 'You are offline' });
    expect(selectSavedReadTime(store.getState(), LIST_KEY)).toBeNull();
  });

  it("keeps one person's saved reads: another user's first saved read drops the previous user's", async () => {
    network.replyData(PAGE);
    await readList();
    await savedUnder('12:/api/customer?page=1&pageSize=20&status=all');
    // Someone else signs in on this phone without the first logging out.
    signIn(13);
    network.replyData(PAGE);
    await readList();
    await savedUnder('13:/api/customer?page=1&pageSize=20&status=all');
    expect(await reads.load('12:/api/customer?page=1&pageSize=20&status=all')).toBeUndefined();
  });

  it('back online, the fresh answer replaces the saved one and the "as of" goes', async () => {
    network.replyData(PAGE);
    await readList();
    await savedUnder('12:/api/customer?page=1&pageSize=20&status=all');
    network.setOnline(false);
    await readList();
    expect(selectSavedReadTime(store.getState(), LIST_KEY)).not.toBeNull();

    network.setOnline(true);
    const fresh = { ...PAGE, total: 2 };
    network.replyData(fresh);
    expect((await readList()).data).toEqual(fresh);
    expect(selectSavedReadTime(store.getState(), LIST_KEY)).toBeNull();
    await vi.waitFor(async () =>
      expect((await reads.load('12:/api/customer?page=1&pageSize=20&status=all'))?.data).toEqual(fresh),
    );
  });

  it("shows a server's failure as it is: only a missing answer is served from the saved read", async () => {
    network.replyData(PAGE);
    await readList();
    await savedUnder('12:/api/customer?page=1&pageSize=20&status=all');
    network.reply(500, { response: 'failure', message: 'Database unavailable', data: null });
    const result = await readList();
    expect(result.data).toBeUndefined();
    expect(result.error).toMatchObject({ status: 500, message: 'Database unavailable' });
  });

  it('refuses a change offline before sending anything, with a message that says so', async () => {
    network.setOnline(false);
    const result = await baseQuery(
      { url: '/api/device/lock', method: 'POST', body: { customer_id: 7 } },
      callApi(store, 'mutation'),
      {},
    );
    expect(result.error).toEqual({
      status: 'CUSTOM_ERROR',
      message: 'This needs a connection. Nothing was sent.',
      code: NEEDS_CONNECTION_CODE,
      fields: [],
    });
    expect(network.requests).toHaveLength(0);
  });

  it('sends a change as before while online', async () => {
    network.replyData({ id: 'command-1' });
    const result = await baseQuery(
      { url: '/api/device/lock', method: 'POST', body: { customer_id: 7 } },
      callApi(store, 'mutation'),
      {},
    );
    expect(result.data).toEqual({ id: 'command-1' });
    expect(network.requests).toHaveLength(1);
  });

  it('forgets every saved read when the session is gone (511)', async () => {
    network.replyData(PAGE);
    await readList();
    await savedUnder('12:/api/customer?page=1&pageSize=20&status=all');
    network.reply(SESSION_GONE_STATUS, { response: 'failure', message: 'Session expired', data: null });
    await readList();
    expect(sessionGoneCalls).toBe(1);
    await vi.waitFor(async () =>
      expect(await reads.load('12:/api/customer?page=1&pageSize=20&status=all')).toBeUndefined(),
    );
  });
});
