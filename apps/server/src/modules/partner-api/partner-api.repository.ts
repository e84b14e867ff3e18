import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { emis } from '../../db/schema';

/** A customer's instalments in order (the caller found the customer in the actor's scope). */
export const findInstalments = (db: DbOrTx, orgId: number, customerId: number) =>
  db
    .select({
      id: emis.id,
      instalmentNo: emis.instalmentNo,
      dueDate: emis.dueDate,
      amountPaise: emis.amountPaise,
      paidPaise: emis.paidPaise,
    })
    .from(emis)
    .where(and(eq(emis.orgId, orgId), eq(emis.customerId, customerId)))
    .orderBy(asc(emis.instalmentNo));
