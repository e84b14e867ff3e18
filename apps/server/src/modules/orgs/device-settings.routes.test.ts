import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { queryRows } from '../../db/client';
import { DEMO_ORG_ID, SECOND_ORG_ID } from '../../db/seed/seed';
import { apiGet, apiPut, enrolReferenceAgent, waitUntil } from '../../test/fixtures';
import type { TestApp } from '../../test/harness';
import { routeTest as it } from '../../test/route-test';

/** device_settings: an organisation's allowed list, offline limit, command expiry and auto-lock ladder. */
let t: TestApp;
let retailer: string;

// The file's helpers below act as the test's app and retailer (routeTest fixtures).
it.beforeEach(({ t: app, retailer: token }) => {
  t = app;
  retailer = token;
});

const settingsOf = async (orgId: number) =>
  (
    await queryRows<{ settings: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`select settings from organizations where id = ${orgId}`,
    )
  )[0]!.settings;

const fullSettings = {
  allowedControls: ['lock', 'camera_lock', 'fetch_location'],
  offlineLockAfterHours: 72,
  commandExpiryHours: 48,
  autoLock: { reminderDaysBefore: 2, lockAfterDaysOverdue: 5, autoUnlock: true },
  lockScreenText: 'Pay by UPI to ravimobiles@okaxis\nor at Shop 4, Andheri West',
};

describe('device_settings', () => {
  it('reads, replaces and clears the settings, keeping the organisation’s other settings', async ({
    miniRetailer: mini,
  }) => {
    const initial = await apiGet(t, retailer, paths.orgs.deviceSettings);
    expect(initial.status).toBe(200);
    expect(initial.body.data).toEqual({
      allowedControls: null,
      offlineLockAfterHours: null,
      commandExpiryHours: null,
      autoLock: null,
      lockScreenText: null,
      // The paid-through lock is on by default (issue 29).
      paidThroughGraceDays: 3,
    });
    const penalty = (await settingsOf(DEMO_ORG_ID)).penalty;
    expect(penalty).toBeDefined();

    const saved = await apiPut(t, retailer, paths.orgs.deviceSettings, fullSettings);
    expect(saved.status).toBe(200);
    // The seed's three enrolled phones of organisation 41 are told the new offline limit.
    expect(saved.body.message).toBe('Settings saved; 3 phones get the new offline limit');
    expect(saved.body.data).toEqual({ ...fullSettings, paidThroughGraceDays: 3 });
    expect(await settingsOf(DEMO_ORG_ID)).toMatchObject({ ...fullSettings, penalty });
    // A mini-retailer reads the same settings (and may not change them, below).
    expect((await apiGet(t, mini, paths.orgs.deviceSettings)).body.data).toEqual({
      ...fullSettings,
      paidThroughGraceDays: 3,
    });

    const cleared = await apiPut(t, retailer, paths.orgs.deviceSettings, {
      allowedControls: null,
      offlineLockAfterHours: null,
      commandExpiryHours: null,
      autoLock: null,
      lockScreenText: null,
    });
    expect(cleared.status).toBe(200);
    const stored = await settingsOf(DEMO_ORG_ID);
    expect(stored).not.toHaveProperty('allowedControls');
    expect(stored).not.toHaveProperty('autoLock');
    expect(stored).not.toHaveProperty('lockScreenText');
    expect(stored.penalty).toEqual(penalty);
    const audits = await queryRows(
      t.app.ctx.db,
      sql`select 1 from audit_log where action = 'org.device_settings' and org_id = ${DEMO_ORG_ID}`,
    );
    expect(audits).toHaveLength(2);
  });

  it('refuses bad values naming the field, and writes nothing', async () => {
    const before = await settingsOf(DEMO_ORG_ID);
    for (const [patch, field] of [
      [{ allowedControls: ['lock', 'self_destruct'] }, 'allowedControls.1'],
      [{ offlineLockAfterHours: 0 }, 'offlineLockAfterHours'],
      [{ commandExpiryHours: 1.5 }, 'commandExpiryHours'],
      [
        { autoLock: { reminderDaysBefore: 2, lockAfterDaysOverdue: -1, autoUnlock: true } },
        'autoLock.lockAfterDaysOverdue',
      ],
      [{ autoLock: { reminderDaysBefore: 2, lockAfterDaysOverdue: 3 } }, 'autoLock.autoUnlock'],
      // The lock-screen text: 5 to 300 characters after trimming, 6 lines at most, plain text.
      [{ lockScreenText: '  UPI ' }, 'lockScreenText'],
      [{ lockScreenText: 'x'.repeat(301) }, 'lockScreenText'],
      [{ lockScreenText: 'one\ntwo\nthree\nfour\nfive\nsix\nseven' }, 'lockScreenText'],
      [{ lockScreenText: 'Pay at the shop\u0007' }, 'lockScreenText'],
      [{ lockScreenText: 42 }, 'lockScreenText'],
    ] as const) {
      const refused = await apiPut(t, retailer, paths.orgs.deviceSettings, { ...fullSettings, ...patch });
      expect(refused.status).toBe(400);
      expect(refused.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const missing = await apiPut(t, retailer, paths.orgs.deviceSettings, { allowedControls: null });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.map((f: { field: string }) => f.field)).toContain('autoLock');
    expect(missing.body.fields.map((f: { field: string }) => f.field)).toContain('lockScreenText');
    expect(await settingsOf(DEMO_ORG_ID)).toEqual(before);
  });

  it('lets only the retailer change them; each organisation sees its own', async ({
    miniRetailer: mini,
    otherRetailer: other,
  }) => {
    const before = await settingsOf(DEMO_ORG_ID);
    const refused = await apiPut(t, mini, paths.orgs.deviceSettings, fullSettings);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only the retailer can change these settings');
    expect(await settingsOf(DEMO_ORG_ID)).toEqual(before);

    const otherBefore = await settingsOf(SECOND_ORG_ID);
    expect((await apiPut(t, other, paths.orgs.deviceSettings, fullSettings)).status).toBe(200);
    expect(await settingsOf(DEMO_ORG_ID)).toEqual(before);
    expect((await apiGet(t, retailer, paths.orgs.deviceSettings)).body.data.autoLock).toBeNull();
    expect(await settingsOf(SECOND_ORG_ID)).toMatchObject({ ...fullSettings, penalty: otherBefore.penalty });
  });

  it('needs a session', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: paths.orgs.deviceSettings });
    expect(anonymous.statusCode).toBe(511);
  });
});

