import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import { ZBulkProgress } from '@kisht/domain/devices/devices.schema';
import { paths } from '@kisht/domain/paths';
import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { customers, devices, products, users } from '../../db/schema';
import { BULK_CUSTOMER_LOAN, DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '../../db/seed/seed';
import { waitUntil } from '../../test/fixtures';
import { bearer, createTestApp, type TestApp } from '../../test/harness';
import { findBatch } from './bulk-batches.repository';
import { BatchMovedOn, FIRST_CHUNK, resumeStaleBulkBatches, writeBatchChunk } from './bulk-batches.service';

/**
 * A bulk lock or unlock as a job (issue 26): the request answers after the batch and its first
 * FIRST_CHUNK commands are written (a few statements whatever the size), the rest are written and
 * published in chunks after it, and a batch whose process stopped is taken up by the bulk job.
 */

const PHONES = FIRST_CHUNK + 50;

let t: TestApp;
let token: string;
let customerIds: number[];

/** PHONES installed customers of the demo retailer with enrolled phones (each with its secret). */
const createPhones = async (): Promise<number[]> => {
  const { db } = t.app.ctx;
  const [retailer] = await db
    .select()
    .from(users)
    .where(and(eq(users.orgId, DEMO_ORG_ID), eq(users.mobile, DEMO_RETAILER_MOBILE)));
  const [product] = await db.select().from(products).where(eq(products.orgId, DEMO_ORG_ID)).limit(1);
  const inserted = await db
    .insert(customers)
    .values(
      Array.from({ length: PHONES }, (_, k) => ({
        orgId: DEMO_ORG_ID,
        retailerId: retailer!.id,
        firstName: 'Bulk',
        lastName: `Phone${k}`,
        mobile: `+91${7_300_000_000 + k}`,
        status: 1,
        productId: product!.id,
        ...BULK_CUSTOMER_LOAN,
      })),
    )
    .returning({ id: customers.id });
  const imei = (k: number) => {
    const body = `35${String(880_000 + k).padStart(12, '0')}`;
    return `${body}${imeiCheckDigit(body)}`;
  };
  await db.insert(devices).values(
    inserted.map((customer, k) => ({
      id: uuidv7(),
      orgId: DEMO_ORG_ID,
      customerId: customer.id,
      imei1: imei(2 * k),
      imei2: imei(2 * k + 1),
      enrolledAt: new Date(),
      secretHash: 'x',
    })),
  );
  return inserted.map((customer) => customer.id).sort((a, b) => a - b);
};

const commandsOfBatch = async (batchId: string) =>
  (
    await queryRows<{ n: number; devices: number; sent: number }>(
      t.app.ctx.db,
      sql`select count(*)::int as n, count(distinct device_id)::int as devices,
                 count(*) filter (where state = 'sent')::int as sent
          from device_commands where batch_id = ${batchId}::uuid`,
    )
  )[0]!;

const bulkUnlock = () =>
  t.app.statements.measure(() =>
    t.app.inject({
      method: 'POST',
      url: paths.devices.bulkLockUnlock,
      headers: bearer(token),
      payload: { action: 'unlock', customer_ids: customerIds },
    }),
  );

beforeEach(async () => {
  t = await createTestApp();
  token = await t.tokenFor(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  customerIds = await createPhones();
  // The organisation's signing key exists, as on any server that has sent a command before.
  await t.app.ctx.dispatcher.serverKeys.forOrg(DEMO_ORG_ID);
});
afterEach(async () => {
  await t.close();
});

describe('a bulk request as a job (issue 26)', () => {
  it('answers once the first chunk is written and sent, then writes the rest after the answer', async () => {
    const { result, statements } = await bulkUnlock();
    expect(result.statusCode, result.body).toBe(200);
    const answer = ZBulkProgress.parse(result.json().data);
    expect(answer.total).toBe(PHONES);
    // At least the first chunk is written and sent; on PostgreSQL the rest may already be too, as
    // it is written on another connection while the answer's progress is read.
    expect(answer.items.length).toBeGreaterThanOrEqual(FIRST_CHUNK);
    expect(answer.counts.sent).toBeGreaterThanOrEqual(FIRST_CHUNK);
    expect(answer.counts.sent + answer.counts.queued).toBe(PHONES);
    // A few statements, whatever the size: session, targets, batch, the first chunk's transaction, progress.
    expect(statements.length, statements.map((s) => s.text.slice(0, 80)).join('\n')).toBeLessThanOrEqual(10);

    await waitUntil(async () => (await findBatch(t.app.ctx.db, DEMO_ORG_ID, answer.batchId))?.doneAt != null);
    expect(await commandsOfBatch(answer.batchId)).toEqual({ n: PHONES, devices: PHONES, sent: PHONES });
    const progress = ZBulkProgress.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `${paths.devices.bulkProgress}?batch_id=${answer.batchId}`,
          headers: bearer(token),
        })
      ).json().data,
    );
    expect(progress).toMatchObject({ total: PHONES, skipped: [] });
    expect(progress.items).toHaveLength(PHONES);
    expect(progress.counts.sent).toBe(PHONES);
  });

  it('leaves a batch half written when the server closes, and the bulk job writes the rest once', async () => {
    // The server is closing: background work stops at its next step.
    await t.app.ctx.dispatcher.close();
    const { result } = await bulkUnlock();
    const { batchId } = result.json().data as { batchId: string };
    const half = await findBatch(t.app.ctx.db, DEMO_ORG_ID, batchId);
    expect(half).toMatchObject({ written: FIRST_CHUNK, doneAt: null });
    expect((await commandsOfBatch(batchId)).n).toBe(FIRST_CHUNK);

    // Not stale yet: nobody takes it up.
    expect(await resumeStaleBulkBatches(t.app.ctx)).toBe(0);
    await t.app.ctx.db.execute(
      sql`update bulk_batches set claimed_at = now() - interval '2 minutes' where id = ${batchId}::uuid`,
    );
    expect(await resumeStaleBulkBatches(t.app.ctx)).toBe(1);
    const done = await findBatch(t.app.ctx.db, DEMO_ORG_ID, batchId);
    expect(done).toMatchObject({ written: PHONES });
    expect(done?.doneAt).not.toBeNull();
    expect(await commandsOfBatch(batchId)).toEqual({ n: PHONES, devices: PHONES, sent: PHONES });

    // A process that still thought the batch was where it left it writes nothing.
    await expect(writeBatchChunk(t.app.ctx, half!, { count: 1, orders: [] })).rejects.toBeInstanceOf(
      BatchMovedOn,
    );
    expect((await commandsOfBatch(batchId)).n).toBe(PHONES);
  });
});
