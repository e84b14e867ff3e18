import type { TContractBody, TContractData, TGroupRoute } from '@kisht/domain/contract/define';
import type { orgPagesContract } from '@kisht/domain/contract/org-pages';
import type { TOrgPage, TOrgPageLanguage } from '@kisht/domain/org-pages/org-pages.schema';
import { orgPagePath, paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TGetPage = TGroupRoute<(typeof orgPagesContract)['getPage']>;
type TSavePage = TGroupRoute<(typeof orgPagesContract)['savePage']>;
type TSaveSupportContact = (typeof orgPagesContract)['saveSupportContact'];

/** The cache key of a page: which page in which language (the organisation is the session's). */
export type TOrgPageArgs = { page: TOrgPage; language: TOrgPageLanguage };

const pageTag = ({ page, language }: TOrgPageArgs) =>
  ({ type: 'OrgPage', id: `${page}:${language}` }) as const;

/**
 * The organisation's help, support and privacy-policy pages (issue 16): read by everyone signed in,
 * written by the organisation admin. A saved page refreshes every cached language of it (another
 * language may have fallen back to it); a saved contact refreshes the support page.
 */
export const orgPagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A page in a language, as served (it may have fallen back to English or the built-in text). */
    getOrgPage: build.query<TContractData<TGetPage>, TOrgPageArgs>({
      query: ({ page, language }) =>
        contractRequest<TGetPage>({ path: orgPagePath(page), method: 'GET' }, { params: { language } }),
      providesTags: (_result, _error, args) => [pageTag(args), { type: 'OrgPage', id: args.page }],
    }),
    /** The admin writes a page in a language. */
    saveOrgPage: build.mutation<TContractData<TSavePage>, { page: TOrgPage } & TContractBody<TSavePage>>({
      query: ({ page, ...body }) =>
        contractRequest<TSavePage>({ path: orgPagePath(page), method: 'PUT' }, { body }),
      invalidatesTags: (_result, error, { page }) => (error ? [] : [{ type: 'OrgPage', id: page }]),
    }),
    /** The admin sets the support page's phone, WhatsApp and e-mail. */
    saveSupportContact: build.mutation<
      TContractData<TSaveSupportContact>,
      TContractBody<TSaveSupportContact>
    >({
      query: (body) =>
        contractRequest<TSaveSupportContact>(
          { path: paths.orgPages.supportContact, method: 'PUT' },
          { body },
        ),
      invalidatesTags: (_result, error) => (error ? [] : [{ type: 'OrgPage', id: 'support' }]),
    }),
  }),
});

export const { useGetOrgPageQuery, useSaveOrgPageMutation, useSaveSupportContactMutation } = orgPagesApi;
