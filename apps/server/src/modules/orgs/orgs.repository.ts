import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { organizations } from '../../db/schema';

export const findOrganization = async (db: DbOrTx, id: number) => {
  const rows = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  return rows[0] ?? null;
};

/** Organisations with an auto-lock ladder in their settings. */
export const findOrganizationsWithAutoLock = (db: DbOrTx) =>
  db
    .select({ id: organizations.id, settings: organizations.settings })
    .from(organizations)
    .where(sql`${organizations.settings} ? 'autoLock'`);

/** Replaces an organisation's settings document. */
export const updateOrganizationSettings = async (
  db: DbOrTx,
  id: number,
  settings: (typeof organizations.$inferInsert)['settings'],
) => {
  await db.update(organizations).set({ settings }).where(eq(organizations.id, id));
};
