import { zodResolver } from '@hookform/resolvers/zod';
import {
  MAX_ORG_PAGE_MARKDOWN,
  ORG_PAGE_LANGUAGES,
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
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { LoadError } from '../../../components/load-error';
import { PageSkeleton } from '../../../components/page-skeleton';
import { applyServerFieldErrors, fieldErrorText, fieldMessageKey } from '../../../lib/form-errors';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import { LANGUAGE_BCP47, LANGUAGE_NATIVE_NAMES, type TPageTitleKey } from '../../../lib/i18n';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import { useGetOrgPageQuery, useSaveOrgPageMutation, useSaveSupportContactMutation } from '../org-pages-api';
import { LazyMarkdown } from './lazy-markdown';

const PAGE_TITLE_KEYS: Record<TOrgPage, TPageTitleKey> = {
  help: 'pages.help',
  support: 'pages.support',
  privacy_policy: 'pages.privacy_policy',
};

const pageResolver = zodResolver<TSaveOrgPageRequest, unknown, TSaveOrgPageRequest>(ZSaveOrgPageRequest);

/**
 * The markdown of one page in one language, with a live preview and save. Starts from what the
 * page serves now (the organisation's text, or its fallback, which the notice names).
 */
const PageMarkdownForm = ({
  page,
  language,
  view,
}: {
  page: TOrgPage;
  language: TOrgPageLanguage;
  view: TOrgPageView;
}) => {
  const { t } = useTranslation();
  const [savePage, { isLoading }] = useSaveOrgPageMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TSaveOrgPageRequest, unknown, TSaveOrgPageRequest>({
    resolver: pageResolver,
    defaultValues: { language, bodyMarkdown: view.bodyMarkdown },
  });
  const markdown = useWatch({ control: form.control, name: 'bodyMarkdown' });
  const isInherited = view.isDefault || view.isFallback;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await savePage({ page, ...values });
    if (result.error) {
      if (
        isApiError(result.error) &&
        applyServerFieldErrors(result.error, form.setError, (field) =>
          field === 'bodyMarkdown' ? 'bodyMarkdown' : null,
        )
      )
        return;
      setFailure(apiErrorMessage(result.error, t('orgPages.saveFailed')));
      return;
    }
    enqueueSnackbar(t('orgPages.saved'), { variant: 'success' });
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack spacing={2}>
        {isInherited && (
          <Alert severity="info" data-testid="org-page-editor-inherited">
            {view.isDefault
              ? t('orgPages.editorDefault', { language: LANGUAGE_NATIVE_NAMES[view.language] })
              : t('orgPages.editorFallback', { language: LANGUAGE_NATIVE_NAMES[view.language] })}
          </Alert>
        )}
        <Controller
          control={form.control}
          name="bodyMarkdown"
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('orgPages.markdown')}
              multiline
              minRows={8}
              maxRows={18}
              error={Boolean(fieldState.error)}
              helperText={
                fieldErrorText(fieldState.error, (error) =>
                  t(fieldMessageKey(error, field.value, 'validation.tooLong')),
                ) ?? t('orgPages.markdownHint', { length: field.value.length, max: MAX_ORG_PAGE_MARKDOWN })
              }
              slotProps={{
                htmlInput: {
                  lang: LANGUAGE_BCP47[language],
                  'data-testid': 'org-page-markdown',
                },
              }}
            />
          )}
        />
        <Box>
          <Typography variant="overline" color="textSecondary">
            {t('orgPages.preview')}
          </Typography>
          <Box
            lang={LANGUAGE_BCP47[language]}
            data-testid="org-page-preview"
            sx={{
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              p: 2,
              maxHeight: 360,
              overflow: 'auto',
            }}
          >
            <LazyMarkdown markdown={markdown} />
          </Box>
        </Box>
        {failure && <Alert severity="error">{failure}</Alert>}
        <Button type="submit" variant="contained" loading={isLoading} data-testid="org-page-save">
          {t('orgPages.save')}
        </Button>
      </Stack>
    </form>
  );
};

/** What the contact form holds: the local 10 digits of each number and the e-mail, '' for none. */
type TContactForm = TSaveSupportContactRequest;
/** What it sends: +91 numbers, absent where empty. */
type TContactOutput = z.output<typeof ZSaveSupportContactRequest>;

const contactResolver = zodResolver<TContactForm, unknown, TContactOutput>(ZSaveSupportContactRequest);

