import { afterEach, describe, expect, it } from 'vitest';
import {
  conformanceCheckNames,
  formatConformanceResults,
  runConformanceChecks,
  type TConformanceCheckResult,
} from './checks';
import { createDeviceAgentAdapter, type TDeviceAgentAdapter } from './device-agent-adapter';
import { createFlawedDevice } from './flawed-device';

const adapters: TDeviceAgentAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
});

const statusOf = (results: TConformanceCheckResult[], prefix: string) =>
  results.find((result) => result.name.startsWith(prefix));

describe('the reference DeviceAgent', () => {
  it('passes every conformance check', async () => {
    const adapter = createDeviceAgentAdapter({ trackingIntervalMs: 100 });
    adapters.push(adapter);

    const results = await runConformanceChecks(adapter, { trackingReportWithinMs: 1000, settleMs: 200 });

    const report = formatConformanceResults(results);
    expect(
      results.filter((result) => result.status !== 'passed'),
      report,
    ).toEqual([]);
    expect(results.map((result) => result.name)).toEqual(conformanceCheckNames());
    // One check per catalogue entry, the invalid-args checks, and the protocol checks all ran.
    expect(results.length).toBeGreaterThan(35);
    expect(adapter.agent?.isUninstalled).toBe(true);
  }, 90_000);

  it('passes the core checks over MQTT over WebSocket too', async () => {
    const adapter = createDeviceAgentAdapter();
    adapters.push(adapter);

    const results = await runConformanceChecks(adapter, {
      transport: 'ws',
      includeUninstall: false,
      filter: (name) =>
        /^(lock|apply-once|offline|restart|signatures|stale|cancel|sync|policy versions|catalogue: location|events)/.test(
          name,
        ),
    });

    const ran = results.filter((result) => result.status !== 'skipped');
    expect(
      ran.every((result) => result.status === 'passed'),
      formatConformanceResults(ran),
    ).toBe(true);
    // connect, lock, apply-once, offline, restart, catalogue: location, events, the four offline
    // code checks, signatures, two stale, two cancel, sync and policy versions.
    expect(ran.length).toBe(18);
  }, 60_000);
});

