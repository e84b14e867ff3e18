import { zodResolver } from '@hookform/resolvers/zod';
import type { TAdminRetailer } from '@kisht/domain/ledger/ledger.schema';
import { ZCreditKeysRequest } from '@kisht/domain/ledger/ledger.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { applyServerFieldErrors, fieldErrorText, fieldMessageKey } from '../../../lib/form-errors';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import { wholeNumberInputProps } from '../../../lib/whole-number-input';
import { useCreditKeysMutation } from '../admin-api';
import { APP_TYPE_OPTIONS } from '../app-types';

type TFormInput = z.input<typeof ZCreditKeysRequest>;
type TFormOutput = z.output<typeof ZCreditKeysRequest>;
const resolver = zodResolver<TFormInput, unknown, TFormOutput>(ZCreditKeysRequest);
const FIELDS = ['appType', 'quantity', 'note'] as const;
const fieldOf = (field: string) =>
  (FIELDS.find((known) => known === field) ?? null) as (typeof FIELDS)[number] | null;

/** "Credit keys": the admin gives a retailer keys of an app_type (a top-up, with an optional note). */
export const CreditKeysDialog = ({
  retailer,
  onClose,
}: {
  retailer: TAdminRetailer;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [creditKeys, { isLoading }] = useCreditKeysMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TFormInput, unknown, TFormOutput>({
    resolver,
    defaultValues: { retailerId: retailer.id, appType: APP_TYPE_OPTIONS[0]!.value, quantity: 1, note: '' },
  });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await creditKeys({ ...values, note: values.note || undefined });
    if (result.error) {
      if (isApiError(result.error) && applyServerFieldErrors(result.error, form.setError, fieldOf)) return;
      setFailure(apiErrorMessage(result.error, t('admin.failed')));
      return;
    }
    enqueueSnackbar(
      t('admin.retailers.credited', { count: values.quantity, shop: retailer.shopName ?? retailer.name }),
      {
        variant: 'success',
      },
    );
    onClose();
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="credit-dialog">
      <DialogTitle>
        {t('admin.retailers.creditTitle', { shop: retailer.shopName ?? retailer.name })}
      </DialogTitle>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogContent>
          <Stack spacing={2}>
            <Controller
              control={form.control}
              name="appType"
              render={({ field, fieldState }) => (
                <TextField
                  select
                  label={t('admin.retailers.keyType')}
                  value={field.value}
                  onChange={(event) => field.onChange(Number(event.target.value))}
                  error={Boolean(fieldState.error)}
                  helperText={fieldErrorText(fieldState.error, (error) =>
                    t(fieldMessageKey(error, field.value, 'validation.invalidValue')),
                  )}
                >
                  {APP_TYPE_OPTIONS.map((option) => (
                    <MenuItem key={option.value} value={option.value}>
                      {t(option.labelKey)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Controller
              control={form.control}
              name="quantity"
              render={({ field, fieldState }) => (
                <TextField
                  label={t('admin.retailers.quantity')}
                  {...wholeNumberInputProps(field)}
                  error={Boolean(fieldState.error)}
                  helperText={fieldErrorText(
                    fieldState.error,
                    (error) => error.message ?? t('validation.invalidValue'),
                  )}
                  slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'credit-quantity' } }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="note"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  value={field.value ?? ''}
                  label={t('admin.retailers.note')}
                  error={Boolean(fieldState.error)}
                  helperText={fieldErrorText(fieldState.error, () => t('validation.tooLong'))}
                />
              )}
            />
            {failure && <Alert severity="error">{failure}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('admin.cancel')}</Button>
          <Button type="submit" variant="contained" loading={isLoading} data-testid="credit-submit">
            {t('admin.retailers.credit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
