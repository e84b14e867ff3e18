import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import type { Db } from '@kisht/server/db/client';
import { customers, devices, products, users } from '@kisht/server/db/schema';
import { BULK_CUSTOMER_LOAN, DEMO_ORG_ID, DEMO_RETAILER_MOBILE } from '@kisht/server/db/seed/seed';
import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';

const BATCH = 2_000;
const FIRST_NAMES = [
  'Aarav',
  'Vivaan',
  'Aditya',
  'Ananya',
  'Diya',
  'Ishaan',
  'Kavya',
  'Meera',
  'Rohan',
  'Saanvi',
];
const LAST_NAMES = ['Sharma', 'Patel', 'Iyer', 'Reddy', 'Nair', 'Gupta', 'Das', 'Khan', 'Singh', 'Joshi'];

const imei = (n: number, slot: number) => {
  const body = `35${slot}${String(n).padStart(11, '0')}`;
  return `${body}${imeiCheckDigit(body)}`;
};

/** Adds `count` customers with devices to the demo retailer of org 41, in batches (design §8). */
export const seedManyCustomers = async (db: Db, count: number): Promise<void> => {
  const [retailer] = await db
    .select()
    .from(users)
    .where(and(eq(users.orgId, DEMO_ORG_ID), eq(users.mobile, DEMO_RETAILER_MOBILE)));
  const [product] = await db.select().from(products).where(eq(products.orgId, DEMO_ORG_ID)).limit(1);
  for (let offset = 0; offset < count; offset += BATCH) {
    const size = Math.min(BATCH, count - offset);
    const rows = Array.from({ length: size }, (_, k) => {
      const n = offset + k;
      return {
        orgId: DEMO_ORG_ID,
        retailerId: retailer!.id,
        firstName: FIRST_NAMES[n % 10]!,
        lastName: `${LAST_NAMES[Math.floor(n / 10) % 10]!}${n}`,
        mobile: `+91${9_000_000_000 + n}`,
        status: n % 7,
        productId: product!.id,
        ...BULK_CUSTOMER_LOAN,
        createdAt: new Date(Date.now() - n * 60_000),
      };
    });
    const inserted = await db.insert(customers).values(rows).returning({ id: customers.id });
    await db.insert(devices).values(
      inserted.map((c, k) => ({
        id: uuidv7(),
        orgId: DEMO_ORG_ID,
        customerId: c.id,
        imei1: imei(offset + k, 1),
        imei2: imei(offset + k, 2),
        reportedLocked: (offset + k) % 3 === 0,
      })),
    );
  }
};
