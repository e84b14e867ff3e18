/**
 * Native shell bridge: device details (spec §2: "The app asks the native shell for device details
 * via a special link; the shell calls back to save them").
 *
 * The contract between this web app and the mobile shell (Android WebView, iOS WKWebView) that
 * hosts it:
 *
 * 1. Request. When the app starts inside the shell and local storage has no `deviceDetails` yet,
 *    it navigates a hidden iframe to
 *
 *        kisht://device-details?callback=kishtSaveDeviceDetails
 *
 *    The shell intercepts the `kisht:` scheme (Android `shouldOverrideUrlLoading`, iOS
 *    `decidePolicyFor navigationAction`), cancels the navigation and reads the `callback` query
 *    parameter: the name of a global function to answer with.
 *
 *    "Inside the shell" is read from the user agent (isNativeShell): an Android WebView (its
 *    default user agent carries `; wv)`), an iOS WKWebView (an iPhone/iPad user agent without
 *    `Safari/`), or any user agent carrying the token `KishtShell/` (a shell that changes its
 *    user agent must append e.g. ` KishtShell/1.4.0`). In an ordinary browser the app does not
 *    ask: a browser has no handler for `kisht:`, and Chromium then holds up the page's input
 *    (seen in headless Chromium: clicks stop reaching the page).
 *
 * 2. Answer. The shell calls that function with one argument, a JSON string (not an object):
 *
 *        window.kishtSaveDeviceDetails('{"deviceId":"8f1c…","manufacturer":"Xiaomi",
 *          "model":"Redmi Note 12","os":"android","osVersion":"13","appVersion":"1.4.0"}')
 *
 *    Android: `webView.evaluateJavascript("window.kishtSaveDeviceDetails(" + quoted + ")", null)`;
 *    iOS: `webView.evaluateJavaScript(...)`, where `quoted` is the JSON string encoded once more
 *    as a JavaScript string literal. All fields are optional; those above are the recommended ones.
 *    The function returns true when the details were saved, false when they were refused.
 *
 * 3. Validation. The argument must be a string of at most 4096 characters that parses to a JSON
 *    object (not an array or a scalar) whose values are all strings, numbers, booleans or null.
 *    Anything else is refused and nothing is stored.
 *
 * 4. Storage. Accepted details are stored in local storage `deviceDetails` (spec §3) as compact
 *    JSON with every non-ASCII character \u-escaped, so the value is a valid HTTP header: the app
 *    sends it on every API call as the `device-details` header (spec §7). When the object has an
 *    `os` (or else `platform`) string, `isAndroid` becomes 'true' if it names Android and 'false'
 *    otherwise; without one, `isAndroid` keeps the value read from the user agent.
 *
 * 5. Once details are stored the app does not ask again. The shell may call the function again at
 *    any time (after an app update, say) to replace them.
 */
import { STORAGE_KEYS } from './storage-keys';

/** The global function the shell calls back (spec §2). */
export const DEVICE_DETAILS_CALLBACK = 'kishtSaveDeviceDetails';
/** The special link that asks the shell for device details. */
export const DEVICE_DETAILS_REQUEST_URL = `kisht://device-details?callback=${DEVICE_DETAILS_CALLBACK}`;
/** Longest device-details JSON accepted, characters. */
export const MAX_DEVICE_DETAILS_LENGTH = 4096;
/** How long the request iframe stays in the page, ms; the shell reacts as navigation starts. */
const REQUEST_FRAME_LIFETIME_MS = 2000;

declare global {
  // An interface, not a type: it merges into the DOM's own Window declaration.
  interface Window {
    /** Set by installNativeBridge; called by the native shell with device details JSON. */
    kishtSaveDeviceDetails?: (json: string) => boolean;
  }
}

type TDeviceDetails = Record<string, string | number | boolean | null>;

const isScalar = (value: unknown): value is string | number | boolean | null =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** JSON with non-ASCII characters escaped as \uXXXX: still the same JSON, and a legal header value. */
export const toAsciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** The details as an object when `json` satisfies the contract (point 3 above), else null. */
export const parseDeviceDetails = (json: unknown): TDeviceDetails | null => {
  if (typeof json !== 'string' || json.length === 0 || json.length > MAX_DEVICE_DETAILS_LENGTH) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  return entries.every(([, field]) => isScalar(field)) ? (value as TDeviceDetails) : null;
};

/**
 * Validates device details sent by the native shell and saves them in local storage
 * `deviceDetails`, updating `isAndroid` when the details name the OS (contract above).
 * Returns true when saved, false when refused.
 */
export const saveDeviceDetails = (json: unknown, storage: Storage = window.localStorage): boolean => {
  const details = parseDeviceDetails(json);
  if (!details) return false;
  storage.setItem(STORAGE_KEYS.deviceDetails, toAsciiJson(details));
  const os = typeof details.os === 'string' ? details.os : details.platform;
  if (typeof os === 'string' && os.trim() !== '') {
    storage.setItem(STORAGE_KEYS.isAndroid, String(/android/i.test(os)));
  }
  return true;
};

/** Exposes `window.kishtSaveDeviceDetails` for the shell to call (contract point 2). */
export const installNativeBridge = (target: Window = window): void => {
  target[DEVICE_DETAILS_CALLBACK] = (json: string) => saveDeviceDetails(json, target.localStorage);
};

/** Whether the app runs inside the native shell, judged from its user agent (contract point 1). */
export const isNativeShell = (userAgent: string): boolean => {
  if (/\bKishtShell\//.test(userAgent)) return true;
  if (/; wv\)/.test(userAgent)) return true;
  return /\b(?:iPhone|iPad|iPod)\b/.test(userAgent) && !/\bSafari\//.test(userAgent);
};

/**
 * Asks the shell for device details by navigating a hidden iframe to the special link (contract
 * point 1), when the app runs inside the shell and no details are stored yet. Returns whether it
 * asked.
 */
export const requestDeviceDetails = (target: Window = window): boolean => {
  if (!isNativeShell(target.navigator.userAgent)) return false;
  if (target.localStorage.getItem(STORAGE_KEYS.deviceDetails)) return false;
  const frame = target.document.createElement('iframe');
  frame.style.display = 'none';
  frame.setAttribute('aria-hidden', 'true');
  frame.setAttribute('data-testid', 'native-bridge-frame');
  frame.src = DEVICE_DETAILS_REQUEST_URL;
  target.document.body.appendChild(frame);
  target.setTimeout(() => frame.remove(), REQUEST_FRAME_LIFETIME_MS);
  return true;
};
