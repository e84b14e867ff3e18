import type { TAppConfig, TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import type { PayloadAction, UnknownAction } from '@reduxjs/toolkit';
import { createSlice } from '@reduxjs/toolkit';
import { API_REDUCER_PATH } from './http/api';

/** The bottom tabs of the main screen. */
export const MAIN_SCREEN_TABS = ['dashboard', 'customers', 'addCustomer'] as const;
export type TMainScreenTab = (typeof MAIN_SCREEN_TABS)[number];

/** Client state of spec §3 (names as the spec spells them), plus the call counter behind apiLoading. */
export type TUiState = {
  /** A thin bar over the top of the screen, for work that is not an API call (language switch). */
  topLoadingBar: boolean;
  /** Spec §4: on while any API call is in progress. */
  apiLoading: boolean;
  /** API calls in progress; apiLoading is pendingCalls > 0. */
  pendingCalls: number;
  drawerOpen: boolean;
  mainScreenTab: TMainScreenTab;
  birthdayCelebration: boolean;
  /** Spec §2: the splash screen shows until the org config and translations are loaded. */
  splashScreen: boolean;
  /** The organisation's white-label config (spec §1), once loaded. */
  org_config: TOrgAppConfig | null;
  /** The client-contract config (spec §7: request-token secret, cache times), once loaded. */
  app_config: TAppConfig | null;
  /** Access configuration (spec §6); not loaded yet, so null. */
  accessConfig: null;
};

export const INITIAL_UI_STATE: TUiState = {
  topLoadingBar: false,
  apiLoading: false,
  pendingCalls: 0,
  drawerOpen: false,
  mainScreenTab: 'dashboard',
  birthdayCelebration: false,
  splashScreen: true,
  org_config: null,
  app_config: null,
  accessConfig: null,
};

/** Type prefixes of RTK Query's own thunks: every query and mutation of the one api. */
const API_CALL_PREFIXES = [`${API_REDUCER_PATH}/executeQuery/`, `${API_REDUCER_PATH}/executeMutation/`];

const apiCallPhase = (action: UnknownAction): 'pending' | 'settled' | null => {
  if (!API_CALL_PREFIXES.some((prefix) => action.type.startsWith(prefix))) return null;
  if (action.type.endsWith('/pending')) return 'pending';
  if (action.type.endsWith('/fulfilled') || action.type.endsWith('/rejected')) return 'settled';
  return null;
};

const isApiCallStart = (action: UnknownAction): action is UnknownAction => apiCallPhase(action) === 'pending';
const isApiCallEnd = (action: UnknownAction): action is UnknownAction => apiCallPhase(action) === 'settled';

/**
 * The `ui` slice. Spec §4 "any call in progress turns global loading on; it turns off on success or
 * failure": every RTK Query pending action counts a call in, every fulfilled or rejected one counts
 * it out (a call RTK Query skips dispatches neither), and apiLoading is on while the count is above 0.
 */
export const uiSlice = createSlice({
  name: 'ui',
  initialState: INITIAL_UI_STATE,
  reducers: {
    setTopLoadingBar: (state, action: PayloadAction<boolean>) => {
      state.topLoadingBar = action.payload;
    },
    setDrawerOpen: (state, action: PayloadAction<boolean>) => {
      state.drawerOpen = action.payload;
    },
    setMainScreenTab: (state, action: PayloadAction<TMainScreenTab>) => {
      state.mainScreenTab = action.payload;
    },
    setBirthdayCelebration: (state, action: PayloadAction<boolean>) => {
      state.birthdayCelebration = action.payload;
    },
    hideSplashScreen: (state) => {
      state.splashScreen = false;
    },
    orgConfigLoaded: (state, action: PayloadAction<TOrgAppConfig>) => {
      state.org_config = action.payload;
    },
    appConfigLoaded: (state, action: PayloadAction<TAppConfig>) => {
      state.app_config = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(isApiCallStart, (state) => {
        state.pendingCalls += 1;
        state.apiLoading = true;
      })
      .addMatcher(isApiCallEnd, (state) => {
        state.pendingCalls = Math.max(0, state.pendingCalls - 1);
        state.apiLoading = state.pendingCalls > 0;
      });
  },
});

export const {
  setTopLoadingBar,
  setDrawerOpen,
  setMainScreenTab,
  setBirthdayCelebration,
  hideSplashScreen,
  orgConfigLoaded,
  appConfigLoaded,
} = uiSlice.actions;

/** Any store that holds the ui slice. */
export type TStateWithUi = { ui: TUiState };

export const selectUi = (state: TStateWithUi): TUiState => state.ui;
export const selectOrgConfig = (state: TStateWithUi): TOrgAppConfig | null => state.ui.org_config;
export const selectAppConfig = (state: TStateWithUi): TAppConfig | null => state.ui.app_config;
export const selectIsApiLoading = (state: TStateWithUi): boolean => state.ui.apiLoading;
export const selectIsCompactLayout = (state: TStateWithUi): boolean =>
  state.ui.org_config?.mainLayout === 'compact';
