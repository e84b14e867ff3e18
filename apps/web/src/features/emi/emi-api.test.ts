import { paths } from '@kisht/domain/paths';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appConfigLoaded } from '../../lib/ui-slice';
import { stubApi } from '../../test/fake-api';
import { createTestStore } from '../../test/render-app';
import { emiApi } from './emi-api';
import { createEmiDetails } from './emi-fixtures';

const CSV = 'No.,Due date,Amount,Paid,Outstanding,Status\n1,05-01-2026,8814.86,8814.86,0.00,paid\n';

const signedInStore = () => {
  const store = createTestStore();
  store.dispatch(
    appConfigLoaded({
      requestTokenSecret: 'test-secret',
      authSessionWindowSeconds: 300,
      otpResendAfterSeconds: 30,
      defaultCacheSeconds: 300,
      plansCacheSeconds: 5,
    }),
  );
  return store;
};

/** A request's headers without those that differ by design: the per-request auth-session and the request-token (per path), and accept. */
const sharedHeaders = (request: Request | undefined) =>
  Object.fromEntries(
    [...(request?.headers.entries() ?? [])].filter(
      ([name]) => !['auth-session', 'request-token', 'accept'].includes(name),
    ),
  );

beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('deviceDetails', '{"model":"Redmi Note 12","os":"android"}');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('EMI schedule CSV', () => {
  it('goes through the one api with the same auth headers as the EMI details call', async () => {
    const api = stubApi({
      [paths.emi.details]: () => createEmiDetails(),
      [paths.emi.scheduleCsv]: () =>
        new Response(CSV, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),
    });
    const store = signedInStore();
    await store.dispatch(emiApi.endpoints.getEmiDetails.initiate(5)).unwrap();
    const csv = await store.dispatch(emiApi.endpoints.getEmiScheduleCsv.initiate(5)).unwrap();

    expect(csv).toBe(CSV);
    const [detailsCall] = api.requestsTo(paths.emi.details);
    const [csvCall] = api.requestsTo(paths.emi.scheduleCsv);
    expect(new URL(csvCall?.url ?? '').searchParams.get('customer_id')).toBe('5');
    expect(sharedHeaders(csvCall)).toEqual(sharedHeaders(detailsCall));
    expect(csvCall?.headers.get('authorization')).toBe('Bearer jwt-123');
    expect(csvCall?.headers.get('device-details')).toBe('{"model":"Redmi Note 12","os":"android"}');
    expect(csvCall?.headers.get('platform')).toBe('mobile');
    expect(csvCall?.headers.get('auth-session')).toMatch(/^[0-9a-f]{32}:[0-9a-f]+$/);
    expect(csvCall?.headers.get('request-token')).toBeTruthy();
  });
});
