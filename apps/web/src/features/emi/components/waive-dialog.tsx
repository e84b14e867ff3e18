import { zodResolver } from '@hookform/resolvers/zod';
import type { TInstalmentRow, TUpdateEmiStatusRequest } from '@kisht/domain/emi/emi.schema';
import { ZUpdateEmiStatusRequest } from '@kisht/domain/emi/emi.schema';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useId } from 'react';
import type { FieldError } from 'react-hook-form';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SERVER_ERROR_TYPE } from '../../../lib/form-errors';
import { formatRupees } from '../../../lib/format';
import { asApiError, isRefused } from '../api-error';
import { useUpdateEmiStatusMutation } from '../emi-api';
import type { TWaiveKind } from '../instalment-actions';

/** Longest reason the server keeps (domain ZUpdateEmiStatusRequest). */
export const WAIVE_REASON_MAX_LENGTH = 200;

type TWaivePayload = z.output<typeof ZUpdateEmiStatusRequest>;

type TWaiveDialogProps = {
  isOpen: boolean;
  customerId: number;
  /** The instalment and what to waive on it; kept while the dialog closes. */
  target: { instalment: TInstalmentRow; kind: TWaiveKind } | null;
  onClose: () => void;
};

const emptyValues = (customerId: number, target: TWaiveDialogProps['target']): TUpdateEmiStatusRequest => ({
  customer_id: customerId,
  emi_id: target?.instalment.id ?? 0,
  status: target?.kind ?? 'waived',
  reason: '',
});

/**
 * Waives what is still owed on an instalment ('waived') or only its unpaid penalty
 * ('penalty_waived') through update_emi_status. The retailer must give a reason (react-hook-form,
 * checked by the domain schema: 3 to 200 characters), which the server keeps in the audit trail.
 * A failure is toasted by the store; the server's words about the reason go under it, and when the
 * server refused (NOTHING_TO_WAIVE) the dialog closes, as the schedule is fetched afresh.
 */
export const WaiveDialog = ({ isOpen, customerId, target, onClose }: TWaiveDialogProps) => {
  const { t } = useTranslation();
  const titleId = useId();
  const [updateEmiStatus, { isLoading }] = useUpdateEmiStatusMutation();
  const form = useForm<TUpdateEmiStatusRequest, unknown, TWaivePayload>({
    resolver: zodResolver(ZUpdateEmiStatusRequest),
    defaultValues: emptyValues(customerId, target),
    mode: 'onTouched',
  });
  const { reset } = form;
  const emiId = target?.instalment.id;
  const kind = target?.kind;

  // Each opening starts with an empty reason, for the instalment and kind chosen.
  useEffect(() => {
    if (isOpen) reset({ customer_id: customerId, emi_id: emiId ?? 0, status: kind ?? 'waived', reason: '' });
  }, [isOpen, customerId, emiId, kind, reset]);

  if (!target) return null;
  const { instalment } = target;
  const no = instalment.instalmentNo;
  const isPenalty = target.kind === 'penalty_waived';
  const amount = formatRupees(isPenalty ? instalment.penaltyPaise : instalment.outstandingPaise);

  const messageOf = (error: FieldError | undefined): string | null => {
    if (!error) return null;
    if (error.type === SERVER_ERROR_TYPE && error.message) return error.message;
    return error.type === 'too_big' ? t('validation.tooLong') : t('emi.waive.reasonTooShort');
  };

  const submit = form.handleSubmit(async (payload) => {
    const result = await updateEmiStatus(payload);
    if (result.error) {
      const reasonError = asApiError(result.error)?.fields.find((field) => field.field === 'reason');
      if (reasonError) {
        form.setError(
          'reason',
          { type: SERVER_ERROR_TYPE, message: reasonError.message },
          { shouldFocus: true },
        );
        return;
      }
      if (isRefused(result.error)) onClose();
      return;
    }
    enqueueSnackbar(t(isPenalty ? 'emi.waive.penaltyWaived' : 'emi.waive.waived', { no }), {
      variant: 'success',
    });
    onClose();
  });

  return (
    <Dialog
      open={isOpen}
      onClose={isLoading ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <Stack component="form" noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>
          {t(isPenalty ? 'emi.waive.penaltyTitle' : 'emi.waive.title', { no })}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText data-testid="emi-waive-body">
              {t(isPenalty ? 'emi.waive.penaltyBody' : 'emi.waive.body', { amount, no })}
            </DialogContentText>
            <Controller
              control={form.control}
              name="reason"
              render={({ field, fieldState }) => {
                const message = messageOf(fieldState.error);
                return (
                  <TextField
                    {...field}
                    inputRef={field.ref}
                    id="emi-waive-reason"
                    label={t('emi.waive.reason')}
                    required
                    autoFocus
                    error={Boolean(message)}
                    helperText={message ?? t('emi.waive.reasonHelper')}
                    slotProps={{
                      htmlInput: { maxLength: WAIVE_REASON_MAX_LENGTH, 'data-testid': 'emi-waive-reason' },
                    }}
                  />
                );
              }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={isLoading} data-testid="emi-waive-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color="error"
            loading={isLoading}
            data-testid="emi-waive-submit"
          >
            {t(isPenalty ? 'emi.waive.penaltyAction' : 'emi.waive.action')}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
};
