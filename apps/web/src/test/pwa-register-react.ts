import { useState } from 'react';
import type { RegisterSWOptions } from 'vite-plugin-pwa/types';

/**
 * Stand-in for `virtual:pwa-register/react` in unit tests (vite-plugin-pwa only provides it in a
 * Vite build). Tests set the initial state and read what the component did.
 */
export const pwaTestState = {
  offlineReady: false,
  needRefresh: false,
  updateCalls: [] as Array<boolean | undefined>,
  options: undefined as RegisterSWOptions | undefined,
};

/** Same signature as the real hook. */
export const useRegisterSW = (options?: RegisterSWOptions) => {
  pwaTestState.options = options;
  const offlineReady = useState(pwaTestState.offlineReady);
  const needRefresh = useState(pwaTestState.needRefresh);
  return {
    offlineReady,
    needRefresh,
    updateServiceWorker: async (reloadPage?: boolean) => {
      pwaTestState.updateCalls.push(reloadPage);
    },
  };
};
