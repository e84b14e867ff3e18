/** Device types of the device-type header (spec §7). */
export const DEVICE_TYPES = ['mobile', 'tablet', 'desktop'] as const;
export type TDeviceType = (typeof DEVICE_TYPES)[number];

/** Platforms of the device-platform header (spec §7). */
export const DEVICE_PLATFORMS = ['android', 'ios', 'windows', 'macos', 'linux', 'unknown'] as const;
export type TDevicePlatform = (typeof DEVICE_PLATFORMS)[number];

/** What the client headers of spec §7 say about the browser and device. */
export type TUserAgentInfo = {
  /** e.g. 'Chrome', 'Android WebView', 'Safari', 'Firefox', 'Edge', 'Samsung Internet'; 'Unknown' otherwise. */
  browserName: string;
  /** The browser's version as the user agent gives it ('126.0.6478.122'); '' when unknown. */
  browserVersion: string;
  deviceType: TDeviceType;
  devicePlatform: TDevicePlatform;
};

export const UNKNOWN_BROWSER = 'Unknown';

/**
 * Browser tokens, most specific first: Edge, Opera, Samsung Internet and others also say "Chrome"
 * and "Safari", and Chrome says "Safari", so the first match wins.
 */
const BROWSER_RULES: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'Edge', pattern: /\b(?:Edg|EdgA|EdgiOS|Edge)\/([\d.]+)/ },
  { name: 'Opera', pattern: /\b(?:OPR|OPiOS)\/([\d.]+)/ },
  { name: 'Samsung Internet', pattern: /\bSamsungBrowser\/([\d.]+)/ },
  { name: 'UC Browser', pattern: /\bUCBrowser\/([\d.]+)/ },
  { name: 'Firefox', pattern: /\b(?:Firefox|FxiOS)\/([\d.]+)/ },
  // An Android WebView (the mobile shell) marks itself with "; wv)" and carries Chrome's version.
  { name: 'Android WebView', pattern: /; wv\).*?\bChrome\/([\d.]+)/ },
  { name: 'Chrome', pattern: /\b(?:HeadlessChrome|CriOS|Chrome)\/([\d.]+)/ },
  { name: 'Safari', pattern: /\bVersion\/([\d.]+).*\bSafari\// },
];

const platformOf = (ua: string): TDevicePlatform => {
  // Order matters: Android says "Linux", iOS says "like Mac OS X".
  if (/\bAndroid\b/i.test(ua)) return 'android';
  if (/\b(?:iPhone|iPad|iPod)\b/.test(ua)) return 'ios';
  if (/\bWindows\b/.test(ua)) return 'windows';
  if (/\b(?:Macintosh|Mac OS X)\b/.test(ua)) return 'macos';
  if (/\b(?:Linux|X11|CrOS)\b/.test(ua)) return 'linux';
  return 'unknown';
};

const deviceTypeOf = (ua: string): TDeviceType => {
  if (/\b(?:iPad|Tablet)\b/i.test(ua)) return 'tablet';
  // Android phones say "Mobile"; Android tablets do not.
  if (/\bAndroid\b/i.test(ua)) return /\bMobile\b/.test(ua) ? 'mobile' : 'tablet';
  if (/\b(?:Mobi|iPhone|iPod)/.test(ua)) return 'mobile';
  return 'desktop';
};

/**
 * Reads browser name and version, device type and platform from a user agent string, for the
 * client headers of spec §7. Pure and forgiving: an empty or unknown string gives
 * `{ browserName: 'Unknown', browserVersion: '', deviceType: 'desktop', devicePlatform: 'unknown' }`.
 */
export const parseUserAgent = (userAgent: string): TUserAgentInfo => {
  const ua = userAgent.trim();
  let browserName = UNKNOWN_BROWSER;
  let browserVersion = '';
  for (const rule of BROWSER_RULES) {
    const match = rule.pattern.exec(ua);
    if (match) {
      browserName = rule.name;
      browserVersion = match[1] ?? '';
      break;
    }
  }
  return { browserName, browserVersion, deviceType: deviceTypeOf(ua), devicePlatform: platformOf(ua) };
};

/** The user agent of this browser, '' where there is none (tests, workers without navigator). */
export const currentUserAgent = (): string =>
  typeof navigator === 'undefined' ? '' : (navigator.userAgent ?? '');
