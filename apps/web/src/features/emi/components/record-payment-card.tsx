import type { TPaymentMode, TRecordPaymentRequest } from '@kisht/domain/emi/emi.schema';
import { PAYMENT_MODES } from '@kisht/domain/emi/emi.schema';
import PaymentsIcon from '@mui/icons-material/Payments';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent, HTMLAttributes } from 'react';
import type { FieldError, UseFormReturn } from 'react-hook-form';
import { Controller, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldErrorText, SERVER_ERROR_TYPE } from '../../../lib/form-errors';
import { formatRupees } from '../../../lib/format';
import type { TRecordPaymentValues } from '../record-payment-form';
import { isPaymentMessageKey, REFERENCE_MAX_LENGTH } from '../record-payment-form';

type TRecordPaymentCardProps = {
  /** The payment form (react-hook-form, checked by recordPaymentFormSchema); the page owns it. */
  form: UseFormReturn<TRecordPaymentValues, unknown, TRecordPaymentRequest>;
  /** What the chosen instalments owe, paise. */
  owedPaise: number;
  onSubmit: (event: FormEvent) => void;
  isSaving: boolean;
};

/** Keeps digits and one decimal point of what was typed into the amount. */
const amountChars = (value: string) => value.replace(/[^\d.]/g, '');

/**
 * The record-payment form of emi_details: the instalments are ticked in the schedule above; here
 * the amount (prefilled with what they owe, editable for a part payment), the mode, an optional
 * reference, and "Record payment".
 */
export const RecordPaymentCard = ({ form, owedPaise, onSubmit, isSaving }: TRecordPaymentCardProps) => {
  const { t } = useTranslation();
  const { errors } = useFormState({ control: form.control });
  const count = useWatch({ control: form.control, name: 'emiIds' }).length;

  /** A field's text: the server's words, else the schema's message (a key translated, or the domain's words). */
  const messageOf = (error: Pick<FieldError, 'type' | 'message'> | undefined): string | null =>
    fieldErrorText(error as FieldError | undefined, ({ message = '' }) => {
      if (message === 'emi.pay.amountTooHigh') return t(message, { owed: formatRupees(owedPaise) });
      return isPaymentMessageKey(message) ? t(message) : message;
    });
  /** Editing a field clears the server's words about it at once; the schema checks it again. */
  const clearServerError = (name: 'amount' | 'mode' | 'reference') => {
    if (form.getFieldState(name).error?.type === SERVER_ERROR_TYPE) form.clearErrors(name);
  };
  const instalmentsError = messageOf(
    errors.emiIds ? { type: String(errors.emiIds.type), message: errors.emiIds.message } : undefined,
  );

  return (
    <Card data-testid="record-payment">
      <CardContent>
        <Stack component="form" spacing={2} noValidate onSubmit={onSubmit} aria-label={t('emi.pay.title')}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('emi.pay.title')}
          </Typography>
          <div>
            <Typography variant="body2" data-testid="emi-pay-summary">
              {count > 0
                ? t('emi.pay.summary', { count, owed: formatRupees(owedPaise) })
                : t('emi.pay.nothingChosen')}
            </Typography>
            {instalmentsError ? (
              <FormHelperText error data-testid="emi-pay-instalments-error">
                {instalmentsError}
              </FormHelperText>
            ) : null}
          </div>
          <Controller
            control={form.control}
            name="amount"
            render={({ field, fieldState }) => {
              const message = messageOf(fieldState.error);
              return (
                <TextField
                  id="emi-pay-amount"
                  name={field.name}
                  label={t('emi.pay.amount')}
                  value={field.value}
                  inputRef={field.ref}
                  onBlur={field.onBlur}
                  onChange={(event) => {
                    clearServerError('amount');
                    field.onChange(amountChars(event.target.value));
                  }}
                  required
                  error={Boolean(message)}
                  helperText={message ?? (count > 0 ? t('emi.pay.amountHelper') : ' ')}
                  slotProps={{
                    input: {
                      startAdornment: (
                        <InputAdornment position="start">{t('common.rupeeSymbol')}</InputAdornment>
                      ),
                    },
                    htmlInput: { inputMode: 'decimal', autoComplete: 'off', 'data-testid': 'emi-pay-amount' },
                  }}
                />
              );
            }}
          />
          <Controller
            control={form.control}
            name="mode"
            render={({ field, fieldState }) => {
              const message = messageOf(fieldState.error);
              return (
                <TextField
                  id="emi-pay-mode"
                  name={field.name}
                  select
                  label={t('emi.pay.mode')}
                  value={field.value}
                  inputRef={field.ref}
                  onBlur={field.onBlur}
                  onChange={(event) => {
                    clearServerError('mode');
                    field.onChange(event.target.value as TPaymentMode);
                  }}
                  required
                  error={Boolean(message)}
                  helperText={message ?? ' '}
                  slotProps={{
                    select: {
                      SelectDisplayProps: { 'data-testid': 'emi-pay-mode' } as HTMLAttributes<HTMLDivElement>,
                    },
                    htmlInput: { 'data-testid': 'emi-pay-mode-input' },
                  }}
                >
                  {PAYMENT_MODES.map((mode) => (
                    <MenuItem key={mode} value={mode} data-testid={`emi-pay-mode-${mode}`}>
                      {t(`paymentMode.${mode}`)}
                    </MenuItem>
                  ))}
                </TextField>
              );
            }}
          />
          <Controller
            control={form.control}
            name="reference"
            render={({ field, fieldState }) => {
              const message = messageOf(fieldState.error);
              return (
                <TextField
                  id="emi-pay-reference"
                  name={field.name}
                  label={t('emi.pay.reference')}
                  value={field.value}
                  inputRef={field.ref}
                  onBlur={field.onBlur}
                  onChange={(event) => {
                    clearServerError('reference');
                    field.onChange(event.target.value);
                  }}
                  error={Boolean(message)}
                  helperText={message ?? t('emi.pay.referenceHelper')}
                  slotProps={{
                    htmlInput: {
                      maxLength: REFERENCE_MAX_LENGTH,
                      autoComplete: 'off',
                      'data-testid': 'emi-pay-reference',
                    },
                  }}
                />
              );
            }}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            startIcon={<PaymentsIcon />}
            loading={isSaving}
            data-testid="emi-pay-submit"
          >
            {t('emi.pay.submit')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
};
