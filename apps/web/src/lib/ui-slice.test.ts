import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './http/api';
import { orgConfigApi } from './http/org-config-api';
import { INITIAL_UI_STATE, uiSlice } from './ui-slice';

const reduce = (types: string[]) =>
  types.reduce((state, type) => uiSlice.reducer(state, { type }), INITIAL_UI_STATE);

describe('ui slice: spec §3 client state', () => {
  it('starts as the spec says', () => {
    expect(INITIAL_UI_STATE).toMatchObject({
      topLoadingBar: false,
      apiLoading: false,
      drawerOpen: false,
      mainScreenTab: 'dashboard',
      birthdayCelebration: false,
      splashScreen: true,
      org_config: null,
      app_config: null,
      accessConfig: null,
    });
  });
});

describe('ui slice: global loading counter (spec §4)', () => {
  it('is on while any call runs and off once every call has succeeded or failed', () => {
    const started = reduce(['api/executeQuery/pending', 'api/executeMutation/pending']);
    expect(started).toMatchObject({ apiLoading: true, pendingCalls: 2 });
    const oneLeft = uiSlice.reducer(started, { type: 'api/executeQuery/fulfilled' });
    expect(oneLeft).toMatchObject({ apiLoading: true, pendingCalls: 1 });
    const done = uiSlice.reducer(oneLeft, { type: 'api/executeMutation/rejected' });
    expect(done).toMatchObject({ apiLoading: false, pendingCalls: 0 });
  });

  it('ignores other actions and never counts below zero', () => {
    expect(reduce(['other/thing/pending', 'api/executeQuery/fulfilled'])).toMatchObject({
      apiLoading: false,
      pendingCalls: 0,
    });
  });

  describe('with the real api', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('turns on for a real query and off when it fails', async () => {
      let answer: (response: Response) => void = () => {};
      vi.stubGlobal(
        'fetch',
        vi.fn(
          () =>
            new Promise<Response>((resolve) => {
              answer = resolve;
            }),
        ),
      );
      const store = configureStore({
        reducer: { [api.reducerPath]: api.reducer, ui: uiSlice.reducer },
        middleware: (getDefault) => getDefault().concat(api.middleware),
      });
      const request = store.dispatch(orgConfigApi.endpoints.getOrgAppConfig.initiate(41));
      expect(store.getState().ui.apiLoading).toBe(true);
      await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
      answer(new Response(JSON.stringify({ response: 'failure', message: 'No such org' }), { status: 404 }));
      await request;
      expect(store.getState().ui).toMatchObject({ apiLoading: false, pendingCalls: 0 });
      request.unsubscribe();
    });
  });
});
