import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import type { PayloadAction } from '@reduxjs/toolkit';
import { createSlice } from '@reduxjs/toolkit';
import type { VirtualItem } from '@tanstack/react-virtual';
import type { TCustomerListArgs } from '../../lib/http/customer-list-api';

/**
 * Where the person left the customer list (spec §3 client state: customer list scrollPosition).
 * The rows and the total themselves stay in the api cache (customerListApi listCustomers, one entry
 * per filter, with every page loaded so far); this is only what the cache cannot know.
 */
export type TCustomerListPosition = {
  /** The list the rest describes (customerListKey of its filter); null before any list was left. */
  listKey: string | null;
  /** The window's scroll offset when the list was left, px. */
  scrollPosition: number;
  /**
   * Sizes of the rows measured while the list was shown (the virtualizer's snapshot), so the list
   * is laid out again exactly as it was and scrollPosition lands on the same row.
   */
  measuredRows: VirtualItem[];
};

/**
 * The rows of the list last loaded (spec §3 client state: customer list data and total), kept
 * after the api cache lets them go, so that offline the list shows what it last had instead of an
 * error. Only the latest list loaded is kept.
 */
export type TLastLoadedList = {
  /** customerListKey of its filter. */
  listKey: string;
  customers: TCustomerListItem[];
  total: number;
  /** When it loaded, ISO 8601 UTC. */
  loadedAt: string;
};

export type TCustomerListState = TCustomerListPosition & { lastLoaded: TLastLoadedList | null };

export const INITIAL_CUSTOMER_LIST_STATE: TCustomerListState = {
  listKey: null,
  scrollPosition: 0,
  measuredRows: [],
  lastLoaded: null,
};

/** The key of one filtered list: its status, search and shop, as the api cache tells lists apart. */
export const customerListKey = ({ status, search, retailerId }: TCustomerListArgs): string =>
  JSON.stringify([status, search, retailerId ?? null]);

/** The `customerList` slice: remembers the list that was left, and where, and the last rows loaded. */
export const customerListSlice = createSlice({
  name: 'customerList',
  initialState: INITIAL_CUSTOMER_LIST_STATE,
  reducers: {
    /** The person left a list (opened a customer, another screen, or changed the filter). */
    customerListLeft: (state, action: PayloadAction<TCustomerListPosition>) => ({
      ...state,
      ...action.payload,
    }),
    /** A list loaded (its first page or more): its rows replace those kept before. */
    customerListLoaded: (state, action: PayloadAction<TLastLoadedList>) => ({
      ...state,
      lastLoaded: action.payload,
    }),
  },
});

export const { customerListLeft, customerListLoaded } = customerListSlice.actions;

/** Any store that holds the customerList slice. */
export type TStateWithCustomerList = { customerList: TCustomerListState };

export const selectCustomerList = (state: TStateWithCustomerList): TCustomerListState => state.customerList;

/**
 * Where to put a list back when it is shown again: the remembered position and row sizes when the
 * remembered list is this one, else nothing (start at the top).
 */
export const restorableListState = (
  state: TCustomerListState,
  listKey: string,
): Pick<TCustomerListPosition, 'scrollPosition' | 'measuredRows'> | null =>
  state.listKey === listKey
    ? { scrollPosition: state.scrollPosition, measuredRows: state.measuredRows }
    : null;

/** The rows last loaded for this list (customerListKey), or null when the last loaded was another. */
export const lastLoadedListOf = (state: TCustomerListState, listKey: string): TLastLoadedList | null =>
  state.lastLoaded?.listKey === listKey ? state.lastLoaded : null;
