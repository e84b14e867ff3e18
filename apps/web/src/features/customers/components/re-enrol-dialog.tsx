import { zodResolver } from '@hookform/resolvers/zod';
import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import {
  RE_ENROL_REASONS,
  type TReEnrolRequest,
  ZReEnrolRequest,
} from '@kisht/domain/devices/devices.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import type { Path } from 'react-hook-form';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { DialogFormField } from '../../../components/dialog-form-field';
import { FormDialog } from '../../../components/form-dialog';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { appPaths } from '../../../lib/paths';
import { imeiDigits } from '../add-customer-form';
import { useReEnrolMutation } from '../customers-api';

type TReEnrolPayload = z.output<typeof ZReEnrolRequest>;
const reEnrolResolver = zodResolver<TReEnrolRequest, unknown, TReEnrolPayload>(ZReEnrolRequest);
const RE_ENROL_FIELDS: ReadonlyArray<Path<TReEnrolRequest>> = ['reason', 'note', 'imei1', 'imei2'];
const formFieldOf = (requestField: string) => RE_ENROL_FIELDS.find((field) => field === requestField) ?? null;

type TReEnrolDialogProps = { customer: TCustomerDetails; isOpen: boolean; onClose: () => void };

/**
 * RE_ENROL (issue 27): take out a wiped, replaced or lost phone, with why; for another phone, its
 * IMEIs. On success the old phone is revoked and the customer inactive: the dialog opens the new
 * enrolment QR.
 */
export const ReEnrolDialog = ({ customer, isOpen, onClose }: TReEnrolDialogProps) => {
  const { t } = useTranslation();
  return (
    <FormDialog isOpen={isOpen} onClose={onClose} title={t('customerEdit.reEnrol.title')}>
      <ReEnrolForm customer={customer} onClose={onClose} />
    </FormDialog>
  );
};

const ReEnrolForm = ({ customer, onClose }: { customer: TCustomerDetails; onClose: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [reEnrol, { isLoading }] = useReEnrolMutation();
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const [isAnotherPhone, setIsAnotherPhone] = useState(false);
  const form = useForm<TReEnrolRequest, unknown, TReEnrolPayload>({
    resolver: reEnrolResolver,
    defaultValues: { customer_id: customer.id, reason: 'factory_reset' },
    mode: 'onTouched',
  });

  const choosePhone = (isAnother: boolean) => {
    setIsAnotherPhone(isAnother);
    if (!isAnother) {
      form.setValue('imei1', undefined);
      form.setValue('imei2', undefined);
    }
  };

  const save = form.handleSubmit(async (payload) => {
    setServerMessage(null);
    const result = await reEnrol(payload);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error ? applyServerFieldErrors(error, form.setError, formFieldOf) : false;
      if (!isOnField) setServerMessage(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    enqueueSnackbar(t('customerEdit.reEnrol.done'), { variant: 'success' });
    onClose();
    navigate(appPaths.emmQr.href(customer.id));
  });

  return (
    <form noValidate onSubmit={(event) => void save(event)} data-testid="re-enrol-form">
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={1}>
          <DialogContentText>{t('customerEdit.reEnrol.explain')}</DialogContentText>
          {serverMessage ? (
            <Alert severity="error" data-testid="re-enrol-error">
              {serverMessage}
            </Alert>
          ) : null}
          <DialogFormField
            control={form.control}
            name="reason"
            id="re-enrol-reason"
            label={t('customerEdit.reEnrol.reason')}
            fallbackKey="validation.required"
            select
            required
            sx={{ mt: 1 }}
          >
            {RE_ENROL_REASONS.map((reason) => (
              <MenuItem key={reason} value={reason} data-testid={`re-enrol-reason-${reason}`}>
                {t(`customerEdit.reEnrol.reasons.${reason}`)}
              </MenuItem>
            ))}
          </DialogFormField>
          <DialogFormField
            control={form.control}
            name="note"
            id="re-enrol-note"
            label={t('customerEdit.reEnrol.note')}
            fallbackKey="validation.required"
            isEmptyUndefined
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={isAnotherPhone}
                onChange={(event) => choosePhone(event.target.checked)}
                data-testid="re-enrol-another-phone"
              />
            }
            label={t('customerEdit.reEnrol.anotherPhone')}
          />
          {isAnotherPhone ? (
            <>
              <DialogFormField
                control={form.control}
                name="imei1"
                id="re-enrol-imei1"
                label={t('customerEdit.imei.imei1')}
                fallbackKey="validation.invalidImei"
                clean={imeiDigits}
                isEmptyUndefined
                required
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
              />
              <DialogFormField
                control={form.control}
                name="imei2"
                id="re-enrol-imei2"
                label={t('customerEdit.imei.imei2')}
                fallbackKey="validation.invalidImei"
                clean={imeiDigits}
                isEmptyUndefined
                required
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
              />
            </>
          ) : null}
          <Alert severity="warning">{t('customerEdit.reEnrol.warning')}</Alert>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={isLoading} data-testid="re-enrol-cancel">
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          color="warning"
          loading={isLoading}
          data-testid="re-enrol-save"
        >
          {t('customerEdit.reEnrol.save')}
        </Button>
      </DialogActions>
    </form>
  );
};
