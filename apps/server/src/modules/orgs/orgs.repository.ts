import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { organizations } from '../../db/schema';

/** An organisation's settings document (organizations.settings). */
export type TOrgSettings = (typeof organizations.$inferSelect)['settings'];

export const findOrganization = async (db: DbOrTx, id: number) => {
  const rows = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  const org = rows[0];
  return org ?? null;
};

/** Organisations with an auto-lock ladder in their settings. */
export const findOrganizationsWithAutoLock = (db: DbOrTx) =>
  db
    .select({ id: organizations.id, settings: organizations.settings })
    .from(organizations)
    .where(sql`${organizations.settings} ? 'autoLock'`);

/** The organisations with a payment-reminder schedule (issue 29). */
export const findOrganizationsWithReminders = (db: DbOrTx) =>
  db
    .select({ id: organizations.id, settings: organizations.settings })
    .from(organizations)
    .where(sql`${organizations.settings} ? 'reminders'`);

/** Replaces an organisation's settings document. */
export const updateOrganizationSettings = async (db: DbOrTx, id: number, settings: TOrgSettings) => {
  await db.update(organizations).set({ settings }).where(eq(organizations.id, id));
};

/**
 * Sets one top-level key of an organisation's settings document in a single statement (jsonb `||`),
 * so a concurrent edit of another key is not lost; `undefined` removes the key.
 */
export const setOrganizationSetting = async <K extends keyof TOrgSettings>(
  db: DbOrTx,
  id: number,
  key: K,
  value: TOrgSettings[K] | undefined,
) => {
  const settings =
    value === undefined
      ? sql`${organizations.settings} - ${key}`
      : sql`${organizations.settings} || jsonb_build_object(${key}::text, ${JSON.stringify(value)}::jsonb)`;
  await db.update(organizations).set({ settings }).where(eq(organizations.id, id));
};
