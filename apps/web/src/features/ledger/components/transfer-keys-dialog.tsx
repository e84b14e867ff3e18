import { zodResolver } from '@hookform/resolvers/zod';
import { APP_TYPE_CODES } from '@kisht/domain/common/enums';
import { ZTransferKeysRequest } from '@kisht/domain/ledger/ledger.schema';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { appTypeName } from '../../../lib/app-type-name';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import { wholeNumberInputProps } from '../../../lib/whole-number-input';
import { useTransferKeysMutation } from '../ledger-api';

type TFormInput = z.input<typeof ZTransferKeysRequest>;
type TFormOutput = z.output<typeof ZTransferKeysRequest>;
const resolver = zodResolver<TFormInput, unknown, TFormOutput>(ZTransferKeysRequest);
const FIELDS = ['appType', 'quantity', 'direction'] as const;
const fieldOf = (field: string) =>
  (FIELDS.find((known) => known === field) ?? null) as (typeof FIELDS)[number] | null;

type TTransferKeysProps = {
  /** The mini-retailer the keys go to or come back from. */
  userId: number;
  /** Its name, as the dialog says it. */
  name: string;
};

/**
 * "Transfer keys": a retailer gives keys of an app_type to one of its mini-retailers, or takes
 * them back (react-hook-form with the domain ZTransferKeysRequest). The server's refusal (not
 * enough keys: 409 naming the quantity) shows under the field, in the server's words.
 */
export const TransferKeysDialog = ({
  userId,
  name,
  onClose,
}: TTransferKeysProps & { onClose: () => void }) => {
  const { t } = useTranslation();
  const [transferKeys, { isLoading }] = useTransferKeysMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TFormInput, unknown, TFormOutput>({
    resolver,
    defaultValues: { userId, appType: APP_TYPE_CODES[0], quantity: 1, direction: 'to_child' },
  });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await transferKeys(values);
    if (result.error) {
      if (isApiError(result.error) && applyServerFieldErrors(result.error, form.setError, fieldOf)) return;
      setFailure(apiErrorMessage(result.error, t('ledger.transfer.failed')));
      return;
    }
    enqueueSnackbar(t('ledger.transfer.done', { count: values.quantity }), { variant: 'success' });
    onClose();
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="transfer-keys-dialog">
      <DialogTitle>{t('ledger.transfer.title', { name })}</DialogTitle>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogContent>
          <Stack spacing={2}>
            <Controller
              control={form.control}
              name="direction"
              render={({ field }) => (
                <Stack>
                  <FormLabel id="transfer-direction">{t('ledger.transfer.direction')}</FormLabel>
                  <RadioGroup
                    aria-labelledby="transfer-direction"
                    value={field.value}
                    onChange={(event) => field.onChange(event.target.value)}
                  >
                    <FormControlLabel
                      value="to_child"
                      control={<Radio />}
                      label={t('ledger.transfer.toChild', { name })}
                    />
                    <FormControlLabel
                      value="from_child"
                      control={<Radio />}
                      label={t('ledger.transfer.fromChild', { name })}
                    />
                  </RadioGroup>
                </Stack>
              )}
            />
            <Controller
              control={form.control}
              name="appType"
              render={({ field, fieldState }) => (
                <TextField
                  select
                  label={t('ledger.transfer.appType')}
                  value={field.value}
                  onChange={(event) => field.onChange(Number(event.target.value))}
                  error={Boolean(fieldState.error)}
                  helperText={fieldErrorText(fieldState.error, () => t('validation.invalidValue'))}
                  slotProps={{ htmlInput: { 'data-testid': 'transfer-app-type' } }}
                >
                  {APP_TYPE_CODES.map((code) => (
                    <MenuItem key={code} value={code}>
                      {appTypeName(t, code)}
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
                  label={t('ledger.transfer.quantity')}
                  {...wholeNumberInputProps(field)}
                  error={Boolean(fieldState.error)}
                  helperText={fieldErrorText(fieldState.error, () => t('ledger.transfer.quantityInvalid'))}
                  slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'transfer-quantity' } }}
                />
              )}
            />
            {failure && <Alert severity="error">{failure}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" loading={isLoading} data-testid="transfer-submit">
            {t('ledger.transfer.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/** The "Transfer keys" button of a mini-retailer's profile, opening TransferKeysDialog. */
export const TransferKeysButton = ({ userId, name }: TTransferKeysProps) => {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<SwapHorizIcon />}
        onClick={() => setIsOpen(true)}
        data-testid="transfer-keys-button"
      >
        {t('ledger.transfer.button')}
      </Button>
      {isOpen && <TransferKeysDialog userId={userId} name={name} onClose={() => setIsOpen(false)} />}
    </>
  );
};