describe('the conformance suite catches a broken device', () => {
  const FAST = { timeoutMs: 1500, settleMs: 200, includeUninstall: false } as const;

  it('that never acks', async () => {
    const results = await runConformanceChecks(createFlawedDevice('never-acks'), {
      ...FAST,
      stopOnFailure: true,
    });

    expect(statusOf(results, 'connect:')?.status).toBe('passed');
    expect(statusOf(results, 'lock:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/no final ack of lock/),
    });
    expect(results.slice(2).every((result) => result.status === 'skipped')).toBe(true);
  }, 30_000);

  it('that acks done twice', async () => {
    const results = await runConformanceChecks(createFlawedDevice('double-done'), {
      ...FAST,
      filter: (name) => name.startsWith('lock:') || name.startsWith('events:'),
    });

    expect(statusOf(results, 'lock:')).toMatchObject({
      status: 'failed',
      error: 'lock was acked [received, done, done], expected [received, done]',
    });
    expect(statusOf(results, 'events:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/got 2 final acks for 1 deliveries/),
    });
  }, 30_000);

  it('that blocks emergency calls on its lock screen, and skips the check without the hook', async () => {
    const isLockScreenCheck = (name: string) => name.startsWith('emergency calls:');
    const results = await runConformanceChecks(createFlawedDevice('blocks-emergency-calls'), {
      ...FAST,
      filter: isLockScreenCheck,
    });
    expect(statusOf(results, 'emergency calls:')).toMatchObject({
      status: 'failed',
      error: 'the lock screen does not allow emergency calls',
    });

    const withoutHook = await runConformanceChecks(createFlawedDevice('double-done'), {
      ...FAST,
      filter: isLockScreenCheck,
    });
    expect(statusOf(withoutHook, 'emergency calls:')).toMatchObject({
      status: 'skipped',
      error: 'the adapter has no lockScreen',
    });
  }, 30_000);

  it('that applies a re-delivered id again', async () => {
    const results = await runConformanceChecks(createFlawedDevice('applies-twice'), {
      ...FAST,
      filter: (name) => name.startsWith('apply-once:'),
    });

    expect(statusOf(results, 'apply-once:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/applied again/),
    });
  }, 30_000);

  it('that forgets its state when it restarts', async () => {
    const results = await runConformanceChecks(createFlawedDevice('forgets-on-restart'), {
      ...FAST,
      filter: (name) => name.startsWith('restart:'),
    });

    expect(statusOf(results, 'restart:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/hello reports isLocked false/),
    });
  }, 30_000);

  it('that connects with a clean session, and one that does not know the catalogue', async () => {
    const results = await runConformanceChecks(createFlawedDevice('clean-session'), {
      ...FAST,
      filter: (name) => name.startsWith('catalogue: camera_lock') || name.startsWith('catalogue: location'),
    });

    expect(statusOf(results, 'connect:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/clean session on/),
    });
    // It acks done without reporting controls, and without a location result.
    expect(statusOf(results, 'catalogue: camera_lock')).toMatchObject({
      status: 'failed',
      error: 'after camera_lock the done ack reports camera_lock = undefined, not true',
    });
    expect(statusOf(results, 'catalogue: location')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/location result is not a location fix/),
    });
  }, 30_000);

  it('that never burns its offline challenge, and skips the offline code checks without the hooks', async () => {
    const isOfflineCodeCheck = (name: string) => name.startsWith('offline code:');
    const results = await runConformanceChecks(createFlawedDevice('never-burns'), {
      ...FAST,
      filter: isOfflineCodeCheck,
    });

    expect(statusOf(results, 'offline code: a valid code')?.status).toBe('passed');
    expect(statusOf(results, 'offline code: a used code')).toMatchObject({
      status: 'failed',
      error: 'the challenge 424242 was not replaced after its code was accepted',
    });
    expect(statusOf(results, 'offline code: wrong codes')).toMatchObject({
      status: 'failed',
      error: 'wrong code 5 was answered wrong, not challenge_changed',
    });

    const without = await runConformanceChecks(createFlawedDevice('double-done'), {
      ...FAST,
      filter: isOfflineCodeCheck,
    });
    expect(without.filter((result) => isOfflineCodeCheck(result.name))).toEqual(
      Array.from({ length: 4 }, () =>
        expect.objectContaining({
          status: 'skipped',
          error: 'the adapter has no offlineChallenge and enterOfflineCode',
        }),
      ),
    );
  }, 30_000);

  it('that applies unsigned version-1 messages', async () => {
    const results = await runConformanceChecks(createFlawedDevice('trusts-unsigned'), {
      ...FAST,
      filter: (name) => name.startsWith('signatures:') || name.startsWith('events:'),
    });

    expect(statusOf(results, 'signatures:')).toMatchObject({
      status: 'failed',
      error: 'an unsigned v1 lock command was acked [received, done]: it must be ignored',
    });
    expect(statusOf(results, 'events:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/ack for a command never sent/),
    });
  }, 30_000);

  it('that does not check signatures', async () => {
    const results = await runConformanceChecks(createFlawedDevice('unverified-signatures'), {
      ...FAST,
      filter: (name) => name.startsWith('signatures:'),
    });

    expect(statusOf(results, 'signatures:')).toMatchObject({
      status: 'failed',
      error:
        'a policy whose body was changed after it was signed was acked [received, done]: it must be ignored',
    });
  }, 30_000);

  it('that applies what arrives before its sync', async () => {
    const results = await runConformanceChecks(createFlawedDevice('no-sync-barrier'), {
      ...FAST,
      filter: (name) => /^(stale|cancel|sync):/.test(name),
    });

    // What it gets while online it handles right.
    expect(statusOf(results, 'stale: a command past')?.status).toBe('passed');
    expect(statusOf(results, 'cancel: a command whose cancel')?.status).toBe('passed');
    expect(statusOf(results, 'stale: a lock superseded')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(
        /^a lock superseded while the device was offline was applied: it reported isLocked true/,
      ),
    });
    expect(statusOf(results, 'cancel: a lock and a command cancelled')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^a lock cancelled while the device was offline was applied/),
    });
    expect(statusOf(results, 'sync:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^the device applied a message before the sync answering its hello/),
    });
  }, 30_000);

  it('that takes a sync meant for an earlier connection', async () => {
    const results = await runConformanceChecks(createFlawedDevice('accepts-any-sync'), {
      ...FAST,
      filter: (name) => /^(stale|cancel|sync):/.test(name),
    });

    expect(
      results.filter((result) => /^(stale|cancel):/.test(result.name)).map((result) => result.status),
    ).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(statusOf(results, 'sync:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^the device applied a message before the sync answering its hello/),
    });
  }, 30_000);

  it('that ignores cancels', async () => {
    const results = await runConformanceChecks(createFlawedDevice('ignores-cancel'), {
      ...FAST,
      filter: (name) => name.startsWith('cancel:'),
    });

    expect(statusOf(results, 'cancel: a command whose cancel')).toMatchObject({
      status: 'failed',
      error: 'a command whose cancel came first was acked [received, done]: the cancel was ignored',
    });
  }, 30_000);

  it('that applies commands past their notAfter', async () => {
    const results = await runConformanceChecks(createFlawedDevice('ignores-not-after'), {
      ...FAST,
      filter: (name) => name.startsWith('stale:'),
    });

    expect(statusOf(results, 'stale: a command past')).toMatchObject({
      status: 'failed',
      error: 'a command 60 s past its notAfter was acked [received, done], expected [dropped]',
    });
    expect(statusOf(results, 'stale: a lock superseded')?.status).toBe('passed');
  }, 30_000);

  it('that applies an older policy version', async () => {
    const results = await runConformanceChecks(createFlawedDevice('applies-old-versions'), {
      ...FAST,
      filter: (name) => name.startsWith('policy versions:'),
    });

    expect(statusOf(results, 'policy versions:')).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(
        /^the lock of an older policy version \(\d+\) replayed was acked \[received, done\]/,
      ),
    });
  }, 30_000);

  it('that the suite cannot stop: the checks that take it offline are skipped', async () => {
    const device = createFlawedDevice('double-done');
    const results = await runConformanceChecks(
      { start: device.start },
      { ...FAST, filter: (name) => /^(offline|restart|stale|cancel|sync):/.test(name) },
    ).finally(() => device.stop?.());

    expect(
      results
        .filter((result) => /^(offline|restart|stale|cancel|sync):/.test(result.name))
        .map((r) => [r.name.split(':')[0], r.status]),
    ).toEqual([
      ['offline', 'skipped'],
      ['restart', 'skipped'],
      ['stale', 'passed'],
      ['stale', 'skipped'],
      ['cancel', 'passed'],
      ['cancel', 'skipped'],
      ['sync', 'skipped'],
    ]);
    expect(statusOf(results, 'restart:')?.error).toBe(
      'the adapter cannot stop and restart the device (no stop)',
    );
  }, 30_000);
});
