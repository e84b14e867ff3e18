import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureLocation, GEOLOCATION_TIMEOUT_MS, LOCATION_OPTIONS } from './location';

type GetCurrentPosition = Geolocation['getCurrentPosition'];

const fakeGeolocation = (getCurrentPosition: GetCurrentPosition) => {
  const spy = vi.fn(getCurrentPosition);
  const geolocation = { getCurrentPosition: spy, watchPosition: vi.fn(), clearWatch: vi.fn() };
  return { geolocation: geolocation as unknown as Geolocation, getCurrentPosition: spy };
};

const position = (latitude: number, longitude: number) =>
  ({ coords: { latitude, longitude }, timestamp: 0 }) as GeolocationPosition;

const positionError = (code: number) =>
  ({
    code,
    message: 'failed',
    PERMISSION_DENIED: 1,
    POSITION_UNAVAILABLE: 2,
    TIMEOUT: 3,
  }) as GeolocationPositionError;

const BYPASSED = { latitude: 'Bypassed', longitude: 'Bypassed' };

describe('captureLocation (spec §5)', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  it('asks for a high-accuracy, uncached position with a 5000 ms timeout', async () => {
    const { geolocation, getCurrentPosition } = fakeGeolocation((success) => success(position(1, 2)));
    await captureLocation(geolocation);
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
    expect(getCurrentPosition.mock.calls[0]?.[2]).toEqual({
      enableHighAccuracy: true,
      timeout: 5000,
      maximumAge: 0,
    });
    expect(GEOLOCATION_TIMEOUT_MS).toBe(5000);
    expect(LOCATION_OPTIONS.timeout).toBe(GEOLOCATION_TIMEOUT_MS);
  });

  it.each([
    [12.9715987, 77.5945627, '12.9715987', '77.5945627'],
    [28.6139, 77.209, '28.6139', '77.209'],
    [-33.8688, 151.2093, '-33.8688', '151.2093'],
    [0, 0, '0', '0'],
  ])('resolves (%d, %d) as strings', async (latitude, longitude, expectedLatitude, expectedLongitude) => {
    const { geolocation } = fakeGeolocation((success) => success(position(latitude, longitude)));
    await expect(captureLocation(geolocation)).resolves.toEqual({
      latitude: expectedLatitude,
      longitude: expectedLongitude,
    });
  });

  it.each([
    ['denied', 1],
    ['unavailable', 2],
    ['timed out', 3],
  ])('records Bypassed when the request is %s', async (_reason, code) => {
    const { geolocation } = fakeGeolocation((_success, error) => error?.(positionError(code)));
    await expect(captureLocation(geolocation)).resolves.toEqual(BYPASSED);
  });

  it('records Bypassed when the browser has no geolocation', async () => {
    await expect(captureLocation(undefined)).resolves.toEqual(BYPASSED);
  });

  it('records Bypassed when getCurrentPosition throws', async () => {
    const { geolocation } = fakeGeolocation(() => {
      throw new Error('insecure context');
    });
    await expect(captureLocation(geolocation)).resolves.toEqual(BYPASSED);
  });

  it('waits for an answer that comes later', async () => {
    vi.useFakeTimers();
    try {
      const { geolocation } = fakeGeolocation((success) => {
        setTimeout(() => success(position(19.076, 72.8777)), 1000);
      });
      const result = captureLocation(geolocation);
      await vi.advanceTimersByTimeAsync(1000);
      await expect(result).resolves.toEqual({ latitude: '19.076', longitude: '72.8777' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses navigator.geolocation by default', async () => {
    const { geolocation, getCurrentPosition } = fakeGeolocation((success) =>
      success(position(22.5726, 88.3639)),
    );
    Object.defineProperty(navigator, 'geolocation', { configurable: true, value: geolocation });
    await expect(captureLocation()).resolves.toEqual({ latitude: '22.5726', longitude: '88.3639' });
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
  });

  it('records Bypassed by default when navigator has no geolocation (jsdom has none)', async () => {
    expect(navigator.geolocation).toBeUndefined();
    await expect(captureLocation()).resolves.toEqual(BYPASSED);
  });
});
