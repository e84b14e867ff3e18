import { addDays, istDate } from '@kisht/domain/common/time';
import { paths } from '@kisht/domain/paths';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { loadConfig } from '../../config';
import { queryRows } from '../../db/client';
import { DEMO_CUSTOMER_MOBILE, DEMO_ORG_ID } from '../../db/seed/seed';
import { apiPost, customerIdNamed } from '../../test/fixtures';
import { routeTest as it } from '../../test/route-test';
import { PRODUCTION_ENV } from '../../test/test-env';

/**
 * The job clock (config JOB_CLOCK): a periodic job run once as if it were a named instant, only
 * where the flag is on and never in production.
 */

const run = paths.jobClock.run;
const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

describe('the job clock', () => {
  it('is not there unless JOB_CLOCK is set, and production refuses it', async ({ t, retailer }) => {
    expect((await apiPost(t, retailer, run, { job: 'auto_lock', at: new Date().toISOString() })).status).toBe(
      404,
    );
    expect(() => loadConfig({ ...PRODUCTION_ENV, JOB_CLOCK: 'true' })).toThrow(
      /JOB_CLOCK: JOB_CLOCK runs the jobs at any instant anyone names; it is refused in production/,
    );
    expect(loadConfig({ NODE_ENV: 'development' }).JOB_CLOCK).toBe(false);
  });

  describe('with JOB_CLOCK on', () => {
    it.override('appOverrides', { JOB_CLOCK: 'true' });

    it('runs the ladder as of a later day: the overdue phone is locked then, not today', async ({
      t,
      retailer,
      make,
    }) => {
      await make.orgSettings({
        autoLock: { reminderDaysBefore: null, lockAfterDaysOverdue: 3, autoUnlock: true },
      });
      const aarav = await customerIdNamed(t, retailer, 'Aarav');
      await make.overdue(aarav, { daysOverdue: 2 });
      const locksOf = async () =>
        (
          await queryRows<{ n: number }>(
            t.app.ctx.db,
            sql`select count(*)::int as n from device_commands c join devices d on d.id = c.device_id
                where d.customer_id = ${aarav} and c.name = 'lock'`,
          )
        )[0]!.n;
      const at = (date: string) => `${date}T10:00:00+05:30`;
      const today = await apiPost(t, retailer, run, { job: 'auto_lock', at: at(istDate()) });
      expect(today.status, JSON.stringify(today.body)).toBe(200);
      expect(today.body.data.counts.locks).toBe(0);
      expect(await locksOf()).toBe(0);
      const later = await apiPost(t, retailer, run, { job: 'auto_lock', at: at(addDays(istDate(), 2)) });
      expect(later.body.data).toMatchObject({ job: 'auto_lock', counts: { locks: expect.any(Number) } });
      expect(later.body.data.counts.locks).toBeGreaterThanOrEqual(1);
      expect(await locksOf()).toBe(1);
    });

    it('runs the payment reminders and the AutoPay charges, answering their counts', async ({
      t,
      retailer,
    }) => {
      const reminders = await apiPost(t, retailer, run, {
        job: 'payment_reminders',
        at: '2026-12-10T10:00:00+05:30',
      });
      expect(reminders.status, JSON.stringify(reminders.body)).toBe(200);
      expect(Object.keys(reminders.body.data.counts).sort()).toEqual(['planned', 'sent']);
      const charges = await apiPost(t, retailer, run, {
        job: 'autopay_charges',
        at: '2026-12-10T10:00:00+05:30',
      });
      expect(charges.status, JSON.stringify(charges.body)).toBe(200);
      expect(charges.body.data.counts).toEqual({ created: 0 });
    });

    it('refuses bad input naming the field, a customer (403) and no session (511, spec §8)', async ({
      t,
      retailer,
    }) => {
      for (const [body, field] of [
        [{ at: '2026-12-10T10:00:00+05:30' }, 'job'],
        [{ job: 'rm -rf', at: '2026-12-10T10:00:00+05:30' }, 'job'],
        [{ job: 'auto_lock' }, 'at'],
        [{ job: 'auto_lock', at: '10-12-2026' }, 'at'],
        [{ job: 'auto_lock', at: '2026-12-10T10:00:00' }, 'at'],
      ] as const) {
        const refused = await apiPost(t, retailer, run, body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(fieldsOf(refused.body)).toEqual([field]);
      }
      const priyaUser = await t.tokenFor(DEMO_ORG_ID, DEMO_CUSTOMER_MOBILE);
      const priya = await customerIdNamed(t, retailer, 'Priya');
      expect(priya).toBeGreaterThan(0);
      expect(
        (await apiPost(t, priyaUser, run, { job: 'auto_lock', at: '2026-12-10T10:00:00+05:30' })).status,
      ).toBe(403);
      const anonymous = await t.app.inject({
        method: 'POST',
        url: run,
        payload: { job: 'auto_lock', at: '2026-12-10T10:00:00+05:30' },
      });
      expect(anonymous.statusCode).toBe(511);
    });
  });
});
