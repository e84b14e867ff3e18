/** Spec §9: how long the browser may take to find a position, in milliseconds. */
export const GEOLOCATION_TIMEOUT_MS = 5000;

/** Spec §5: high accuracy, 5000 ms timeout, never a cached position. */
export const LOCATION_OPTIONS: Readonly<PositionOptions> = Object.freeze({
  enableHighAccuracy: true,
  timeout: GEOLOCATION_TIMEOUT_MS,
  maximumAge: 0,
});

/** Spec §5: what both coordinates record when no position can be had. */
export const BYPASSED = 'Bypassed';

/** Spec §3: a location result carries its coordinates as strings. */
export type CapturedLocation = { latitude: string; longitude: string };

const browserGeolocation = (): Geolocation | undefined =>
  typeof navigator === 'undefined' ? undefined : navigator.geolocation;

/**
 * Asks the browser for the device's position once (spec §5) with `LOCATION_OPTIONS` and resolves
 * latitude and longitude in decimal degrees as strings (`'12.9715987'`). Never rejects: when
 * geolocation is unavailable, or the request is denied, fails or times out, both are `'Bypassed'`.
 * Note the browser's timeout only starts once permission is given; a prompt that is never
 * answered leaves the promise pending.
 */
export const captureLocation = (
  geolocation: Geolocation | undefined = browserGeolocation(),
): Promise<CapturedLocation> =>
  new Promise((resolve) => {
    const bypass = () => resolve({ latitude: BYPASSED, longitude: BYPASSED });
    if (!geolocation) {
      bypass();
      return;
    }
    try {
      geolocation.getCurrentPosition(
        (position) =>
          resolve({
            latitude: String(position.coords.latitude),
            longitude: String(position.coords.longitude),
          }),
        bypass,
        LOCATION_OPTIONS,
      );
    } catch {
      bypass();
    }
  });
