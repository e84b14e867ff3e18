import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeFcm } from './fake-fcm';
import { createFcmGateway, fcmErrorOf, retryAfterMs } from './fcm.adapter';

let fake: Awaited<ReturnType<typeof startFakeFcm>>;
beforeEach(async () => {
  fake = await startFakeFcm();
});
afterEach(async () => {
  await fake.close();
});

const gateway = () =>
  createFcmGateway({ serviceAccount: fake.serviceAccount, apiUrl: fake.apiUrl, retryMinTimeoutMs: 10 });

describe('FCM HTTP v1 gateway (against a local fake that checks what it gets)', () => {
  it('sends a high-priority data message to the token, with a signed JWT grant reused across sends', async () => {
    const fcm = gateway();
    expect(await fcm.wake({ token: 'token-a', deviceId: 'device-a' })).toEqual({ kind: 'sent' });
    expect(await fcm.wake({ token: 'token-b', deviceId: 'device-b' })).toEqual({ kind: 'sent' });
    expect(fake.messages).toEqual([
      {
        token: 'token-a',
        data: { kind: 'wake', deviceId: 'device-a' },
        android: { priority: 'HIGH', ttl: '600s', collapse_key: 'kisht-wake' },
      },
      expect.objectContaining({ token: 'token-b' }),
    ]);
    expect(fake.tokenRequests).toBe(1);
  });

  it('says a dead token is unregistered, retries a 503, and gives up at once on a bad request', async () => {
    const fcm = gateway();
    fake.answer = () => ({ status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } });
    expect(await fcm.wake({ token: 'gone', deviceId: 'd' })).toEqual({
      kind: 'unregistered',
      fcmError: 'NOT_FOUND',
    });

    let calls = 0;
    fake.answer = () => {
      calls += 1;
      return calls < 3 ? { status: 503, body: { error: { code: 503 } } } : { status: 200, body: {} };
    };
    expect(await fcm.wake({ token: 'busy', deviceId: 'd' })).toEqual({ kind: 'sent' });
    expect(calls).toBe(3);

    calls = 0;
    fake.answer = () => {
      calls += 1;
      return { status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT' } } };
    };
    await expect(fcm.wake({ token: 'bad', deviceId: 'd' })).rejects.toThrow(/HTTP 400/);
    expect(calls).toBe(1);
  });

  it("stops at once on a token FCM will never take: 403 SENDER_ID_MISMATCH and 400 with FCM's own detail (issue 27)", async () => {
    const fcm = gateway();
    let calls = 0;
    fake.answer = () => {
      calls += 1;
      return {
        status: 403,
        body: {
          error: { code: 403, status: 'PERMISSION_DENIED', details: [{ errorCode: 'SENDER_ID_MISMATCH' }] },
        },
      };
    };
    expect(await fcm.wake({ token: 'other-project', deviceId: 'd' })).toEqual({
      kind: 'rejected',
      fcmError: 'SENDER_ID_MISMATCH',
    });
    expect(calls).toBe(1);
    fake.answer = () => {
      calls += 1;
      return {
        status: 400,
        body: {
          error: {
            code: 400,
            message: 'The registration token is not a valid FCM registration token',
            status: 'INVALID_ARGUMENT',
            details: [
              {
                '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError',
                errorCode: 'INVALID_ARGUMENT',
              },
            ],
          },
        },
      };
    };
    expect(await fcm.wake({ token: 'trunc', deviceId: 'd' })).toEqual({
      kind: 'rejected',
      fcmError: 'INVALID_ARGUMENT',
    });
    expect(calls).toBe(2);
  });

  it("names FCM's error for the audit log: its FcmError code, else the status, else the HTTP status (issue 27)", () => {
    const body = (error: unknown) => JSON.stringify({ error });
    expect(
      fcmErrorOf(404, body({ code: 404, status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] })),
    ).toBe('UNREGISTERED');
    expect(fcmErrorOf(403, body({ code: 403, status: 'PERMISSION_DENIED' }))).toBe('PERMISSION_DENIED');
    expect(fcmErrorOf(403, '<html>Forbidden</html>')).toBe('HTTP 403');
    expect(fcmErrorOf(400, body({ code: 400, status: 'x'.repeat(100) }))).toHaveLength(64);
  });

  it('honours Retry-After: no request until it has passed, for any token (issue 27)', async () => {
    const fcm = gateway();
    let calls = 0;
    fake.answer = () => {
      calls += 1;
      return {
        status: 429,
        body: { error: { code: 429, status: 'RESOURCE_EXHAUSTED' } },
        headers: { 'retry-after': '30' },
      };
    };
    await expect(fcm.wake({ token: 'a', deviceId: 'd' })).rejects.toThrow(/HTTP 429/);
    expect(calls).toBe(1);
    fake.answer = () => {
      calls += 1;
      return { status: 200, body: {} };
    };
    await expect(fcm.wake({ token: 'b', deviceId: 'e' })).rejects.toThrow(/wait until/);
    expect(calls).toBe(1);
    expect(retryAfterMs('120', 0)).toBe(120_000);
    expect(retryAfterMs(new Date(90_000).toUTCString(), 0)).toBe(90_000);
    expect(retryAfterMs('86400', 0)).toBe(600_000);
    expect(retryAfterMs('soon', 0)).toBeNull();
  });

  it('is refused a token for a grant signed with another key', async () => {
    const other = await startFakeFcm();
    try {
      const fcm = createFcmGateway({
        serviceAccount: { ...fake.serviceAccount, private_key: other.serviceAccount.private_key },
        apiUrl: fake.apiUrl,
        retryMinTimeoutMs: 10,
      });
      await expect(fcm.wake({ token: 't', deviceId: 'd' })).rejects.toThrow(/FCM token answered HTTP 400/);
      expect(fake.messages).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
