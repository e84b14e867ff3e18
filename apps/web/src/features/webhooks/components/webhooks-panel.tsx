import { zodResolver } from '@hookform/resolvers/zod';
import type { TWebhookEventType } from '@kisht/domain/webhooks/webhooks.rules';
import { WEBHOOK_EVENT_TYPES } from '@kisht/domain/webhooks/webhooks.rules';
import type { TWebhookDelivery, TWebhookEndpoint } from '@kisht/domain/webhooks/webhooks.schema';
import { ZCreateWebhookEndpoint } from '@kisht/domain/webhooks/webhooks.schema';
import Alert from '@mui/material/Alert';
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
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { enqueueSnackbar } from 'notistack';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormDialog } from '../../../components/form-dialog';
import { LoadError } from '../../../components/load-error';
import { SecretOnceDialog } from '../../../components/secret-once-dialog';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import {
  useCreateWebhookEndpointMutation,
  useEnableWebhookEndpointMutation,
  useListWebhookDeliveriesQuery,
  useListWebhookEndpointsQuery,
  useRemoveWebhookEndpointMutation,
  useResendWebhookMutation,
  useRotateWebhookSecretMutation,
} from '../webhooks-api';

/** An event type as a translation key: i18next reads dots as nesting, so `device.locked` → `device_locked`. */
type TEventKey<T extends string> = T extends `${infer Head}.${infer Tail}` ? `${Head}_${Tail}` : T;
const eventLabel = (t: TFunction, type: TWebhookEventType): string =>
  t(`webhooks.events.${type.replace('.', '_') as TEventKey<TWebhookEventType>}`);

const DELIVERY_STATUS_COLOR = { pending: 'warning', delivered: 'success', failed: 'error' } as const;

/** A signing secret just answered by create or rotate, for the URL it signs for. */
type TShownSecret = { url: string; secret: string };
/** The action the admin is asked to confirm. */
type TAsked = { action: 'rotate' | 'remove'; endpoint: TWebhookEndpoint } | null;

/**
 * The organisation admin's outbound webhooks (issue 30): the lender receivers with their events
 * and status, "Add endpoint", and per endpoint its delivery log (with a resend), a secret
 * rotation, an enable (once disabled) and a remove. A signing secret is shown once, right after
 * create or rotate: the server never answers it again.
 */
export const WebhooksPanel = () => {
  const { t } = useTranslation();
  const endpoints = useListWebhookEndpointsQuery();
  const [isAdding, setIsAdding] = useState(false);
  const [asked, setAsked] = useState<TAsked>(null);
  const [shownSecret, setShownSecret] = useState<TShownSecret | null>(null);
  const [rotate, { isLoading: isRotating }] = useRotateWebhookSecretMutation();
  const [remove, { isLoading: isRemoving }] = useRemoveWebhookEndpointMutation();

  const confirm = async () => {
    if (!asked) return;
    const { action, endpoint } = asked;
    if (action === 'rotate') {
      const result = await rotate({ endpoint_id: endpoint.id });
      setAsked(null);
      if (result.data) setShownSecret({ url: result.data.endpoint.url, secret: result.data.secret });
      else enqueueSnackbar(apiErrorMessage(result.error, t('admin.failed')), { variant: 'error' });
      return;
    }
    const result = await remove(endpoint.id);
    setAsked(null);
    if (result.data) enqueueSnackbar(t('webhooks.removed'), { variant: 'success' });
    else enqueueSnackbar(apiErrorMessage(result.error, t('admin.failed')), { variant: 'error' });
  };

  return (
    <Stack spacing={2} data-testid="admin-webhooks">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary">
          {t('webhooks.intro')}
        </Typography>
        <Button
          variant="contained"
          onClick={() => setIsAdding(true)}
          sx={{ flexShrink: 0 }}
          data-testid="webhook-add"
        >
          {t('webhooks.add')}
        </Button>
      </Stack>
      {endpoints.isLoading && <Skeleton variant="rounded" height={120} />}
      {endpoints.isError && (
        <LoadError
          message={apiErrorMessage(endpoints.error, t('admin.failed'))}
          onRetry={() => {
            void endpoints.refetch();
          }}
        />
      )}
      {endpoints.data?.length === 0 && (
        <Typography color="text.secondary" data-testid="webhooks-empty">
          {t('webhooks.empty')}
        </Typography>
      )}
      {endpoints.data?.map((endpoint) => (
        <EndpointCard
          key={endpoint.id}
          endpoint={endpoint}
          onRotate={() => setAsked({ action: 'rotate', endpoint })}
          onRemove={() => setAsked({ action: 'remove', endpoint })}
        />
      ))}
      <FormDialog
        isOpen={isAdding}
        onClose={() => setIsAdding(false)}
        title={t('webhooks.addTitle')}
        maxWidth="sm"
        testId="webhook-add-dialog"
      >
        <AddEndpointForm
          onClose={() => setIsAdding(false)}
          onCreated={(shown) => {
            setIsAdding(false);
            setShownSecret(shown);
          }}
        />
      </FormDialog>
      <ConfirmDialog
        isOpen={asked !== null}
        title={t(asked?.action === 'remove' ? 'webhooks.removeTitle' : 'webhooks.rotateTitle')}
        body={
          asked
            ? t(asked.action === 'remove' ? 'webhooks.removeText' : 'webhooks.rotateText', {
                url: asked.endpoint.url,
              })
            : ''
        }
        confirmLabel={t(asked?.action === 'remove' ? 'webhooks.remove' : 'webhooks.rotate')}
        confirmColor={asked?.action === 'remove' ? 'error' : 'primary'}
        isBusy={isRotating || isRemoving}
        confirmTestId="webhook-confirm"
        onConfirm={() => void confirm()}
        onClose={() => setAsked(null)}
      />
      {shownSecret && <SecretDialog shown={shownSecret} onClose={() => setShownSecret(null)} />}
    </Stack>
  );
};

