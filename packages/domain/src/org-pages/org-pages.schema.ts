import { z } from 'zod';
import { normaliseIndianMobile } from '../common/identifiers';
import { CONSENT_LANGUAGES } from '../customers/consent-texts';

/**
 * The organisation's own help, support and privacy-policy pages (issue 16, spec §2 segments help,
 * support, privacy_policy): markdown per page and interface language (spec §1), written by the
 * organisation admin, read by everyone signed in (customers too), with English and built-in
 * fallbacks (org-page-defaults.ts).
 */

/** The pages an organisation writes (org_pages.page). */
export const ORG_PAGES = ['help', 'support', 'privacy_policy'] as const;
export type TOrgPage = (typeof ORG_PAGES)[number];

/** The languages a page is written in: the ten interface languages of spec §1. */
export const ORG_PAGE_LANGUAGES = CONSENT_LANGUAGES;
export type TOrgPageLanguage = (typeof ORG_PAGE_LANGUAGES)[number];
/** The language a page falls back to (spec §1: fallback en). */
export const ORG_PAGE_FALLBACK_LANGUAGE: TOrgPageLanguage = 'en';

/** Longest page body, in characters of markdown. */
export const MAX_ORG_PAGE_MARKDOWN = 20_000;

export const ZOrgPage = z.enum(ORG_PAGES, 'Choose help, support or privacy_policy');
export const ZOrgPageLanguage = z.enum(ORG_PAGE_LANGUAGES, 'Choose one of the app languages');

/** GET /api/org_pages/{page}?language=: the language wanted (default en). */
export const ZOrgPageQuery = z.object({ language: ZOrgPageLanguage.default(ORG_PAGE_FALLBACK_LANGUAGE) });
export type TOrgPageQuery = z.input<typeof ZOrgPageQuery>;

/** PUT /api/org_pages/{page}: the admin writes one page in one language. */
export const ZSaveOrgPageRequest = z.object({
  language: ZOrgPageLanguage,
  bodyMarkdown: z
    .string()
    .trim()
    .min(1, 'This is a required field')
    .max(MAX_ORG_PAGE_MARKDOWN, `At most ${MAX_ORG_PAGE_MARKDOWN} characters`),
});
export type TSaveOrgPageRequest = z.input<typeof ZSaveOrgPageRequest>;

/** An optional Indian mobile (stored E.164 +91…): '' or absent means none. */
const ZOptionalMobile = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value === '') return undefined;
    const mobile = normaliseIndianMobile(value);
    if (!mobile) {
      ctx.addIssue({ code: 'custom', message: 'Enter a 10-digit mobile number starting with 6, 7, 8 or 9' });
      return z.NEVER;
    }
    return mobile;
  })
  .optional();

/** An optional e-mail address: '' or absent means none. */
const ZOptionalEmail = z
  .string()
  .trim()
  .max(120, 'At most 120 characters')
  .refine((value) => value === '' || z.email().safeParse(value).success, 'Enter a valid email')
  .transform((value) => value || undefined)
  .optional();

/**
 * How customers reach the organisation (organizations.settings.supportContact): a phone to call,
 * a WhatsApp number (both Indian mobiles, E.164) and an e-mail address, each optional.
 */
export const ZSupportContact = z.object({
  phone: z.string().optional(),
  whatsapp: z.string().optional(),
  email: z.string().optional(),
});
export type TSupportContact = z.infer<typeof ZSupportContact>;

/** PUT /api/org_pages/support_contact: the admin sets the contact; '' or absent clears a field. */
export const ZSaveSupportContactRequest = z.object({
  phone: ZOptionalMobile,
  whatsapp: ZOptionalMobile,
  email: ZOptionalEmail,
});
export type TSaveSupportContactRequest = z.input<typeof ZSaveSupportContactRequest>;

/**
 * A page as served: `language` is the one served, which differs from `requestedLanguage` when it
 * fell back (isFallback); `isDefault` when it is the built-in text, not the organisation's own
 * (then updatedAt is null). The support page carries the contact (null when none is set).
 */
export const ZOrgPageView = z.object({
  page: ZOrgPage,
  language: ZOrgPageLanguage,
  requestedLanguage: ZOrgPageLanguage,
  isFallback: z.boolean(),
  isDefault: z.boolean(),
  bodyMarkdown: z.string(),
  /** ISO 8601 instant of the last edit, or null for the built-in text. */
  updatedAt: z.string().nullable(),
  supportContact: ZSupportContact.nullable(),
  /**
   * When the page fell back: the organisation's pages that are there in `requestedLanguage` (its own
   * text or the built-in one), so the app can say which to read instead (issue 28). Empty otherwise.
   */
  pagesInLanguage: z.array(ZOrgPage),
});
export type TOrgPageView = z.infer<typeof ZOrgPageView>;

/** The wa.me link of a WhatsApp number (digits only, country code first): +919876543210 → https://wa.me/919876543210. */
export const whatsappLink = (mobile: string): string => `https://wa.me/${mobile.replace(/\D/g, '')}`;
