import { zodResolver } from '@hookform/resolvers/zod';
import type { TAdminRetailer } from '@kisht/domain/ledger/ledger.schema';
import { PARTNER_KEY_SCOPES } from '@kisht/domain/partner-api/partner-api.rules';
import type { TPartnerKey, TPartnerKeyWithSecret } from '@kisht/domain/partner-api/partner-api.schema';
import { ZCreatePartnerKey } from '@kisht/domain/partner-api/partner-api.schema';
import { paths } from '@kisht/domain/paths';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { z } from 'zod';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormDialog } from '../../../components/form-dialog';
import { LoadError } from '../../../components/load-error';
import { SecretOnceDialog } from '../../../components/secret-once-dialog';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { formatDateTime, formatMobile } from '../../../lib/format';
import { useListAdminRetailersQuery } from '../../../lib/http/admin-retailers-api';
import { selectRequestContext } from '../../../lib/http/api';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import {
  useCreatePartnerKeyMutation,
  useListPartnerKeysQuery,
  useRevokePartnerKeyMutation,
} from '../partner-keys-api';

/** Newest first (the server's order too), so a key just made, written into the list, tops it. */
const newestFirst = (a: TPartnerKey, b: TPartnerKey): number =>
  Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id;

/**
 * The organisation admin's partner API keys (issue 30): the keys a lender's server calls
 * /partner/v1 with, newest first, each with its scopes and the retailer its loans are booked
 * under; "New API key"; a revoke (asked first); and the address of the API's OpenAPI document. A
 * key's whole text is shown once, right after it is made: the server keeps only its hash.
 */
export const PartnerKeysPanel = () => {
  const { t } = useTranslation();
  const keys = useListPartnerKeysQuery();
  const [isAdding, setIsAdding] = useState(false);
  const [revoking, setRevoking] = useState<TPartnerKey | null>(null);
  const [shownKey, setShownKey] = useState<TPartnerKeyWithSecret | null>(null);
  const [revoke, { isLoading: isRevoking }] = useRevokePartnerKeyMutation();
  const sortedKeys = useMemo(() => keys.data && [...keys.data].sort(newestFirst), [keys.data]);

  const confirmRevoke = async () => {
    if (!revoking) return;
    const result = await revoke(revoking.id);
    setRevoking(null);
    if (result.data) enqueueSnackbar(t('partnerKeys.revokedDone'), { variant: 'success' });
    else enqueueSnackbar(apiErrorMessage(result.error, t('admin.failed')), { variant: 'error' });
  };

  return (
    <Stack spacing={2} data-testid="admin-partner-keys">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary">
          {t('partnerKeys.intro')}
        </Typography>
        <Button
          variant="contained"
          onClick={() => setIsAdding(true)}
          sx={{ flexShrink: 0 }}
          data-testid="partner-key-add"
        >
          {t('partnerKeys.add')}
        </Button>
      </Stack>
      <DocsLink />
      {keys.isLoading && <Skeleton variant="rounded" height={120} />}
      {keys.isError && (
        <LoadError
          message={apiErrorMessage(keys.error, t('admin.failed'))}
          onRetry={() => {
            void keys.refetch();
          }}
        />
      )}
      {sortedKeys?.length === 0 && (
        <Typography color="text.secondary" data-testid="partner-keys-empty">
          {t('partnerKeys.empty')}
        </Typography>
      )}
      {sortedKeys?.map((key) => (
        <KeyCard key={key.id} partnerKey={key} onRevoke={() => setRevoking(key)} />
      ))}
      <FormDialog
        isOpen={isAdding}
        onClose={() => setIsAdding(false)}
        title={t('partnerKeys.addTitle')}
        maxWidth="sm"
        testId="partner-key-add-dialog"
      >
        <NewKeyForm
          onClose={() => setIsAdding(false)}
          onCreated={(created) => {
            setIsAdding(false);
            setShownKey(created);
          }}
        />
      </FormDialog>
      <ConfirmDialog
        isOpen={revoking !== null}
        title={t('partnerKeys.revokeTitle')}
        body={t('partnerKeys.revokeText')}
        confirmLabel={t('partnerKeys.revoke')}
        confirmColor="error"
        isBusy={isRevoking}
        confirmTestId="partner-key-confirm"
        onConfirm={() => void confirmRevoke()}
        onClose={() => setRevoking(null)}
      >
        {revoking && (
          <Typography sx={{ mt: 1, wordBreak: 'break-all' }}>
            {revoking.name} ·{' '}
            <Box component="span" sx={{ fontFamily: 'monospace' }}>
              {revoking.keyPrefix}…
            </Box>
          </Typography>
        )}
      </ConfirmDialog>
      {shownKey && <KeyOnceDialog created={shownKey} onClose={() => setShownKey(null)} />}
    </Stack>
  );
};

/**
 * The address of the partner API's OpenAPI document, whole (on the API's origin, which may not be
 * the app's), so the admin can hand it to the lender's developers.
 */
