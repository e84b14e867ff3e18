import {
  ORG_PAGES,
  ZOrgPageQuery,
  ZOrgPageView,
  ZSaveOrgPageRequest,
  ZSaveSupportContactRequest,
  ZSupportContact,
} from '../org-pages/org-pages.schema';
import { orgPagePath, paths } from '../paths';
import { defineRoutes, routeGroup } from './define';

/**
 * The organisation page routes of the wire contract (contract/define.ts): help, support and the
 * privacy policy, one static path per page (orgPagePath), and the support contact.
 */
export const orgPagesContract = defineRoutes({
  /**
   * A page in a language, as served: the organisation's text, else its English text, else the
   * built-in text (everyone signed in, customers too).
   */
  getPage: routeGroup(ORG_PAGES, (page) => ({
    method: 'GET',
    path: orgPagePath(page),
    query: ZOrgPageQuery,
    response: ZOrgPageView,
  })),
  /** Write a page in one language (organisation admin). */
  savePage: routeGroup(ORG_PAGES, (page) => ({
    method: 'PUT',
    path: orgPagePath(page),
    body: ZSaveOrgPageRequest,
    response: ZOrgPageView,
  })),
  /** Set the phone, WhatsApp and e-mail the support page offers (organisation admin). */
  saveSupportContact: {
    method: 'PUT',
    path: paths.orgPages.supportContact,
    body: ZSaveSupportContactRequest,
    response: ZSupportContact,
  },
});