describe('device_settings: a new offline limit reaches enrolled phones', () => {
  it('gives every enrolled phone a policy version with the new limit; the agent adopts it, the newest wins', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const stateDir = mkdtempSync(join(tmpdir(), 'kisht-settings-'));
    const { agent } = await enrolReferenceAgent(t, retailer, join(stateDir, 'phone.json'));
    try {
      expect(agent.offlineLockAfterMs).toBeNull();
      const enrolled = Number(
        (
          await queryRows(
            t.app.ctx.db,
            sql`select count(*)::int as n from devices where org_id = ${DEMO_ORG_ID}
                and enrolled_at is not null and secret_hash is not null`,
          )
        )[0]!.n,
      );
      const policyOf = async () =>
        (
          await queryRows<{ version: number; limit: number | null }>(
            t.app.ctx.db,
            sql`select policy_version::int as version, desired_offline_lock_after_ms::int as limit
                from devices where id = ${agent.deviceId}`,
          )
        )[0]!;
      const first = await policyOf();
      const saved = await apiPut(t, retailer, paths.orgs.deviceSettings, {
        ...fullSettings,
        offlineLockAfterHours: 72,
      });
      expect(saved.status).toBe(200);
      expect(saved.body.message).toBe(`Settings saved; ${enrolled} phones get the new offline limit`);
      expect(await policyOf()).toEqual({ version: first.version + 1, limit: 72 * 3_600_000 });
      await waitUntil(async () => agent.offlineLockAfterMs === 72 * 3_600_000);
      // No command row: the limit is part of what the phone should be.
      const commands = await queryRows(
        t.app.ctx.db,
        sql`select id from device_commands where device_id = ${agent.deviceId}`,
      );
      expect(commands).toEqual([]);

      // Unchanged limit: no new version.
      const same = await apiPut(t, retailer, paths.orgs.deviceSettings, {
        ...fullSettings,
        offlineLockAfterHours: 72,
        commandExpiryHours: null,
      });
      expect(same.body.message).toBe('Settings saved');
      expect((await policyOf()).version).toBe(first.version + 1);

      // While the phone is off, two changes: it comes back to the newest.
      await agent.stop();
      await apiPut(t, retailer, paths.orgs.deviceSettings, { ...fullSettings, offlineLockAfterHours: 24 });
      await apiPut(t, retailer, paths.orgs.deviceSettings, { ...fullSettings, offlineLockAfterHours: null });
      expect(await policyOf()).toEqual({ version: first.version + 3, limit: null });
      await agent.start();
      await waitUntil(async () => agent.offlineLockAfterMs === null);
      expect(agent.state.policy?.version).toBe(first.version + 3);
    } finally {
      await agent.stop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
