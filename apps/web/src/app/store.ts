import type { Middleware } from '@reduxjs/toolkit';
import { configureStore, isRejectedWithValue } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { enqueueSnackbar } from 'notistack';
import { customerListSlice } from '../features/customers/customer-list-slice';
import { api } from '../lib/http/api';
import type { TApiError } from '../lib/http/base-query';
import { SESSION_GONE_STATUS } from '../lib/http/base-query';
import { offlineReadsSlice } from '../lib/http/offline-reads-slice';
import { uiSlice } from '../lib/ui-slice';

const isApiError = (value: unknown): value is TApiError =>
  typeof value === 'object' && value !== null && 'status' in value && 'message' in value;

/** Whether a rejected RTK Query action is a read (a query) that got no answer at all (offline). */
const isUnansweredRead = (action: { meta?: unknown }, error: TApiError): boolean => {
  const arg = (action.meta as { arg?: { type?: unknown } } | undefined)?.arg;
  return arg?.type === 'query' && error.status === 'FETCH_ERROR';
};

/**
 * Shows every failed API call's message in an error toast (spec §8; one toast at a time, spec §9).
 * A 511 is not shown: the person is simply taken to the login screen. Nor is a read that got no
 * answer (offline): the screen that asked says so in its place (LoadError, or the "as of" notice
 * of a saved read), and a toast would say it a second time (issue 28); a one-off read a person
 * asked for (a CSV download) says it itself. A change refused or failing offline is toasted.
 */
const apiErrorToast: Middleware = () => (next) => (action) => {
  if (
    isRejectedWithValue(action) &&
    isApiError(action.payload) &&
    action.payload.status !== SESSION_GONE_STATUS &&
    !isUnansweredRead(action, action.payload)
  ) {
    enqueueSnackbar(action.payload.message, { variant: 'error' });
  }
  return next(action);
};

/**
 * A store with the api cache, the ui slice, where the customer list was left (spec §3 client
 * state) and which cached reads are saved ones served offline (issue 28).
 */
export const createAppStore = () => {
  const store = configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
      [uiSlice.reducerPath]: uiSlice.reducer,
      [customerListSlice.reducerPath]: customerListSlice.reducer,
      [offlineReadsSlice.reducerPath]: offlineReadsSlice.reducer,
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