/** One endpoint: its URL, status (with why it was disabled), events, actions and delivery log. */
const EndpointCard = ({
  endpoint,
  onRotate,
  onRemove,
}: {
  endpoint: TWebhookEndpoint;
  onRotate: () => void;
  onRemove: () => void;
}) => {
  const { t } = useTranslation();
  const [isLogOpen, setIsLogOpen] = useState(false);
  const [enable, { isLoading: isEnabling }] = useEnableWebhookEndpointMutation();
  const logId = useId();
  const isDisabled = endpoint.status === 'disabled';

  const enableAgain = async () => {
    const result = await enable({ endpoint_id: endpoint.id });
    if (result.data) enqueueSnackbar(t('webhooks.enabledAgain'), { variant: 'success' });
    else enqueueSnackbar(apiErrorMessage(result.error, t('admin.failed')), { variant: 'error' });
  };

  return (
    <Card variant="outlined" data-testid={`webhook-endpoint-${endpoint.id}`}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, wordBreak: 'break-all', minWidth: 0 }}>
            {endpoint.url}
          </Typography>
          <Chip
            size="small"
            color={isDisabled ? 'error' : 'success'}
            variant="outlined"
            label={t(isDisabled ? 'webhooks.disabled' : 'webhooks.enabled')}
            data-testid={`webhook-status-${endpoint.id}`}
            sx={{ flexShrink: 0 }}
          />
        </Stack>
        {endpoint.description && (
          <Typography variant="body2" color="text.secondary">
            {endpoint.description}
          </Typography>
        )}
        {isDisabled && (
          <Alert severity="warning" sx={{ mt: 1 }} data-testid={`webhook-reason-${endpoint.id}`}>
            {endpoint.disabledReason
              ? t('webhooks.disabledBecause', { reason: endpoint.disabledReason })
              : t('webhooks.disabledNoReason')}
          </Alert>
        )}
        <Stack
          direction="row"
          sx={{ flexWrap: 'wrap', gap: 0.5, mt: 1 }}
          aria-label={t('webhooks.eventsLabel')}
        >
          {endpoint.events.map((type) => (
            <Chip key={type} size="small" label={eventLabel(t, type)} />
          ))}
        </Stack>
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 0.5, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
        <Button
          size="small"
          aria-expanded={isLogOpen}
          aria-controls={logId}
          onClick={() => setIsLogOpen(!isLogOpen)}
          data-testid={`webhook-log-${endpoint.id}`}
        >
          {t(isLogOpen ? 'webhooks.hideLog' : 'webhooks.log')}
        </Button>
        {isDisabled && (
          <Button
            size="small"
            variant="contained"
            loading={isEnabling}
            onClick={() => void enableAgain()}
            data-testid={`webhook-enable-${endpoint.id}`}
          >
            {t('webhooks.enable')}
          </Button>
        )}
        <Button size="small" onClick={onRotate} data-testid={`webhook-rotate-${endpoint.id}`}>
          {t('webhooks.rotate')}
        </Button>
        <Button size="small" color="error" onClick={onRemove} data-testid={`webhook-remove-${endpoint.id}`}>
          {t('webhooks.remove')}
        </Button>
      </CardActions>
      {isLogOpen && (
        <Box id={logId} sx={{ px: 2, pb: 2 }}>
          <DeliveryLog endpointId={endpoint.id} />
        </Box>
      )}
    </Card>
  );
};

