import type { TOrgPage } from '@kisht/domain/org-pages/org-pages.schema';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import {
  currentLanguage,
  LANGUAGE_BCP47,
  LANGUAGE_NATIVE_NAMES,
  type TPageTitleKey,
} from '../../../lib/i18n';
import { appPaths } from '../../../lib/paths';
import { LazyMarkdown } from '../components/lazy-markdown';
import { SupportContactButtons } from '../components/support-contact-buttons';
import { useGetOrgPageQuery } from '../org-pages-api';

/** Each page's screen title. */
const TITLE_KEYS: Record<TOrgPage, TPageTitleKey> = {
  help: 'pages.help',
  support: 'pages.support',
  privacy_policy: 'pages.privacy_policy',
};

/** Where each page opens. */
const PAGE_HREFS: Record<TOrgPage, string> = {
  help: appPaths.help.href(),
  support: appPaths.support.href(),
  privacy_policy: appPaths.privacyPolicy.href(),
};

/**
 * The help, support and privacy_policy screens (spec §2; issue 16): the organisation's page in the
 * app's language (else English, saying so and naming the pages there are in the app's language, issue 28), rendered from markdown; support adds the call,
 * WhatsApp and e-mail buttons. Customers, shops and the admin all open them.
 */
export const OrgPageScreen = ({ page }: { page: TOrgPage }) => {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n);
  const query = useGetOrgPageQuery({ page, language });
  const view = query.data;
  return (
    <>
      <PageHeader title={t(TITLE_KEYS[page])} />
      {query.isError && !view ? (
        <LoadError onRetry={() => void query.refetch()} />
      ) : !view ? (
        <PageSkeleton />
      ) : (
        <Stack spacing={2} data-testid={`org-page-${page}`}>
          {view.isFallback && (
            <Alert severity="info" data-testid="org-page-fallback">
              {t('orgPages.fallback', { language: LANGUAGE_NATIVE_NAMES[view.language] })}{' '}
              {view.pagesInLanguage.length === 0 ? (
                t('orgPages.noneInLanguage', { language: LANGUAGE_NATIVE_NAMES[view.requestedLanguage] })
              ) : (
                <span data-testid="org-page-in-language">
                  {t('orgPages.inLanguage', { language: LANGUAGE_NATIVE_NAMES[view.requestedLanguage] })}{' '}
                  {view.pagesInLanguage.map((other, index) => (
                    <span key={other}>
                      {index > 0 ? ', ' : null}
                      <Link
                        component={RouterLink}
                        to={PAGE_HREFS[other]}
                        data-testid={`org-page-link-${other}`}
                      >
                        {t(TITLE_KEYS[other])}
                      </Link>
                    </span>
                  ))}
                </span>
              )}
            </Alert>
          )}
          <Card>
            <CardContent lang={LANGUAGE_BCP47[view.language]}>
              <LazyMarkdown markdown={view.bodyMarkdown} />
            </CardContent>
          </Card>
          {page === 'support' && (
            <Card>
              <CardContent>
                <SupportContactButtons contact={view.supportContact} />
              </CardContent>
            </Card>
          )}
        </Stack>
      )}
    </>
  );
};

/** spec §2 help. */
export const HelpPage = () => <OrgPageScreen page="help" />;
/** spec §2 support. */
export const SupportPage = () => <OrgPageScreen page="support" />;
/** spec §2 privacy_policy. */
export const PrivacyPolicyPage = () => <OrgPageScreen page="privacy_policy" />;