const DocsLink = () => {
  const { t } = useTranslation();
  const baseUrl = useSelector((state) => selectRequestContext(state).baseUrl);
  const href = new URL(`${baseUrl}${paths.partner.openapi}`, window.location.href).href;
  return (
    <Alert severity="info" data-testid="partner-keys-docs">
      <Typography variant="body2">{t('partnerKeys.docsText')}</Typography>
      <Link
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
        data-testid="partner-keys-docs-link"
      >
        {href}
      </Link>
    </Alert>
  );
};

/** One key: its name, status, prefix, scopes, the retailer its loans are booked under, dates, revoke. */
const KeyCard = ({ partnerKey, onRevoke }: { partnerKey: TPartnerKey; onRevoke: () => void }) => {
  const { t } = useTranslation();
  const isRevoked = partnerKey.revokedAt !== null;
  return (
    <Card variant="outlined" data-testid={`partner-key-${partnerKey.id}`}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, wordBreak: 'break-word', minWidth: 0 }}>
            {partnerKey.name}
          </Typography>
          <Chip
            size="small"
            color={isRevoked ? 'default' : 'success'}
            variant="outlined"
            label={t(isRevoked ? 'partnerKeys.revoked' : 'partnerKeys.active')}
            data-testid={`partner-key-status-${partnerKey.id}`}
            sx={{ flexShrink: 0 }}
          />
        </Stack>
        <Typography
          variant="body2"
          sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
          data-testid={`partner-key-prefix-${partnerKey.id}`}
        >
          {partnerKey.keyPrefix}…
        </Typography>
        <Stack
          direction="row"
          sx={{ flexWrap: 'wrap', gap: 0.5, my: 1 }}
          aria-label={t('partnerKeys.scopesLabel')}
        >
          {partnerKey.scopes.map((scope) => (
            <Chip key={scope} size="small" label={t(`partnerKeys.scopes.${scope}`)} />
          ))}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {t('partnerKeys.bookedUnder', { retailer: partnerKey.retailerName })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('partnerKeys.createdOn', { date: formatDateTime(partnerKey.createdAt) })}
        </Typography>
        {partnerKey.revokedAt !== null && (
          <Typography variant="body2" color="error" data-testid={`partner-key-revoked-${partnerKey.id}`}>
            {t('partnerKeys.revokedOn', { date: formatDateTime(partnerKey.revokedAt) })}
          </Typography>
        )}
      </CardContent>
      {!isRevoked && (
        <CardActions>
          <Button
            size="small"
            color="error"
            onClick={onRevoke}
            data-testid={`partner-key-revoke-${partnerKey.id}`}
          >
            {t('partnerKeys.revoke')}
          </Button>
        </CardActions>
      )}
    </Card>
  );
};

type TFormInput = z.input<typeof ZCreatePartnerKey>;
type TFormOutput = z.output<typeof ZCreatePartnerKey>;
const resolver = zodResolver<TFormInput, unknown, TFormOutput>(ZCreatePartnerKey);
const FIELDS = ['name', 'scopes', 'retailer_id'] as const;
/** The form field of a server field error (`scopes.1` is the scopes' one). */
const fieldOf = (field: string) =>
  (FIELDS.find((known) => known === field.split('.')[0]) ?? null) as (typeof FIELDS)[number] | null;
/** ZCreatePartnerKey's longest name, and its message for one too long. */
const NAME_MAX_LENGTH = 60;
const TOO_LONG_MESSAGE = `At most ${NAME_MAX_LENGTH} characters`;

