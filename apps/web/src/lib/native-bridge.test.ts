import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEVICE_DETAILS_REQUEST_URL,
  installNativeBridge,
  isNativeShell,
  MAX_DEVICE_DETAILS_LENGTH,
  requestDeviceDetails,
} from './native-bridge';

const ANDROID_WEBVIEW =
  'Mozilla/5.0 (Linux; Android 13; Redmi Note 12; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36';
const IOS_WKWEBVIEW =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const IOS_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

const setUserAgent = (value: string) => {
  Object.defineProperty(window.navigator, 'userAgent', { value, configurable: true });
};

const callBack = (json: unknown): boolean => {
  const callback = window.kishtSaveDeviceDetails;
  if (!callback) throw new Error('bridge not installed');
  return callback(json as string);
};

beforeEach(() => {
  localStorage.clear();
  delete window.kishtSaveDeviceDetails;
  installNativeBridge();
});

afterEach(() => {
  for (const frame of document.querySelectorAll('iframe')) frame.remove();
});

describe('window.kishtSaveDeviceDetails (native shell callback)', () => {
  it('saves valid details in deviceDetails and sets isAndroid from their os', () => {
    const json = JSON.stringify({
      deviceId: 'abc',
      manufacturer: 'Xiaomi',
      model: 'Redmi Note 12',
      os: 'Android',
    });
    expect(callBack(json)).toBe(true);
    expect(JSON.parse(localStorage.getItem('deviceDetails') ?? '')).toEqual(JSON.parse(json));
    expect(localStorage.getItem('isAndroid')).toBe('true');
  });

  it("sets isAndroid 'false' for another os and keeps it when no os is named", () => {
    localStorage.setItem('isAndroid', 'true');
    callBack('{"model":"iPhone 15"}');
    expect(localStorage.getItem('isAndroid')).toBe('true');
    callBack('{"model":"iPhone 15","os":"iOS"}');
    expect(localStorage.getItem('isAndroid')).toBe('false');
  });

  it('stores non-ASCII text \\u-escaped, so the value can be sent as a header', () => {
    callBack(JSON.stringify({ owner: 'रमेश', model: 'Galaxy' }));
    const stored = localStorage.getItem('deviceDetails') ?? '';
    expect(stored).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(stored)).toEqual({ owner: 'रमेश', model: 'Galaxy' });
  });

  it.each([
    ['not JSON', '{model:'],
    ['an array', '["a"]'],
    ['a scalar', '"android"'],
    ['null', 'null'],
    ['a nested object', '{"model":{"name":"x"}}'],
    ['an empty string', ''],
    ['an object instead of a string', { model: 'x' }],
    ['too long', JSON.stringify({ model: 'x'.repeat(MAX_DEVICE_DETAILS_LENGTH) })],
  ])('refuses %s and stores nothing', (_label, value) => {
    expect(callBack(value)).toBe(false);
    expect(localStorage.getItem('deviceDetails')).toBeNull();
  });

  it('replaces details saved before', () => {
    callBack('{"appVersion":"1.0"}');
    callBack('{"appVersion":"1.1"}');
    expect(localStorage.getItem('deviceDetails')).toBe('{"appVersion":"1.1"}');
  });
});

describe('isNativeShell', () => {
  it.each([
    ['an Android WebView', ANDROID_WEBVIEW, true],
    ['an iOS WKWebView', IOS_WKWEBVIEW, true],
    ['a shell that marks its user agent', `${CHROME_ANDROID} KishtShell/1.4.0`, true],
    ['Chrome on Android', CHROME_ANDROID, false],
    ['Safari on iPhone', IOS_SAFARI, false],
    ['an empty user agent', '', false],
  ])('%s → %s', (_label, userAgent, expected) => {
    expect(isNativeShell(userAgent)).toBe(expected);
  });
});

describe('requestDeviceDetails', () => {
  const jsdomUserAgent = window.navigator.userAgent;
  beforeEach(() => setUserAgent(ANDROID_WEBVIEW));
  afterEach(() => setUserAgent(jsdomUserAgent));

  it('does not ask from an ordinary browser', () => {
    setUserAgent(CHROME_ANDROID);
    expect(requestDeviceDetails()).toBe(false);
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('asks the shell through the special link when no details are stored', () => {
    vi.useFakeTimers();
    try {
      expect(requestDeviceDetails()).toBe(true);
      const frame = document.querySelector('iframe');
      expect(frame?.getAttribute('src')).toBe('kisht://device-details?callback=kishtSaveDeviceDetails');
      expect(DEVICE_DETAILS_REQUEST_URL).toBe(frame?.getAttribute('src'));
      vi.runAllTimers();
      expect(document.querySelector('iframe')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not ask again once details are stored', () => {
    localStorage.setItem('deviceDetails', '{"model":"x"}');
    expect(requestDeviceDetails()).toBe(false);
    expect(document.querySelector('iframe')).toBeNull();
  });
});
