import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customerConsents, customers, media, products, users } from '../../db/schema';

/** The columns every consent read takes: the consent, who recorded it, its live signature file. */
const consentColumns = {
  customerId: customerConsents.customerId,
  language: customerConsents.language,
  textVersion: customerConsents.textVersion,
  text: customerConsents.text,
  consentedAt: customerConsents.consentedAt,
  recordedByName: users.name,
  signatureMediaId: media.id,
  signaturePath: media.path,
};

/** A customer's consent with the recorder's name and the signature's path (null when deleted), or null. */
export const findConsent = async (db: DbOrTx, orgId: number, customerId: number) => {
  const rows = await db
    .select(consentColumns)
    .from(customerConsents)
    .innerJoin(users, eq(users.id, customerConsents.recordedBy))
    .leftJoin(media, and(eq(media.id, customerConsents.signatureMediaId), isNull(media.deletedAt)))
    .where(and(eq(customerConsents.orgId, orgId), eq(customerConsents.customerId, customerId)))
    .limit(1);
  return rows[0] ?? null;
};

/** Whether a consent is recorded for the customer. */
export const hasConsent = async (db: DbOrTx, orgId: number, customerId: number): Promise<boolean> => {
  const rows = await db
    .select({ id: customerConsents.id })
    .from(customerConsents)
    .where(and(eq(customerConsents.orgId, orgId), eq(customerConsents.customerId, customerId)))
    .limit(1);
  return rows.length > 0;
};

/**
 * Inserts the customer's consent unless one exists (one per customer, unique index); true when
 * this call inserted it. Two recordings at once leave exactly one row.
 */
export const insertConsent = async (
  db: DbOrTx,
  row: typeof customerConsents.$inferInsert,
): Promise<boolean> => {
  const inserted = await db
    .insert(customerConsents)
    .values(row)
    .onConflictDoNothing({ target: customerConsents.customerId })
    .returning({ id: customerConsents.id });
  return inserted.length > 0;
};

/** A live (not deleted) file of the customer by id, with its kind, or null. */
export const findLiveMediaOfCustomer = async (
  db: DbOrTx,
  orgId: number,
  customerId: number,
  mediaId: number,
) => {
  const rows = await db
    .select({ id: media.id, kind: media.kind })
    .from(media)
    .where(
      and(
        eq(media.orgId, orgId),
        eq(media.customerId, customerId),
        eq(media.id, mediaId),
        isNull(media.deletedAt),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
};

/** A user's name and mobile (the retailer a consent text names), or null. */
export const findUserContact = async (db: DbOrTx, userId: number) => {
  const rows = await db
    .select({ name: users.name, mobile: users.mobile })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0] ?? null;
};

/**
 * The consents of the organisation's customers with this mobile (a customer user's own loans),
 * oldest loan first, each with its product and the signature's bytes (null when deleted).
 */
export const findConsentsOfMobile = (db: DbOrTx, orgId: number, mobile: string) =>
  db
    .select({
      ...consentColumns,
      productBrand: products.brand,
      productName: products.name,
      signatureMimeType: media.mimeType,
      signatureContent: media.content,
    })
    .from(customerConsents)
    .innerJoin(customers, eq(customers.id, customerConsents.customerId))
    .innerJoin(products, eq(products.id, customers.productId))
    .innerJoin(users, eq(users.id, customerConsents.recordedBy))
    .leftJoin(media, and(eq(media.id, customerConsents.signatureMediaId), isNull(media.deletedAt)))
    .where(and(eq(customers.orgId, orgId), eq(customerConsents.orgId, orgId), eq(customers.mobile, mobile)))
    .orderBy(asc(customers.createdAt), asc(customers.id));
