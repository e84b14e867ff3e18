import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import {
  defaultOrgPageLanguages,
  renderDefaultOrgPage,
  type TOrgPageDefaultValues,
} from '@kisht/domain/org-pages/org-page-defaults';
import {
  ORG_PAGE_FALLBACK_LANGUAGE,
  ORG_PAGES,
  type TOrgPage,
  type TOrgPageLanguage,
  type TOrgPageView,
  type TSaveOrgPageRequest,
  type TSaveSupportContactRequest,
  type TSupportContact,
  ZSaveOrgPageRequest,
  ZSaveSupportContactRequest,
} from '@kisht/domain/org-pages/org-pages.schema';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { getOrgAppConfig, getSupportContact, writeSupportContact } from '../orgs/orgs.service';
import * as repo from './org-pages.repository';

/** Only the organisation admin writes the pages; everyone else gets FORBIDDEN. */
const assertAdmin = (actor: TActor) => {
  if (actor.userType !== 'admin')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only the organisation admin can edit these pages');
};

/** The organisation's names the built-in texts carry. */
const defaultValuesOf = async (db: DbOrTx, orgId: number): Promise<TOrgPageDefaultValues> => {
  const config = await getOrgAppConfig(db, orgId);
  return { orgName: config.orgName, companyName: config.companyName };
};

/**
 * The organisation's pages getOrgPage serves in `language`, in ORG_PAGES order: those it wrote in
 * it, and, of those it wrote in neither it nor English, those with a built-in text in it.
 */
const pagesIn = async (db: DbOrTx, orgId: number, language: TOrgPageLanguage): Promise<TOrgPage[]> => {
  const written = await repo.findWrittenLanguages(db, orgId, [language, ORG_PAGE_FALLBACK_LANGUAGE]);
  const has = (page: TOrgPage, inLanguage: string) =>
    written.some((row) => row.page === page && row.language === inLanguage);
  return ORG_PAGES.filter(
    (page) =>
      has(page, language) ||
      (!has(page, ORG_PAGE_FALLBACK_LANGUAGE) && defaultOrgPageLanguages(page).includes(language)),
  );
};

/**
 * One page of the actor's organisation in `language` (GET /api/org_pages/{page}; everyone signed in,
 * customers too). Served in this order: the organisation's text in `language`, its English text,
 * the built-in text in `language`, the built-in English text (org-page-defaults.ts), so a page is
 * never empty. The support page carries the organisation's contact. Only the actor's own
 * organisation is ever read (its id comes from the session).
 */
export const getOrgPage = async (
  db: DbOrTx,
  actor: TActor,
  page: TOrgPage,
  language: TOrgPageLanguage,
): Promise<TOrgPageView> => {
  const rows = await repo.findOrgPages(db, actor.orgId, page, [language, ORG_PAGE_FALLBACK_LANGUAGE]);
  const own = rows.find((row) => row.language === language) ?? rows.find((row) => row.language === 'en');
  const supportContact = page === 'support' ? await getSupportContact(db, actor.orgId) : null;
  const base = { page, requestedLanguage: language, supportContact, pagesInLanguage: [] };
  if (own) {
    const served = own.language as TOrgPageLanguage;
    return {
      ...base,
      ...(served === language ? {} : { pagesInLanguage: await pagesIn(db, actor.orgId, language) }),
      language: served,
      isFallback: served !== language,
      isDefault: false,
      bodyMarkdown: own.bodyMarkdown,
      updatedAt: own.updatedAt.toISOString(),
    };
  }
  const values = await defaultValuesOf(db, actor.orgId);
  const inLanguage = renderDefaultOrgPage(page, language, values);
  const served = inLanguage === null ? ORG_PAGE_FALLBACK_LANGUAGE : language;
  return {
    ...base,
    ...(served === language ? {} : { pagesInLanguage: await pagesIn(db, actor.orgId, language) }),
    language: served,
    isFallback: served !== language,
    isDefault: true,
    bodyMarkdown: inLanguage ?? renderDefaultOrgPage(page, ORG_PAGE_FALLBACK_LANGUAGE, values)!,
    updatedAt: null,
  };
};

/**
 * The organisation admin writes one page of its own organisation in one language (PUT
 * /api/org_pages/{page}), audited (`org_page.update`, with the length written). Returns the page as
 * now served in that language. Throws FORBIDDEN for anyone but an admin, VALIDATION_FAILED (400,
 * fields language, bodyMarkdown: 1 to 20,000 characters).
 */
export const saveOrgPage = async (
  db: Db,
  actor: TActor,
  page: TOrgPage,
  input: TSaveOrgPageRequest,
): Promise<TOrgPageView> => {
  assertAdmin(actor);
  const request = ZSaveOrgPageRequest.parse(input);
  await db.transaction(async (tx) => {
    await repo.upsertOrgPage(tx, {
      orgId: actor.orgId,
      page,
      language: request.language,
      bodyMarkdown: request.bodyMarkdown,
      updatedBy: actor.userId,
    });
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'org_page.update',
      entity: 'org_page',
      entityId: `${page}:${request.language}`,
      details: { page, language: request.language, length: request.bodyMarkdown.length },
    });
  });
  return getOrgPage(db, actor, page, request.language);
};

/**
 * The organisation admin sets how customers reach it (PUT /api/org_pages/support_contact): phone
 * and WhatsApp as Indian mobiles (stored +91…), e-mail; '' or absent clears a field. Audited
 * (`org.support_contact`, before and after). Throws FORBIDDEN for anyone but an admin,
 * VALIDATION_FAILED (400 naming phone, whatsapp or email).
 */
export const saveSupportContact = async (
  db: Db,
  actor: TActor,
  input: TSaveSupportContactRequest,
): Promise<TSupportContact> => {
  assertAdmin(actor);
  const request = ZSaveSupportContactRequest.parse(input);
  const contact: TSupportContact = {
    ...(request.phone ? { phone: request.phone } : {}),
    ...(request.whatsapp ? { whatsapp: request.whatsapp } : {}),
    ...(request.email ? { email: request.email } : {}),
  };
  await db.transaction(async (tx) => {
    const before = await getSupportContact(tx, actor.orgId);
    await writeSupportContact(tx, actor.orgId, contact);
    await insertAudit(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'org.support_contact',
      entity: 'organization',
      entityId: String(actor.orgId),
      details: { before, after: contact },
    });
  });
  return contact;
};

/**
 * The demo seed's pages: every built-in text of every page, in each language it exists in, written
 * as the organisation's own (with its names filled in), so a demo organisation starts with real
 * content its admin can edit. Inside the caller's transaction; not audited (no one wrote them).
 */
export const seedOrgPages = async (tx: DbOrTx, orgId: number, values: TOrgPageDefaultValues) => {
  for (const page of ORG_PAGES)
    for (const language of defaultOrgPageLanguages(page))
      await repo.upsertOrgPage(tx, {
        orgId,
        page,
        language,
        bodyMarkdown: renderDefaultOrgPage(page, language, values)!,
        updatedBy: null,
      });
};