/** What the receiver last answered: its HTTP status and the error, or that it did not answer. */
const lastResult = (t: TFunction, delivery: TWebhookDelivery): string | null => {
  const parts = [
    delivery.lastStatusCode === null ? null : t('webhooks.answered', { code: delivery.lastStatusCode }),
    delivery.lastError,
  ].filter((part): part is string => Boolean(part));
  if (parts.length > 0) return parts.join(' · ');
  return delivery.attempts > 0 && delivery.status !== 'delivered' ? t('webhooks.noAnswer') : null;
};

/** An endpoint's newest messages, newest first, each with how it was delivered and a resend. */
const DeliveryLog = ({ endpointId }: { endpointId: number }) => {
  const { t } = useTranslation();
  const deliveries = useListWebhookDeliveriesQuery(endpointId);
  const [resend, { isLoading: isResending, originalArgs }] = useResendWebhookMutation();

  const resendOne = async (messageId: string) => {
    const result = await resend({ endpointId, message_id: messageId });
    if (result.data) enqueueSnackbar(t('webhooks.resent'), { variant: 'success' });
    else enqueueSnackbar(apiErrorMessage(result.error, t('admin.failed')), { variant: 'error' });
  };

  if (deliveries.isLoading) return <Skeleton variant="rounded" height={64} />;
  if (deliveries.isError)
    return (
      <LoadError
        message={apiErrorMessage(deliveries.error, t('admin.failed'))}
        onRetry={() => {
          void deliveries.refetch();
        }}
      />
    );
  if (deliveries.data?.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" data-testid={`webhook-log-empty-${endpointId}`}>
        {t('webhooks.logEmpty')}
      </Typography>
    );
  return (
    <List dense disablePadding aria-label={t('webhooks.log')}>
      {deliveries.data?.map((delivery) => {
        const result = lastResult(t, delivery);
        return (
          <ListItem
            key={delivery.id}
            divider
            disableGutters
            data-testid={`webhook-delivery-${delivery.id}`}
            sx={{ alignItems: 'flex-start', gap: 1 }}
          >
            <ListItemText
              sx={{ minWidth: 0 }}
              primary={
                <Stack direction="row" sx={{ flexWrap: 'wrap', alignItems: 'center', gap: 0.5 }}>
                  <span>{eventLabel(t, delivery.eventType)}</span>
                  <Chip
                    size="small"
                    variant="outlined"
                    color={DELIVERY_STATUS_COLOR[delivery.status]}
                    label={t(`webhooks.status.${delivery.status}`)}
                  />
                </Stack>
              }
              secondary={
                <>
                  {formatDateTime(delivery.createdAt)} · {t('webhooks.attempts', { n: delivery.attempts })}
                  {result && (
                    <>
                      <br />
                      {result}
                    </>
                  )}
                  <br />
                  <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                    {delivery.id}
                  </Box>
                </>
              }
            />
            <Button
              size="small"
              sx={{ flexShrink: 0 }}
              loading={isResending && originalArgs?.message_id === delivery.id}
              onClick={() => void resendOne(delivery.id)}
              data-testid={`webhook-resend-${delivery.id}`}
            >
              {t('webhooks.resend')}
            </Button>
          </ListItem>
        );
      })}
    </List>
  );
};

