import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';

/** Appends one audit entry (design §6: every command and money movement). */
export const insertAudit = async (db: DbOrTx, entry: typeof auditLog.$inferInsert) => {
  await db.insert(auditLog).values(entry);
};
