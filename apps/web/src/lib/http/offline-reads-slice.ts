import type { PayloadAction } from '@reduxjs/toolkit';
import { createSlice } from '@reduxjs/toolkit';
import { defaultSerializeQueryArgs } from '@reduxjs/toolkit/query';
import { useSelector } from 'react-redux';

/**
 * Which cached queries hold a saved read served offline (offline-reads.ts) rather than a fresh
 * answer, and when that read was fetched: queryCacheKey → UTC ms. The base query sets an entry
 * when it serves a saved read and removes it when the query is answered by the server again, so a
 * screen can say "as of" while, and only while, it shows saved data.
 */
export type TOfflineReadsState = Record<string, number>;

export const offlineReadsSlice = createSlice({
  name: 'offlineReads',
  initialState: {} as TOfflineReadsState,
  reducers: {
    /**
     * A query was answered from a saved read fetched at `savedAt`. The pages of an infinite query
     * are each served on their own: the oldest one's time is the list's.
     */
    savedReadServed: (state, action: PayloadAction<{ queryCacheKey: string; savedAt: number }>) => {
      const { queryCacheKey, savedAt } = action.payload;
      state[queryCacheKey] = Math.min(state[queryCacheKey] ?? savedAt, savedAt);
    },
    /** The server answered the query again: it shows fresh data. */
    freshReadFetched: (state, action: PayloadAction<{ queryCacheKey: string }>) => {
      delete state[action.payload.queryCacheKey];
    },
    /** Logout: nothing shown from saved reads any more. */
    savedReadsForgotten: () => ({}),
  },
});

export const { savedReadServed, freshReadFetched, savedReadsForgotten } = offlineReadsSlice.actions;

/** Any state that may hold the offlineReads slice (the base query reads the store's as unknown). */
type TStateWithOfflineReads = { offlineReads?: TOfflineReadsState };

/** When the saved read a query shows was fetched (UTC ms), or null when it shows fresh data. */
export const selectSavedReadTime = (state: unknown, queryCacheKey: string): number | null =>
  (state as TStateWithOfflineReads | undefined)?.offlineReads?.[queryCacheKey] ?? null;

type TSerializeArgs = Parameters<typeof defaultSerializeQueryArgs>[0];

/**
 * RTK Query's cache key of an endpoint's query, as the api makes it: none of the endpoints readable
 * offline serialises its arguments itself, and the default serialiser reads only the endpoint's
 * name and arguments, not its definition.
 */
const queryCacheKeyOf = (endpointName: string, queryArgs: unknown): string =>
  defaultSerializeQueryArgs({
    endpointName,
    queryArgs,
    endpointDefinition: undefined as unknown as TSerializeArgs['endpointDefinition'],
  });

/** What a query hook's result says about its query: its endpoint and the arguments it was asked with. */
type TQueryIdentity = { endpointName?: string | undefined; originalArgs?: unknown };

/**
 * When the data a screen's query shows was fetched (UTC ms) while it comes from a saved read
 * (offline); null while it is the server's fresh answer, or nothing has loaded.
 */
export const useSavedReadTime = (query: TQueryIdentity): number | null =>
  useSelector((state: unknown) =>
    query.endpointName === undefined
      ? null
      : selectSavedReadTime(state, queryCacheKeyOf(query.endpointName, query.originalArgs)),
  );
