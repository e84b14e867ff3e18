import { randomBytes } from 'node:crypto';
import { AppType, type TAppType } from '@kisht/domain/common/enums';
import type { AppError } from '@kisht/domain/common/errors';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, type Db, type DbOrTx, openDatabase } from '../../db/client';
import { ledgerMovements, products, users } from '../../db/schema';
import {
  createCustomerWithLoan,
  createOrganization,
  createProducts,
  createUser,
  nextImei,
} from '../../db/seed/factories';
import { DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import type { TActor } from '../../lib/actor';
import { openTestPglite } from '../../test/harness';
import { checkInvariants } from '../../test/ledger-invariants';
import { databaseUrl, isPostgresReachable } from '../../test/scratch-postgres';
import {
  creditRetailerKeys,
  getKeyBalances,
  reserveEnrolmentKey,
  spendReservedKey,
  transferKeys,
} from './ledger.service';

/**
 * What an enrolment costs (issue 27): the QR reserves a key, the phone's enrolment spends it, in
 * the caller's transaction. `isCharged` is whether the QR reserved one.
 */
const spendEnrolmentKey = async (
  tx: DbOrTx,
  options: Parameters<typeof reserveEnrolmentKey>[1],
): Promise<{ isCharged: boolean }> => {
  const { isReserved } = await reserveEnrolmentKey(tx, options);
  await spendReservedKey(tx, options);
  return { isCharged: isReserved };
};

/** A small seeded PRNG (mulberry32), so a failing run can be replayed from its seed. */
const prng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

const actorOf = (user: { id: number; orgId: number; userType: string }): TActor => ({
  userId: user.id,
  orgId: user.orgId,
  userType: user.userType as TActor['userType'],
  sessionId: 'test',
});

let raceRetailers = 0;
/** A fresh retailer with `keys` DPC keys and two inactive customers. */
const raceSetup = async (db: Db, orgId: number, keys: number) => {
  const [product] = await db.select().from(products).where(eq(products.orgId, orgId)).limit(1);
  raceRetailers += 1;
  const retailer = await createUser(db, {
    orgId,
    mobile: `+91970000${String(raceRetailers).padStart(4, '0')}`,
    name: 'Race Mobiles',
    keys: { [AppType.DEVICE_POLICY_CONTROLLER]: keys },
  });
  const made = [];
  for (let i = 0; i < 2; i += 1)
    made.push(await createCustomerWithLoan(db, { orgId, retailerId: retailer.id, product: product! }));
  return { retailer, made };
};

/** Two enrolment keys spent at once in parallel transactions by a retailer holding one key. */
const raceTwoSpends = async (db: Db, orgId: number) => {
  const { retailer, made } = await raceSetup(db, orgId, 1);
  const results = await Promise.allSettled(
    made.map(({ customer, device }) =>
      db.transaction(async (tx) => {
        const spent = await spendEnrolmentKey(tx, {
          orgId,
          retailerId: retailer.id,
          customerId: customer.id,
          appType: AppType.DEVICE_POLICY_CONTROLLER,
          imei: device.imei1,
          actorUserId: retailer.id,
        });
        // Hold the transaction open a little, so the other really runs against it.
        await tx.execute(sql`select pg_sleep(0.05)`);
        return spent;
      }),
    ),
  );
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  const rejected = results.filter((r) => r.status === 'rejected');
  expect(rejected).toHaveLength(1);
  expect(((rejected[0] as PromiseRejectedResult).reason as AppError).code).toBe('NO_KEYS');
  expect(await getKeyBalances(db, { actor: actorOf(retailer) })).toEqual([
    { appType: AppType.DEVICE_POLICY_CONTROLLER, balance: 0, level: 'low' },
  ]);
  const reservations = await db
    .select()
    .from(ledgerMovements)
    .where(and(eq(ledgerMovements.kind, 'reserve'), eq(ledgerMovements.actorUserId, retailer.id)));
  expect(reservations).toHaveLength(1);
  const uses = await db
    .select()
    .from(ledgerMovements)
    .where(
      and(eq(ledgerMovements.kind, 'key_use'), eq(ledgerMovements.customerId, reservations[0]!.customerId!)),
    );
  expect(uses).toHaveLength(1);
  await checkInvariants(db);
};

describe('ledger on PGlite', () => {
  let handle: DatabaseHandle;
  let db: Db;
  let ravi: typeof users.$inferSelect;

  beforeAll(async () => {
    handle = await openDatabase({ pglite: await openTestPglite(), migrate: false });
    db = handle.db;
    [ravi] = (await db
      .select()
      .from(users)
      .where(
        and(
          eq(users.orgId, DEMO_ORG_ID),
          eq(users.mobile, DEMO_RETAILER_MOBILE),
          eq(users.userType, 'retailer'),
        ),
      )) as [typeof users.$inferSelect];
  });
  afterAll(() => handle.close());

  it('keeps every balance equal to the sum of its entries through random credits, transfers, key uses and over-spends', async () => {
    const seed = 20_260_713;
    const random = prng(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
    const retailers = [];
    for (let i = 0; i < 3; i += 1)
      retailers.push(
        await createUser(db, { orgId: DEMO_ORG_ID, mobile: `+91960000000${i}`, name: `Prop ${i}`, keys: {} }),
      );
    const minis = [];
    for (let i = 0; i < 4; i += 1) {
      const parent = retailers[i % 2]!;
      minis.push(
        await createUser(db, {
          orgId: DEMO_ORG_ID,
          mobile: `+91961000000${i}`,
          name: `Prop mini ${i}`,
          userType: 'miniretailer',
          parentId: parent.id,
          keys: {},
        }),
      );
    }
    const [product] = await db.select().from(products).where(eq(products.orgId, DEMO_ORG_ID)).limit(1);
    const everyone = [...retailers, ...minis];
    const customerOf = new Map<number, number>();
    for (const user of everyone)
      customerOf.set(
        user.id,
        (await createCustomerWithLoan(db, { orgId: DEMO_ORG_ID, retailerId: user.id, product: product! }))
          .customer.id,
      );
    const appTypes: TAppType[] = [AppType.DEVICE_POLICY_CONTROLLER, AppType.LINK_BASED, AppType.ANTI_THEFT];
    /** Phones (IMEI and app_type) already charged. */
    const charged: { imei: string; appType: TAppType }[] = [];
    /** What the test expects each (user, app_type) to hold, kept beside the ledger. */
    const expected = new Map<string, number>();
    const held = (userId: number, appType: number) => expected.get(`${userId}:${appType}`) ?? 0;
    const add = (userId: number, appType: number, delta: number) =>
      expected.set(`${userId}:${appType}`, held(userId, appType) + delta);
    const counts = { credit: 0, transfer: 0, overSpend: 0, keyUse: 0, freeReuse: 0, noKeys: 0 };

    for (let op = 0; op < 300; op += 1) {
      const roll = random();
      let appType: TAppType = pick(appTypes);
      if (roll < 0.2) {
        const retailer = pick(retailers);
        const quantity = 1 + Math.floor(random() * 10);
        await creditRetailerKeys(db, {
          orgId: DEMO_ORG_ID,
          actorUserId: ravi.id,
          retailerId: retailer.id,
          appType,
          quantity,
        });
        add(retailer.id, appType, quantity);
        counts.credit += 1;
      } else if (roll < 0.55) {
        const mini = pick(minis);
        const parent = retailers.find((r) => r.id === mini.parentId)!;
        const direction = random() < 0.5 ? 'to_child' : 'from_child';
        const [source, target] = direction === 'to_child' ? [parent, mini] : [mini, parent];
        const isOverSpend = random() < 0.25;
        const quantity = isOverSpend
          ? held(source.id, appType) + 1 + Math.floor(random() * 3)
          : 1 + Math.floor(random() * 4);
        const request = { userId: mini.id, appType, quantity, direction } as const;
        if (quantity > held(source.id, appType)) {
          await expect(transferKeys(db, { actor: actorOf(parent), request })).rejects.toMatchObject({
            code: 'INSUFFICIENT_KEYS',
          });
          counts.overSpend += 1;
        } else {
          const movement = await transferKeys(db, { actor: actorOf(parent), request });
          expect(movement).toMatchObject({
            kind: 'transfer',
            quantity,
            direction: direction === 'to_child' ? 'out' : 'in',
          });
          add(source.id, appType, -quantity);
          add(target.id, appType, quantity);
          counts.transfer += 1;
        }
      } else {
        const user = pick(everyone);
        const isReuse = charged.length > 0 && random() < 0.2;
        const reused = isReuse ? pick(charged) : undefined;
        const imei = reused?.imei ?? nextImei();
        if (reused) appType = reused.appType;
        const spend = () =>
          db.transaction((tx) =>
            spendEnrolmentKey(tx, {
              orgId: DEMO_ORG_ID,
              retailerId: user.id,
              customerId: customerOf.get(user.id)!,
              appType,
              imei,
              actorUserId: user.id,
            }),
          );
        if (reused) {
          expect(await spend()).toEqual({ isCharged: false });
          counts.freeReuse += 1;
        } else if (held(user.id, appType) === 0) {
          await expect(spend()).rejects.toMatchObject({ code: 'NO_KEYS' });
          counts.noKeys += 1;
        } else {
          expect(await spend()).toEqual({ isCharged: true });
          add(user.id, appType, -1);
          charged.push({ imei, appType });
          counts.keyUse += 1;
        }
      }
      if (op % 50 === 49) await checkInvariants(db);
    }
    await checkInvariants(db);
    for (const user of everyone) {
      const balances = await getKeyBalances(db, { actor: actorOf(user) });
      for (const appType of appTypes)
        expect(
          balances.find((b) => b.appType === appType)?.balance ?? 0,
          `user ${user.id} type ${appType}`,
        ).toBe(held(user.id, appType));
    }
    // Every kind of operation really happened (seed ${seed}).
    for (const [name, count] of Object.entries(counts)) expect(count, name).toBeGreaterThan(0);
    // ~3 s alone; 300 operations and their checks may take ten times that on a loaded machine.
  }, 120_000);

  it('spends one key when two enrolments race for the last one (parallel transactions)', async () => {
    await raceTwoSpends(db, DEMO_ORG_ID);
  });

  it('charges a phone once per app_type: a re-issue and a new customer record for the same IMEI are free', async () => {
    const { retailer, made } = await raceSetup(db, DEMO_ORG_ID, 2);
    const [first] = made;
    const spend = (customerId: number, imei: string) =>
      db.transaction((tx) =>
        spendEnrolmentKey(tx, {
          orgId: DEMO_ORG_ID,
          retailerId: retailer.id,
          customerId,
          appType: AppType.DEVICE_POLICY_CONTROLLER,
          imei,
          actorUserId: retailer.id,
        }),
      );
    expect(await spend(first!.customer.id, first!.device.imei1)).toEqual({ isCharged: true });
    expect(await spend(first!.customer.id, first!.device.imei1)).toEqual({ isCharged: false });
    // The phone released and enrolled again for a new customer record.
    expect(await spend(made[1]!.customer.id, first!.device.imei1)).toEqual({ isCharged: false });
    expect(await getKeyBalances(db, { actor: actorOf(retailer) })).toEqual([
      { appType: AppType.DEVICE_POLICY_CONTROLLER, balance: 1, level: 'low' },
    ]);
    await checkInvariants(db);
  });
});

/**
 * The same race on the machine's PostgreSQL (real concurrent transactions), in a database of its
 * own; skipped when PostgreSQL is not reachable at ADMIN_DATABASE_URL.
 */
const ADMIN_DATABASE_URL = process.env.LEDGER_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const isReachable = await isPostgresReachable(ADMIN_DATABASE_URL);

describe.skipIf(!isReachable)('ledger on PostgreSQL', () => {
  const dbName = `kisht_ledger_${randomBytes(5).toString('hex')}`;
  let admin: pg.Client;
  let handle: DatabaseHandle | undefined;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    handle = await openDatabase({ databaseUrl: databaseUrl(dbName, ADMIN_DATABASE_URL) });
    await createOrganization(handle.db, { id: 1 });
    await createProducts(handle.db, 1, [{ brand: 'Redmi', name: '14C 5G', pricePaise: 999_900 }]);
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  it('spends one key when two enrolments race for the last one (parallel transactions)', async () => {
    for (let round = 0; round < 5; round += 1) await raceTwoSpends(handle!.db, 1);
  });
});
