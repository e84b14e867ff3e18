import type { FetchArgs } from '@reduxjs/toolkit/query';
import type { UseStore } from 'idb-keyval';
import { clear, createStore, delMany, entries, get, keys, set } from 'idb-keyval';

/**
 * Offline reading (issue 28): the answers of the read endpoints that pass READABLE_OFFLINE
 * (customer list; customer details with its status trail, consent, command history and SIM
 * changes; EMI schedule; upcoming EMIs; the organisation's config) are saved in IndexedDB as they
 * arrive, so that a screen opened without a network shows what was last fetched, "as of" when.
 * Only data is saved, never the session token (that stays in local storage, spec §3), and every
 * saved read is keyed by the signed-in user and dropped at logout and when the session is gone; a
 * phone keeps one user's saved reads at most (the base query drops the others').
 */

/** What an endpoint passes as `extraOptions` to have its answers saved and served offline. */
export type TOfflineReadOptions = {
  /** Save each successful GET answer and serve it when the network does not answer. */
  isReadableOffline?: boolean;
};

/** `extraOptions` of an endpoint readable offline: `build.query({ query, extraOptions: READABLE_OFFLINE })`. */
export const READABLE_OFFLINE: TOfflineReadOptions = { isReadableOffline: true };

/** One saved answer: the envelope's `data` and when it was fetched (UTC ms). */
export type TSavedRead = { data: unknown; savedAt: number };

/** Where saved reads live; IndexedDB in the app (createIdbReadStore), a fake in tests. */
export type TOfflineReadStore = {
  save: (key: string, read: TSavedRead) => Promise<void>;
  /** The saved read under `key`, or undefined when there is none (or it cannot be read). */
  load: (key: string) => Promise<TSavedRead | undefined>;
  /** Drops every saved read, of every user. */
  clear: () => Promise<void>;
  /** Drops the saved reads of every user but this one (another person signed in on this phone). */
  dropOtherUsers: (userId: number) => Promise<void>;
};

/** The IndexedDB database and object store of the saved reads. */
export const OFFLINE_READS_DB = 'kisht-offline-reads';
const OFFLINE_READS_STORE = 'reads';
/**
 * At most this many reads are kept (each search of the list and each customer opened is one); the
 * oldest go first. Checked on the first save of a page load and every PRUNE_EVERY saves after.
 */
export const MAX_SAVED_READS = 300;
const PRUNE_EVERY = 50;

/** What every saved-read key of a user starts with (offlineReadKey). */
const keyPrefixOf = (userId: number): string => `${userId}:`;

const isSavedRead = (value: unknown): value is TSavedRead =>
  typeof value === 'object' &&
  value !== null &&
  'data' in value &&
  'savedAt' in value &&
  typeof value.savedAt === 'number';

/**
 * The saved reads in IndexedDB (idb-keyval, one database of its own). The database is opened on
 * first use, so importing this costs nothing where IndexedDB is missing; there every operation
 * rejects, and the app reads online only.
 */
export const createIdbReadStore = (dbName = OFFLINE_READS_DB): TOfflineReadStore => {
  let opened: { factory: IDBFactory; store: UseStore } | null = null;
  let savesUntilPrune = 0;
  // Opened again if the browser's IndexedDB is another object than the one it was opened in: never
  // in the app, but each web test gives its page a fresh, fake one (vi.stubGlobal).
  const open = (): UseStore => {
    const factory: IDBFactory | undefined = globalThis.indexedDB;
    if (!factory) throw new Error('IndexedDB is not available');
    if (opened?.factory !== factory) opened = { factory, store: createStore(dbName, OFFLINE_READS_STORE) };
    return opened.store;
  };
  const prune = async () => {
    const saved = await entries<IDBValidKey, unknown>(open());
    if (saved.length <= MAX_SAVED_READS) return;
    const oldestFirst = saved
      .map(([key, value]) => ({ key, savedAt: isSavedRead(value) ? value.savedAt : 0 }))
      .sort((a, b) => a.savedAt - b.savedAt);
    await delMany(
      oldestFirst.slice(0, saved.length - MAX_SAVED_READS).map(({ key }) => key),
      open(),
    );
  };
  return {
    save: async (key, read) => {
      await set(key, read, open());
      if (savesUntilPrune === 0) {
        savesUntilPrune = PRUNE_EVERY;
        await prune();
      }
      savesUntilPrune -= 1;
    },
    load: async (key) => {
      const value = await get<unknown>(key, open());
      return isSavedRead(value) ? value : undefined;
    },
    clear: async () => clear(open()),
    dropOtherUsers: async (userId) => {
      const prefix = keyPrefixOf(userId);
      const others = (await keys(open())).filter((key) => typeof key !== 'string' || !key.startsWith(prefix));
      if (others.length > 0) await delMany(others, open());
    },
  };
};

/**
 * The key of a saved read: the signed-in user, the endpoint's path as the app asks for it (not the
 * base URL, which differs offline while the organisation's config is not loaded) and its query
 * parameters, sorted, so one request always finds its own answer and never another user's.
 */
export const offlineReadKey = (userId: number, request: Pick<FetchArgs, 'url' | 'params'>): string => {
  const [path = '', query = ''] = request.url.split('?');
  const search = new URLSearchParams(query);
  for (const [name, value] of Object.entries(request.params ?? {})) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  search.sort();
  const text = search.toString();
  return `${keyPrefixOf(userId)}${path}${text ? `?${text}` : ''}`;
};

/** The app's saved reads, in IndexedDB. */
export const offlineReadStore: TOfflineReadStore = createIdbReadStore();

/**
 * Forgets every saved read (logout, spec §8 session gone), so the next person on this phone never
 * sees them. Never rejects: a storage that cannot be opened has nothing to forget.
 */
export const clearOfflineReads = async (store: TOfflineReadStore = offlineReadStore): Promise<void> => {
  try {
    await store.clear();
  } catch {
    // No IndexedDB here: nothing was saved.
  }
};
