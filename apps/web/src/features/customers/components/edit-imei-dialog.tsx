import { zodResolver } from '@hookform/resolvers/zod';
import type { TCustomerDetails, TUpdateImeiRequest } from '@kisht/domain/customers/customers.schema';
import { ZUpdateImeiRequest } from '@kisht/domain/customers/customers.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import type { Path } from 'react-hook-form';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { DialogFormField } from '../../../components/dialog-form-field';
import { FormDialog } from '../../../components/form-dialog';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { imeiDigits, needsSerialNumber } from '../add-customer-form';
import { useUpdateImeiMutation } from '../customers-api';

const SERIAL_NUMBER_MAX_LENGTH = 40;

type TImeiPayload = z.output<typeof ZUpdateImeiRequest>;
const imeiResolver = zodResolver<TUpdateImeiRequest, unknown, TImeiPayload>(ZUpdateImeiRequest);
const IMEI_FIELDS: ReadonlyArray<Path<TUpdateImeiRequest>> = ['imei1', 'imei2', 'serialNumber'];
const formFieldOf = (requestField: string) => IMEI_FIELDS.find((field) => field === requestField) ?? null;

type TEditImeiDialogProps = { customer: TCustomerDetails; isOpen: boolean; onClose: () => void };

/** IMEI_EDIT: correct the phone's IMEIs (and an Apple phone's serial number). */
export const EditImeiDialog = ({ customer, isOpen, onClose }: TEditImeiDialogProps) => {
  const { t } = useTranslation();
  return (
    <FormDialog isOpen={isOpen} onClose={onClose} title={t('customerEdit.imei.title')}>
      <EditImeiForm customer={customer} onClose={onClose} />
    </FormDialog>
  );
};

const EditImeiForm = ({ customer, onClose }: { customer: TCustomerDetails; onClose: () => void }) => {
  const { t } = useTranslation();
  const [updateImei, { isLoading }] = useUpdateImeiMutation();
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const hasSerialNumber = needsSerialNumber(customer.deviceType);
  const form = useForm<TUpdateImeiRequest, unknown, TImeiPayload>({
    resolver: imeiResolver,
    defaultValues: {
      customer_id: customer.id,
      imei1: customer.imei1,
      imei2: customer.imei2,
      serialNumber: hasSerialNumber ? (customer.serialNumber ?? undefined) : undefined,
    },
    mode: 'onTouched',
  });

  const save = form.handleSubmit(async (payload) => {
    setServerMessage(null);
    const result = await updateImei(payload);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error ? applyServerFieldErrors(error, form.setError, formFieldOf) : false;
      if (!isOnField) setServerMessage(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    enqueueSnackbar(t('customerEdit.imei.saved'), { variant: 'success' });
    onClose();
  });

  return (
    <form noValidate onSubmit={(event) => void save(event)} data-testid="edit-imei-form">
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={1}>
          {serverMessage ? (
            <Alert severity="error" data-testid="edit-imei-error">
              {serverMessage}
            </Alert>
          ) : null}
          <DialogFormField
            control={form.control}
            name="imei1"
            id="edit-imei1"
            label={t('customerEdit.imei.imei1')}
            fallbackKey="validation.invalidImei"
            clean={imeiDigits}
            required
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
            sx={{ mt: 1 }}
          />
          <DialogFormField
            control={form.control}
            name="imei2"
            id="edit-imei2"
            label={t('customerEdit.imei.imei2')}
            fallbackKey="validation.invalidImei"
            clean={imeiDigits}
            required
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
          />
          {hasSerialNumber ? (
            <DialogFormField
              control={form.control}
              name="serialNumber"
              id="edit-serial-number"
              label={t('customerEdit.imei.serialNumber')}
              fallbackKey="validation.tooLong"
              isEmptyUndefined
              slotProps={{ htmlInput: { autoComplete: 'off', maxLength: SERIAL_NUMBER_MAX_LENGTH } }}
            />
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={isLoading} data-testid="edit-imei-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={isLoading} data-testid="edit-imei-save">
          {t('customerEdit.imei.save')}
        </Button>
      </DialogActions>
    </form>
  );
};