type TFormInput = z.input<typeof ZCreateWebhookEndpoint>;
type TFormOutput = z.output<typeof ZCreateWebhookEndpoint>;
const resolver = zodResolver<TFormInput, unknown, TFormOutput>(ZCreateWebhookEndpoint);
const FIELDS = ['url', 'events', 'description'] as const;
/** The form field of a server field error (`events.1` is the events' one). */
const fieldOf = (field: string) =>
  (FIELDS.find((known) => known === field.split('.')[0]) ?? null) as (typeof FIELDS)[number] | null;
/** ZCreateWebhookEndpoint's message for a URL too long. */
const TOO_LONG_MESSAGE = 'At most 500 characters';

/** "Add endpoint": the receiver URL, an optional description and at least one event. */
const AddEndpointForm = ({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (shown: TShownSecret) => void;
}) => {
  const { t } = useTranslation();
  const [create, { isLoading }] = useCreateWebhookEndpointMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TFormInput, unknown, TFormOutput>({
    resolver,
    defaultValues: { url: '', events: [], description: '' },
  });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await create({ ...values, description: values.description || undefined });
    if (result.error) {
      if (isApiError(result.error) && applyServerFieldErrors(result.error, form.setError, fieldOf)) return;
      setFailure(apiErrorMessage(result.error, t('admin.failed')));
      return;
    }
    onCreated({ url: result.data.endpoint.url, secret: result.data.secret });
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Stack spacing={2}>
          <Controller
            control={form.control}
            name="url"
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                value={field.value ?? ''}
                label={t('webhooks.url')}
                type="url"
                required
                autoFocus
                error={Boolean(fieldState.error)}
                helperText={
                  fieldErrorText(fieldState.error, (error) =>
                    field.value === ''
                      ? t('validation.required')
                      : error.message === TOO_LONG_MESSAGE
                        ? t('validation.tooLong')
                        : t('webhooks.invalidUrl'),
                  ) ?? t('webhooks.urlHint')
                }
                slotProps={{ htmlInput: { inputMode: 'url', 'data-testid': 'webhook-url' } }}
              />
            )}
          />
          <Controller
            control={form.control}
            name="description"
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                value={field.value ?? ''}
                label={t('webhooks.description')}
                error={Boolean(fieldState.error)}
                helperText={fieldErrorText(fieldState.error, () => t('validation.tooLong'))}
                slotProps={{ htmlInput: { 'data-testid': 'webhook-description' } }}
              />
            )}
          />
          <Controller
            control={form.control}
            name="events"
            render={({ field, fieldState }) => {
              const message = fieldErrorText(fieldState.error, () => t('webhooks.chooseEvent'));
              return (
                <FormControl component="fieldset" error={Boolean(message)} required>
                  <FormLabel component="legend">{t('webhooks.eventsLabel')}</FormLabel>
                  <FormGroup>
                    {WEBHOOK_EVENT_TYPES.map((type) => (
                      <FormControlLabel
                        key={type}
                        control={
                          <Checkbox
                            checked={field.value.includes(type)}
                            onChange={(_event, isChecked) =>
                              field.onChange(
                                isChecked
                                  ? WEBHOOK_EVENT_TYPES.filter(
                                      (known) => known === type || field.value.includes(known),
                                    )
                                  : field.value.filter((chosen) => chosen !== type),
                              )
                            }
                            data-testid={`webhook-event-${type}`}
                          />
                        }
                        label={eventLabel(t, type)}
                      />
                    ))}
                  </FormGroup>
                  {message && <FormHelperText>{message}</FormHelperText>}
                </FormControl>
              );
            }}
          />
          {failure && <Alert severity="error">{failure}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" loading={isLoading} data-testid="webhook-save">
          {t('webhooks.save')}
        </Button>
      </DialogActions>
    </form>
  );
};

/** The signing secret, this once (Kisht never answers it again). */
const SecretDialog = ({ shown, onClose }: { shown: TShownSecret; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <SecretOnceDialog
      secret={shown.secret}
      testId="webhook-secret"
      onClose={onClose}
      texts={{
        title: t('webhooks.secretTitle'),
        text: t('webhooks.secretText', { url: shown.url }),
        warning: t('webhooks.secretOnce'),
        copy: t('webhooks.copy'),
        copied: t('webhooks.copied'),
        copyFailed: t('webhooks.copyFailed'),
        done: t('webhooks.secretDone'),
      }}
    />
  );
};
