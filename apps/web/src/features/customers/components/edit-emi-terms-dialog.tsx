import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DialogFormField } from '../../../components/dialog-form-field';
import { FormDialog } from '../../../components/form-dialog';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { INTEREST_METHOD_OPTIONS } from '../add-customer-form';
import { useEditEmiTermsMutation } from '../customers-api';
import type { TEditEmiTermsParsed, TEditEmiTermsValues } from '../edit-emi-terms-form';
import {
  EMI_TERMS_FALLBACK_KEYS,
  editEmiTermsResolver,
  emiTermsFieldOf,
  emiTermsInitialValues,
  toEditEmiTermsRequest,
} from '../edit-emi-terms-form';

const amountChars = (value: string) => value.replace(/[^\d.]/g, '');
const digits = (value: string) => value.replace(/\D/g, '').slice(0, 3);

type TEditEmiTermsDialogProps = { customer: TCustomerDetails; isOpen: boolean; onClose: () => void };

/**
 * EMI_EDIT: new loan terms (loan amount in rupees, interest in % a year, tenure, method, first due
 * date), sent in paise and basis points; the server rebuilds the schedule. Allowed only before the
 * first payment: the server's EMI_ALREADY_PAID message shows in the dialog.
 */
export const EditEmiTermsDialog = ({ customer, isOpen, onClose }: TEditEmiTermsDialogProps) => {
  const { t } = useTranslation();
  return (
    <FormDialog isOpen={isOpen} onClose={onClose} title={t('customerEdit.emi.title')} maxWidth="sm">
      <EditEmiTermsForm customer={customer} onClose={onClose} />
    </FormDialog>
  );
};

const EditEmiTermsForm = ({ customer, onClose }: { customer: TCustomerDetails; onClose: () => void }) => {
  const { t } = useTranslation();
  const [editTerms, { isLoading }] = useEditEmiTermsMutation();
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const form = useForm<TEditEmiTermsValues, unknown, TEditEmiTermsParsed>({
    resolver: editEmiTermsResolver,
    defaultValues: emiTermsInitialValues(customer),
    mode: 'onTouched',
  });
  const { control } = form;

  const save = form.handleSubmit(async (values) => {
    setServerMessage(null);
    const result = await editTerms(toEditEmiTermsRequest(customer.id, values));
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error ? applyServerFieldErrors(error, form.setError, emiTermsFieldOf) : false;
      if (!isOnField) setServerMessage(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    enqueueSnackbar(t('customerEdit.emi.saved'), { variant: 'success' });
    onClose();
  });

  return (
    <form noValidate onSubmit={(event) => void save(event)} data-testid="edit-emi-form">
      <DialogContent sx={{ pt: 1 }}>
        <DialogContentText sx={{ mb: 2 }}>{t('customerEdit.emi.intro')}</DialogContentText>
        {serverMessage ? (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="edit-emi-error">
            {serverMessage}
          </Alert>
        ) : null}
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <DialogFormField
              control={control}
              name="loanAmount"
              id="edit-emi-loan-amount"
              label={t('customerEdit.emi.loanAmount')}
              fallbackKey={EMI_TERMS_FALLBACK_KEYS.loanAmount}
              clean={amountChars}
              required
              slotProps={{
                input: {
                  startAdornment: <InputAdornment position="start">{t('common.rupeeSymbol')}</InputAdornment>,
                },
                htmlInput: { inputMode: 'decimal' },
              }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <DialogFormField
              control={control}
              name="ratePercent"
              id="edit-emi-rate"
              label={t('customerEdit.emi.interestRate')}
              fallbackKey={EMI_TERMS_FALLBACK_KEYS.ratePercent}
              clean={amountChars}
              required
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <DialogFormField
              control={control}
              name="tenureMonths"
              id="edit-emi-tenure"
              label={t('customerEdit.emi.tenure')}
              fallbackKey={EMI_TERMS_FALLBACK_KEYS.tenureMonths}
              clean={digits}
              required
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <DialogFormField
              control={control}
              name="interestMethod"
              id="edit-emi-method"
              select
              label={t('customerEdit.emi.interestMethod')}
              fallbackKey={EMI_TERMS_FALLBACK_KEYS.interestMethod}
              required
            >
              {INTEREST_METHOD_OPTIONS.map((option) => (
                <MenuItem key={option.value} value={option.value}>
                  {t(option.labelKey)}
                </MenuItem>
              ))}
            </DialogFormField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <DialogFormField
              control={control}
              name="firstDueDate"
              id="edit-emi-first-due-date"
              type="date"
              label={t('customerEdit.emi.firstDueDate')}
              fallbackKey={EMI_TERMS_FALLBACK_KEYS.firstDueDate}
              helperText={t('customerEdit.emi.firstDueDateHelper')}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Grid>
        </Grid>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={isLoading} data-testid="edit-emi-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={isLoading} data-testid="edit-emi-save">
          {t('customerEdit.emi.save')}
        </Button>
      </DialogActions>
    </form>
  );
};
