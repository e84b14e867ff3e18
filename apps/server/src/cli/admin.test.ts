import { AppType } from '@kisht/domain/common/enums';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client';
import { auditLog, users } from '../db/schema';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../db/seed/seed';
import type { TActor } from '../lib/actor';
import { getKeyBalances } from '../modules/ledger/ledger.service';
import { openTestPglite } from '../test/harness';
import { runAdminCommand, UsageError } from './admin';

/** The admin CLI's commands, run on a PGlite holding the demo seed. */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ pglite: await openTestPglite(), migrate: false });
});
afterAll(() => handle.close());

const run = (line: string[]) => runAdminCommand(handle.db, line);

describe('admin CLI', () => {
  it('creates an organisation admin, once per mobile, audited', async () => {
    const said = await run([
      'create-admin',
      '--org',
      '41',
      '--mobile',
      '98765 11111',
      '--name',
      'Asha Admin',
    ]);
    expect(said).toMatch(/^Created admin \d+ in organisation 41/);
    const [admin] = await handle.db
      .select()
      .from(users)
      .where(and(eq(users.mobile, '+919876511111'), eq(users.userType, 'admin')));
    expect(admin).toMatchObject({ orgId: DEMO_ORG_ID, name: 'Asha Admin' });
    const audits = await handle.db.select().from(auditLog).where(eq(auditLog.action, 'user.create_admin'));
    expect(audits.map((a) => a.entityId)).toEqual([String(admin!.id)]);
    await expect(
      run(['create-admin', '--org', '41', '--mobile', '9876511111', '--name', 'Again']),
    ).rejects.toMatchObject({
      code: 'MOBILE_IN_USE',
    });
    await expect(
      run(['create-admin', '--org', '999', '--mobile', '9876511112', '--name', 'X']),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      run(['create-admin', '--org', '41', '--mobile', '12345', '--name', 'X']),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('credits keys to a retailer by mobile', async () => {
    const [retailer] = await handle.db
      .select()
      .from(users)
      .where(and(eq(users.mobile, DEMO_RETAILER_MOBILE), eq(users.userType, 'retailer')));
    const actor: TActor = {
      userId: retailer!.id,
      orgId: DEMO_ORG_ID,
      userType: 'retailer',
      sessionId: 'cli-test',
    };
    const before = (await getKeyBalances(handle.db, { actor })).find(
      (b) => b.appType === AppType.ANTI_HACKING_PRO,
    );
    const said = await run([
      'credit-keys',
      '--org',
      '41',
      '--retailer-mobile',
      '9876543210',
      '--app-type',
      String(AppType.ANTI_HACKING_PRO),
      '--quantity',
      '10',
      '--note',
      'Opening stock',
    ]);
    expect(said).toMatch(/^Credited 10 keys of app type 12/);
    const after = (await getKeyBalances(handle.db, { actor })).find(
      (b) => b.appType === AppType.ANTI_HACKING_PRO,
    );
    expect(after?.balance).toBe((before?.balance ?? 0) + 10);
    await expect(
      run([
        'credit-keys',
        '--org',
        '46',
        '--retailer-mobile',
        '9876543210',
        '--app-type',
        '0',
        '--quantity',
        '1',
      ]),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });

  it('refuses a bad command line, naming what is wrong', async () => {
    await expect(
      run([
        'credit-keys',
        '--org',
        '41',
        '--retailer-mobile',
        '9876543210',
        '--app-type',
        '3',
        '--quantity',
        '1',
      ]),
    ).rejects.toThrow(/--app-type/);
    await expect(
      run([
        'credit-keys',
        '--org',
        '41',
        '--retailer-mobile',
        '9876543210',
        '--app-type',
        '0',
        '--quantity',
        '0',
      ]),
    ).rejects.toThrow(/--quantity/);
    await expect(run(['create-admin', '--org', '41', '--mobile', '9876511113'])).rejects.toThrow(
      /--name is required/,
    );
    await expect(run(['delete-everything'])).rejects.toBeInstanceOf(UsageError);
  });
});
