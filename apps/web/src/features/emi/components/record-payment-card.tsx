import type { TPaymentMode } from '@kisht/domain/emi/emi.schema';
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
import { useTranslation } from 'react-i18next';
import { formatRupees } from '../../../lib/format';
import type { TRecordPaymentField, TRecordPaymentValues } from '../record-payment-form';
import { REFERENCE_MAX_LENGTH } from '../record-payment-form';

type TRecordPaymentCardProps = {
  values: TRecordPaymentValues;
  /** What the chosen instalments owe, paise. */
  owedPaise: number;
  /** Each field's message, already translated, or null. */
  errorOf: (field: TRecordPaymentField) => string | null;
  onChange: (patch: Partial<Omit<TRecordPaymentValues, 'emiIds'>>) => void;
  onSubmit: () => void;
  isSaving: boolean;
};

/** Keeps digits and one decimal point of what was typed into the amount. */
const amountChars = (value: string) => value.replace(/[^\d.]/g, '');

/**
 * The record-payment form of emi_details: the instalments are ticked in the schedule above; here
 * the amount (prefilled with what they owe, editable for a part payment), the mode, an optional
 * reference, and "Record payment".
 */
export const RecordPaymentCard = ({
  values,
  owedPaise,
  errorOf,
  onChange,
  onSubmit,
  isSaving,
}: TRecordPaymentCardProps) => {
  const { t } = useTranslation();
  const instalmentsError = errorOf('instalments');
  const amountError = errorOf('amount');
  const modeError = errorOf('mode');
  const referenceError = errorOf('reference');
  const count = values.emiIds.length;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <Card data-testid="record-payment">
      <CardContent>
        <Stack
          component="form"
          spacing={2}
          noValidate
          onSubmit={handleSubmit}
          aria-label={t('emi.pay.title')}
        >
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
          <TextField
            id="emi-pay-amount"
            name="amount"
            label={t('emi.pay.amount')}
            value={values.amount}
            onChange={(event) => onChange({ amount: amountChars(event.target.value) })}
            required
            error={Boolean(amountError)}
            helperText={amountError ?? (count > 0 ? t('emi.pay.amountHelper') : ' ')}
            slotProps={{
              input: {
                startAdornment: <InputAdornment position="start">{t('common.rupeeSymbol')}</InputAdornment>,
              },
              htmlInput: { inputMode: 'decimal', autoComplete: 'off', 'data-testid': 'emi-pay-amount' },
            }}
          />
          <TextField
            id="emi-pay-mode"
            name="mode"
            select
            label={t('emi.pay.mode')}
            value={values.mode}
            onChange={(event) => onChange({ mode: event.target.value as TPaymentMode })}
            required
            error={Boolean(modeError)}
            helperText={modeError ?? ' '}
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
          <TextField
            id="emi-pay-reference"
            name="reference"
            label={t('emi.pay.reference')}
            value={values.reference}
            onChange={(event) => onChange({ reference: event.target.value })}
            error={Boolean(referenceError)}
            helperText={referenceError ?? t('emi.pay.referenceHelper')}
            slotProps={{
              htmlInput: {
                maxLength: REFERENCE_MAX_LENGTH,
                autoComplete: 'off',
                'data-testid': 'emi-pay-reference',
              },
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
