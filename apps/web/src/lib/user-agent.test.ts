import { describe, expect, it } from 'vitest';
import { parseUserAgent } from './user-agent';

const UA = {
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36',
  webViewAndroid:
    'Mozilla/5.0 (Linux; Android 13; Redmi Note 12; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68',
  firefoxLinux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  operaWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 OPR/111.0.0.0',
  headlessChromeLinux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/141.0.0.0 Safari/537.36',
} as const;

describe('parseUserAgent (spec §7 client headers)', () => {
  it.each([
    ['chromeAndroid', 'Chrome', '126.0.6478.122', 'mobile', 'android'],
    ['webViewAndroid', 'Android WebView', '125.0.6422.165', 'mobile', 'android'],
    ['samsung', 'Samsung Internet', '25.0', 'mobile', 'android'],
    ['androidTablet', 'Chrome', '126.0.0.0', 'tablet', 'android'],
    ['safariIphone', 'Safari', '17.5', 'mobile', 'ios'],
    ['chromeIphone', 'Chrome', '126.0.6478.54', 'mobile', 'ios'],
    ['safariIpad', 'Safari', '16.6', 'tablet', 'ios'],
    ['edgeWindows', 'Edge', '126.0.2592.68', 'desktop', 'windows'],
    ['firefoxLinux', 'Firefox', '127.0', 'desktop', 'linux'],
    ['safariMac', 'Safari', '17.5', 'desktop', 'macos'],
    ['operaWindows', 'Opera', '111.0.0.0', 'desktop', 'windows'],
    ['headlessChromeLinux', 'Chrome', '141.0.0.0', 'desktop', 'linux'],
  ] as const)('%s → %s %s, %s, %s', (key, browserName, browserVersion, deviceType, devicePlatform) => {
    expect(parseUserAgent(UA[key])).toEqual({ browserName, browserVersion, deviceType, devicePlatform });
  });

  it('gives unknowns for an empty or unrecognised user agent', () => {
    const unknown = {
      browserName: 'Unknown',
      browserVersion: '',
      deviceType: 'desktop',
      devicePlatform: 'unknown',
    };
    expect(parseUserAgent('')).toEqual(unknown);
    expect(parseUserAgent('curl/8.5.0')).toEqual(unknown);
  });
});
