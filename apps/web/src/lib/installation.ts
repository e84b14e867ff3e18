import { ensureClientDefaults } from './client-storage';
import { ORG_ID, rememberOrgId } from './config';
import { installNativeBridge, requestDeviceDetails } from './native-bridge';
import { currentUserAgent } from './user-agent';

/**
 * Writes (back) what identifies this installation in local storage, none of which belongs to a
 * session: its organisation (`account_id`, so a reload keeps the white label) and the device
 * defaults of spec §3. At start, and after a 511 has cleared all local storage (spec §8).
 */
export const rememberInstallation = (orgId: number = ORG_ID): void => {
  rememberOrgId(orgId);
  ensureClientDefaults({ storage: window.localStorage, userAgent: currentUserAgent() });
};

/**
 * What every start does before any call (the app's, app/bootstrap.ts, and the light sign-in's,
 * app/sign-in-start.tsx): remembers the installation and asks the native shell for the device's
 * details (lib/native-bridge).
 */
export const startInstallation = (orgId: number = ORG_ID): void => {
  rememberInstallation(orgId);
  installNativeBridge();
  requestDeviceDetails();
};
