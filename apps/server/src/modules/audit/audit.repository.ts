import { type TAuditEvent, ZAuditEvent } from '@kisht/domain/audit/audit-events';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';

/** One audit entry: who (organisation, the acting user or null for the system) and the typed event. */
export type TAuditEntry = { orgId: number; actorUserId?: number | null } & TAuditEvent;

/**
 * Under test (vitest sets VITEST; the harness NODE_ENV=test) every entry is parsed with the domain
 * union as well, so a test that writes an entry ZAuditEvent does not describe fails; a running
 * server trusts the types and never pays for it.
 */
const isTestRun = process.env.VITEST !== undefined || process.env.NODE_ENV === 'test';

/**
 * Appends one audit entry (design §6: every command and money movement, as typed audit events:
 * packages/domain audit/audit-events). Under test, throws when ZAuditEvent refuses the entry.
 */
export const insertAudit = async (db: DbOrTx, entry: TAuditEntry) => {
  checkAuditEntry(entry);
  await db.insert(auditLog).values(entry);
};

/**
 * Under test, throws when ZAuditEvent refuses the entry; a running server trusts the types. For
 * statements that write audit entries beside other rows (the command gate's one write).
 */
export const checkAuditEntry = (entry: TAuditEntry): void => {
  if (!isTestRun) return;
  const parsed = ZAuditEvent.safeParse(entry);
  if (!parsed.success) {
    throw new Error(`audit entry ${entry.action} is not a ZAuditEvent: ${z.prettifyError(parsed.error)}`);
  }
};
