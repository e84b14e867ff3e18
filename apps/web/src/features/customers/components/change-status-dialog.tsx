import { zodResolver } from '@hookform/resolvers/zod';
import type { TCustomerStatus } from '@kisht/domain/common/enums';
import { statusWord } from '@kisht/domain/common/enums';
import type { TUpdateStatusRequest } from '@kisht/domain/customers/customers.schema';
import { ZUpdateStatusRequest } from '@kisht/domain/customers/customers.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import type { Path } from 'react-hook-form';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { DialogFormField } from '../../../components/dialog-form-field';
import { FormDialog } from '../../../components/form-dialog';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { useUpdateCustomerStatusMutation } from '../customers-api';

type TStatusPayload = z.output<typeof ZUpdateStatusRequest>;
const statusResolver = zodResolver<TUpdateStatusRequest, unknown, TStatusPayload>(ZUpdateStatusRequest);
const STATUS_FIELDS: ReadonlyArray<Path<TUpdateStatusRequest>> = ['status', 'reason'];
const formFieldOf = (requestField: string) => STATUS_FIELDS.find((field) => field === requestField) ?? null;

type TChangeStatusDialogProps = {
  customerId: number;
  currentStatus: TCustomerStatus;
  /** The statuses the customer may be moved to by hand (canChangeStatus); never empty here. */
  targets: readonly TCustomerStatus[];
  isOpen: boolean;
  onClose: () => void;
};

/** Moves a customer to another status by hand, with a reason kept in the status trail. */
export const ChangeStatusDialog = ({ isOpen, onClose, ...props }: TChangeStatusDialogProps) => {
  const { t } = useTranslation();
  return (
    <FormDialog isOpen={isOpen} onClose={onClose} title={t('statusChange.title')}>
      <ChangeStatusForm {...props} onClose={onClose} />
    </FormDialog>
  );
};

const ChangeStatusForm = ({
  customerId,
  currentStatus,
  targets,
  onClose,
}: Omit<TChangeStatusDialogProps, 'isOpen'>) => {
  const { t } = useTranslation();
  const [updateStatus, { isLoading }] = useUpdateCustomerStatusMutation();
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const form = useForm<TUpdateStatusRequest, unknown, TStatusPayload>({
    resolver: statusResolver,
    defaultValues: { customer_id: customerId, status: targets[0] ?? currentStatus, reason: '' },
    mode: 'onTouched',
  });
  const statusLabel = (status: TCustomerStatus) => t(`customerStatus.${statusWord(status)}`);

  const save = form.handleSubmit(async (payload) => {
    setServerMessage(null);
    const result = await updateStatus(payload);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error ? applyServerFieldErrors(error, form.setError, formFieldOf) : false;
      if (!isOnField) setServerMessage(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    enqueueSnackbar(t('statusChange.saved', { status: statusLabel(payload.status) }), { variant: 'success' });
    onClose();
  });

  return (
    <form noValidate onSubmit={(event) => void save(event)} data-testid="change-status-form">
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={1}>
          <DialogContentText>
            {t('statusChange.current', { status: statusLabel(currentStatus) })}
          </DialogContentText>
          {serverMessage ? (
            <Alert severity="error" data-testid="change-status-error">
              {serverMessage}
            </Alert>
          ) : null}
          <Controller
            control={form.control}
            name="status"
            render={({ field }) => (
              <StatusSelect
                value={field.value}
                targets={targets}
                label={t('statusChange.newStatus')}
                statusLabel={statusLabel}
                onChange={field.onChange}
              />
            )}
          />
          <DialogFormField
            control={form.control}
            name="reason"
            id="change-status-reason"
            label={t('statusChange.reason')}
            helperText={t('statusChange.reasonHelper')}
            fallbackKey="validation.reasonTooShort"
            required
            multiline
            minRows={2}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={isLoading} data-testid="change-status-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={isLoading} data-testid="change-status-save">
          {t('statusChange.save')}
        </Button>
      </DialogActions>
    </form>
  );
};

type TStatusSelectProps = {
  value: number;
  targets: readonly TCustomerStatus[];
  label: string;
  statusLabel: (status: TCustomerStatus) => string;
  onChange: (status: TCustomerStatus) => void;
};

/** The new status: one of the allowed targets, held as its number. */
const StatusSelect = ({ value, targets, label, statusLabel, onChange }: TStatusSelectProps) => (
  <TextField
    select
    id="change-status-status"
    label={label}
    value={String(value)}
    onChange={(event) => {
      const status = targets.find((target) => String(target) === event.target.value);
      if (status !== undefined) onChange(status);
    }}
    helperText=" "
    fullWidth
    sx={{ mt: 1 }}
    data-testid="change-status-status"
  >
    {targets.map((status) => (
      <MenuItem key={status} value={String(status)}>
        {statusLabel(status)}
      </MenuItem>
    ))}
  </TextField>
);
