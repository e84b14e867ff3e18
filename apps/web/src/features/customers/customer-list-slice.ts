import type { PayloadAction } from '@reduxjs/toolkit';
import { createSlice } from '@reduxjs/toolkit';
import type { VirtualItem } from '@tanstack/react-virtual';
import type { TCustomerListArgs } from '../../lib/http/customer-list-api';

/**
 * Where the person left the customer list (spec §3 client state: customer list scrollPosition).
 * The rows and the total themselves stay in the api cache (customerListApi listCustomers, one entry
 * per filter, with every page loaded so far); this is only what the cache cannot know.
 */
export type TCustomerListState = {
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

export const INITIAL_CUSTOMER_LIST_STATE: TCustomerListState = {
  listKey: null,
  scrollPosition: 0,
  measuredRows: [],
};

/** The key of one filtered list: its status and search, as the api cache tells lists apart. */
export const customerListKey = ({ status, search }: TCustomerListArgs): string =>
  JSON.stringify([status, search]);

/** The `customerList` slice: remembers the list that was left, and where. */
export const customerListSlice = createSlice({
  name: 'customerList',
  initialState: INITIAL_CUSTOMER_LIST_STATE,
  reducers: {
    /** The person left a list (opened a customer, another screen, or changed the filter). */
    customerListLeft: (_state, action: PayloadAction<TCustomerListState>) => action.payload,
  },
});

export const { customerListLeft } = customerListSlice.actions;

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
): Pick<TCustomerListState, 'scrollPosition' | 'measuredRows'> | null =>
  state.listKey === listKey
    ? { scrollPosition: state.scrollPosition, measuredRows: state.measuredRows }
    : null;