/** "New API key": a name, at least one scope, and the retailer its loans are booked under. */
const NewKeyForm = ({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (created: TPartnerKeyWithSecret) => void;
}) => {
  const { t } = useTranslation();
  const [create, { isLoading }] = useCreatePartnerKeyMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TFormInput, unknown, TFormOutput>({
    resolver,
    defaultValues: { name: '', scopes: [] },
  });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await create(values);
    if (result.error) {
      if (isApiError(result.error) && applyServerFieldErrors(result.error, form.setError, fieldOf)) return;
      setFailure(apiErrorMessage(result.error, t('admin.failed')));
      return;
    }
    onCreated(result.data);
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Stack spacing={2}>
          <Controller
            control={form.control}
            name="name"
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                value={field.value ?? ''}
                label={t('partnerKeys.name')}
                required
                autoFocus
                error={Boolean(fieldState.error)}
                helperText={
                  fieldErrorText(fieldState.error, (error) =>
                    error.message === TOO_LONG_MESSAGE ? t('validation.tooLong') : t('validation.required'),
                  ) ?? t('partnerKeys.nameHint')
                }
                slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH, 'data-testid': 'partner-key-name' } }}
              />
            )}
          />
          <Controller
            control={form.control}
            name="scopes"
            render={({ field, fieldState }) => {
              const message = fieldErrorText(fieldState.error, () => t('partnerKeys.chooseScope'));
              return (
                <FormControl component="fieldset" error={Boolean(message)} required>
                  <FormLabel component="legend">{t('partnerKeys.scopesLabel')}</FormLabel>
                  <FormGroup>
                    {PARTNER_KEY_SCOPES.map((scope) => (
                      <FormControlLabel
                        key={scope}
                        sx={{ alignItems: 'flex-start', mb: 0.5 }}
                        control={
                          <Checkbox
                            checked={field.value.includes(scope)}
                            onChange={(_event, isChecked) =>
                              field.onChange(
                                isChecked
                                  ? PARTNER_KEY_SCOPES.filter(
                                      (known) => known === scope || field.value.includes(known),
                                    )
                                  : field.value.filter((chosen) => chosen !== scope),
                              )
                            }
                            sx={{ pt: 0.5 }}
                            data-testid={`partner-key-scope-${scope}`}
                          />
                        }
                        label={
                          <Box sx={{ pt: 0.75 }}>
                            <Typography variant="body1">{t(`partnerKeys.scopes.${scope}`)}</Typography>
                            <Typography variant="body2" color="text.secondary">
                              {t(`partnerKeys.scopeHints.${scope}`)}
                            </Typography>
                          </Box>
                        }
                      />
                    ))}
                  </FormGroup>
                  {message && <FormHelperText>{message}</FormHelperText>}
                </FormControl>
              );
            }}
          />
          <Controller
            control={form.control}
            name="retailer_id"
            render={({ field, fieldState }) => (
              <RetailerPicker
                onChange={(retailer) => field.onChange(retailer?.id)}
                onBlur={field.onBlur}
                error={fieldErrorText(fieldState.error, () => t('partnerKeys.chooseRetailer'))}
                inputRef={field.ref}
              />
            )}
          />
          {failure && <Alert severity="error">{failure}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" loading={isLoading} data-testid="partner-key-save">
          {t('partnerKeys.save')}
        </Button>
      </DialogActions>
    </form>
  );
};

/** How long typing in the retailer search waits before it asks the server, ms. */
const SEARCH_DELAY_MS = 300;

const retailerLabel = (retailer: TAdminRetailer): string =>
  `${retailer.shopName ?? retailer.name} · ${formatMobile(retailer.mobile)}`;

/**
 * Chooses the organisation's retailer a key's loans are booked under: typing searches by name,
 * shop or mobile (the server answers the first 50 by name); an inactive retailer is shown but
 * cannot be chosen, as the server would refuse it.
 */
const RetailerPicker = ({
  onChange,
  onBlur,
  error,
  inputRef,
}: {
  onChange: (retailer: TAdminRetailer | null) => void;
  onBlur: () => void;
  error: string | null;
  inputRef: (element: HTMLInputElement | null) => void;
}) => {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<TAdminRetailer | null>(null);
  const [inputText, setInputText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const text = inputText.trim();
    // Text that only shows the chosen retailer's label is not a search.
    const next = chosen && text === retailerLabel(chosen) ? search : text;
    if (next === search) return;
    const timer = setTimeout(() => setSearch(next), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [inputText, chosen, search]);
  const retailers = useListAdminRetailersQuery(search);

  return (
    <Autocomplete
      options={retailers.data ?? []}
      value={chosen}
      onChange={(_event, retailer) => {
        setChosen(retailer);
        onChange(retailer);
      }}
      onBlur={onBlur}
      inputValue={inputText}
      onInputChange={(_event, text) => setInputText(text)}
      // The server has already filtered by the search.
      filterOptions={(all) => all}
      isOptionEqualToValue={(option, value) => option.id === value.id}
      getOptionLabel={retailerLabel}
      getOptionKey={(option) => option.id}
      getOptionDisabled={(option) => !option.isActive}
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props}>
          {retailerLabel(option)}
          {!option.isActive && ` · ${t('partnerKeys.inactive')}`}
        </li>
      )}
      loading={retailers.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={
        retailers.isError ? apiErrorMessage(retailers.error, t('admin.failed')) : t('partnerKeys.noRetailers')
      }
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          label={t('partnerKeys.retailer')}
          placeholder={t('partnerKeys.retailerSearch')}
          required
          error={error !== null}
          helperText={error ?? t('partnerKeys.retailerHint')}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'partner-key-retailer' },
          }}
        />
      )}
    />
  );
};

/** The key's whole text, this once (Kisht keeps only its hash). */
const KeyOnceDialog = ({ created, onClose }: { created: TPartnerKeyWithSecret; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <SecretOnceDialog
      secret={created.apiKey}
      testId="partner-key-secret"
      onClose={onClose}
      texts={{
        title: t('partnerKeys.secretTitle'),
        text: t('partnerKeys.secretText', { name: created.key.name }),
        warning: t('partnerKeys.secretOnce'),
        copy: t('partnerKeys.copy'),
        copied: t('partnerKeys.copied'),
        copyFailed: t('partnerKeys.copyFailed'),
        done: t('partnerKeys.secretDone'),
      }}
    />
  );
};
