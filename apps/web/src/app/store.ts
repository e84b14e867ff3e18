import type { Middleware } from '@reduxjs/toolkit';
import { configureStore, isRejectedWithValue } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { enqueueSnackbar } from 'notistack';
import { customerListSlice } from '../features/customers/customer-list-slice';
import { api } from '../lib/http/api';
import type { TApiError } from '../lib/http/base-query';
import { SESSION_GONE_STATUS } from '../lib/http/base-query';
import { uiSlice } from '../lib/ui-slice';

const isApiError = (value: unknown): value is TApiError =>
  typeof value === 'object' && value !== null && 'status' in value && 'message' in value;

/**
 * Shows every failed API call's message in an error toast (spec §8; one toast at a time, spec §9).
 * A 511 is not shown: the person is simply taken to the login screen.
 */
const apiErrorToast: Middleware = () => (next) => (action) => {
  if (
    isRejectedWithValue(action) &&
    isApiError(action.payload) &&
    action.payload.status !== SESSION_GONE_STATUS
  ) {
    enqueueSnackbar(action.payload.message, { variant: 'error' });
  }
  return next(action);
};

/**
 * A store with the api cache, the ui slice and where the customer list was left (spec §3 client
 * state).
 */
export const createAppStore = () => {
  const store = configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
      [uiSlice.reducerPath]: uiSlice.reducer,
      [customerListSlice.reducerPath]: customerListSlice.reducer,
    },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware, apiErrorToast),
  });
  // Lets queries that ask for it refetch on window focus and on reconnect.
  setupListeners(store.dispatch);
  return store;
};

export type TAppStore = ReturnType<typeof createAppStore>;
export type TRootState = ReturnType<TAppStore['getState']>;

/** The app's store. */
export const store = createAppStore();
