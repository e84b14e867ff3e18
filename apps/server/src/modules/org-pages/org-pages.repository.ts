import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { orgPages } from '../../db/schema';

export type OrgPageRow = typeof orgPages.$inferSelect;

/** The rows of one page of an organisation in any of `languages`. */
export const findOrgPages = (db: DbOrTx, orgId: number, page: OrgPageRow['page'], languages: string[]) =>
  db
    .select()
    .from(orgPages)
    .where(and(eq(orgPages.orgId, orgId), eq(orgPages.page, page), inArray(orgPages.language, languages)));

/** Which pages the organisation has written in which of `languages` (every page). */
export const findWrittenLanguages = (db: DbOrTx, orgId: number, languages: string[]) =>
  db
    .select({ page: orgPages.page, language: orgPages.language })
    .from(orgPages)
    .where(and(eq(orgPages.orgId, orgId), inArray(orgPages.language, languages)));

/** Writes (or rewrites) one page in one language; returns the row as stored. */
export const upsertOrgPage = async (
  db: DbOrTx,
  row: Pick<OrgPageRow, 'orgId' | 'page' | 'language' | 'bodyMarkdown' | 'updatedBy'>,
): Promise<OrgPageRow> => {
  const [stored] = await db
    .insert(orgPages)
    .values(row)
    .onConflictDoUpdate({
      target: [orgPages.orgId, orgPages.page, orgPages.language],
      set: { bodyMarkdown: row.bodyMarkdown, updatedBy: row.updatedBy, updatedAt: sql`now()` },
    })
    .returning();
  return stored!;
};