/** The support page's phone, WhatsApp and e-mail; an empty field removes that button. */
const SupportContactForm = ({ contact }: { contact: TSupportContact | null }) => {
  const { t } = useTranslation();
  const [saveContact, { isLoading }] = useSaveSupportContactMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TContactForm, unknown, TContactOutput>({
    resolver: contactResolver,
    defaultValues: {
      phone: contact?.phone ? toLocalMobileDigits(contact.phone) : '',
      whatsapp: contact?.whatsapp ? toLocalMobileDigits(contact.whatsapp) : '',
      email: contact?.email ?? '',
    },
  });
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await saveContact(values);
    if (result.error) {
      const known = ['phone', 'whatsapp', 'email'] as const;
      if (
        isApiError(result.error) &&
        applyServerFieldErrors(
          result.error,
          form.setError,
          (field) => known.find((name) => name === field) ?? null,
        )
      )
        return;
      setFailure(apiErrorMessage(result.error, t('orgPages.saveFailed')));
      return;
    }
    enqueueSnackbar(t('orgPages.contactSaved'), { variant: 'success' });
  });
  const mobileField = (name: 'phone' | 'whatsapp', label: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          onChange={(event) => field.onChange(toLocalMobileDigits(event.target.value))}
          label={label}
          error={Boolean(fieldState.error)}
          helperText={fieldErrorText(fieldState.error, () => t('validation.invalidMobile'))}
          slotProps={{
            htmlInput: { inputMode: 'tel', autoComplete: 'off', 'data-testid': `support-contact-${name}` },
            input: { startAdornment: <InputAdornment position="start">+91</InputAdornment> },
          }}
        />
      )}
    />
  );
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack spacing={2}>
        {mobileField('phone', t('orgPages.phone'))}
        {mobileField('whatsapp', t('orgPages.whatsappNumber'))}
        <Controller
          control={form.control}
          name="email"
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              type="email"
              label={t('orgPages.email')}
              error={Boolean(fieldState.error)}
              helperText={fieldErrorText(fieldState.error, () => t('validation.invalidEmail'))}
              slotProps={{ htmlInput: { maxLength: 120, 'data-testid': 'support-contact-email' } }}
            />
          )}
        />
        <Typography variant="body2" color="textSecondary">
          {t('orgPages.contactHint')}
        </Typography>
        {failure && <Alert severity="error">{failure}</Alert>}
        <Button type="submit" variant="contained" loading={isLoading} data-testid="support-contact-save">
          {t('orgPages.saveContact')}
        </Button>
      </Stack>
    </form>
  );
};

/**
 * The organisation admin's editor of the help, support and privacy pages (issue 16): choose a page
 * and a language, edit the markdown with a live preview and save; and the support contact.
 */
export const OrgPagesEditor = () => {
  const { t } = useTranslation();
  const [page, setPage] = useState<TOrgPage>('help');
  const [language, setLanguage] = useState<TOrgPageLanguage>('en');
  const query = useGetOrgPageQuery({ page, language });
  // The contact comes with the support page (any language carries it).
  const support = useGetOrgPageQuery({ page: 'support', language: 'en' });
  // A fresh view of another page or language, not the previous one's data while it loads.
  const view = query.currentData;
  return (
    <Stack spacing={2} data-testid="org-pages-editor">
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('orgPages.editorTitle')}
          </Typography>
          <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
            <TextField
              select
              fullWidth
              label={t('orgPages.page')}
              value={page}
              onChange={(event) => setPage(event.target.value as TOrgPage)}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'org-page-select' } as object } }}
            >
              {ORG_PAGES.map((option) => (
                <MenuItem key={option} value={option} data-testid={`org-page-option-${option}`}>
                  {t(PAGE_TITLE_KEYS[option])}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              fullWidth
              label={t('orgPages.language')}
              value={language}
              onChange={(event) => setLanguage(event.target.value as TOrgPageLanguage)}
              slotProps={{
                select: { SelectDisplayProps: { 'data-testid': 'org-language-select' } as object },
              }}
            >
              {ORG_PAGE_LANGUAGES.map((option) => (
                <MenuItem
                  key={option}
                  value={option}
                  lang={LANGUAGE_BCP47[option]}
                  data-testid={`org-language-option-${option}`}
                >
                  {LANGUAGE_NATIVE_NAMES[option]}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {query.isError && !view ? (
            <LoadError onRetry={() => void query.refetch()} />
          ) : !view ? (
            <PageSkeleton />
          ) : (
            <PageMarkdownForm key={`${page}:${language}`} page={page} language={language} view={view} />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('orgPages.contactTitle')}
          </Typography>
          {support.isError && !support.data ? (
            <LoadError onRetry={() => void support.refetch()} />
          ) : !support.data ? (
            <PageSkeleton />
          ) : (
            <SupportContactForm contact={support.data.supportContact} />
          )}
        </CardContent>
      </Card>
    </Stack>
  );
};
