import type { TAuditEventOf } from '@kisht/domain/audit/audit-events';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { auditLog, devices } from '../../db/schema';

/** The audit action of a push token FCM refused (issue 27). */
export const PUSH_TOKEN_REFUSED =
  'device.push_token_refused' satisfies TAuditEventOf<'device.push_token_refused'>['action'];

export type TPushRefusalDetails = TAuditEventOf<typeof PUSH_TOKEN_REFUSED>['details'];

/**
 * Writes a device's push-token refusal to the audit log, on the device's customer in its
 * organisation, unless the device's newest refusal is about the same token (its tokenFingerprint):
 * a token FCM refuses again after the phone sent it once more is recorded once. One statement.
 * Returns where the entry went, or null when none was written (the same token, or no such device).
 */
export const insertRefusalOnce = async (
  db: DbOrTx,
  details: TPushRefusalDetails,
): Promise<{ orgId: number; entityId: string } | null> => {
  const [row] = await queryRows<{ orgId: number; entityId: string }>(
    db,
    sql`insert into ${auditLog} (org_id, actor_user_id, action, entity, entity_id, details)
        select d.org_id, null, ${PUSH_TOKEN_REFUSED}, 'customer', d.customer_id::text, ${JSON.stringify(details)}::jsonb
          from ${devices} d
         where d.id = ${details.deviceId}::uuid
           and (select a.details->>'tokenFingerprint' from ${auditLog} a
                 where a.org_id = d.org_id and a.entity = 'customer' and a.entity_id = d.customer_id::text
                   and a.action = ${PUSH_TOKEN_REFUSED} and a.details->>'deviceId' = ${details.deviceId}
                 order by a.created_at desc, a.id desc limit 1) is distinct from ${details.tokenFingerprint}
        returning org_id as "orgId", entity_id as "entityId"`,
  );
  return row ?? null;
};
