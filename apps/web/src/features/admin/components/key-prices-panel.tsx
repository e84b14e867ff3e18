import { zodResolver } from '@hookform/resolvers/zod';
import type { TKeyPrices } from '@kisht/domain/payments/payments.schema';
import { ZKeyPrices } from '@kisht/domain/payments/payments.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { paiseToRupeesInput, rupeesToPaise } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { useGetKeyPricesQuery, useSaveKeyPricesMutation } from '../admin-api';
import { APP_TYPE_OPTIONS } from '../app-types';

/** What the admin types: a price in rupees per app_type ('' = not sold online). */
type TPriceInputs = { rupees: Record<string, string> };

/** The typed rupees as the domain's TKeyPrices (ZKeyPrices checks every price). */
const ZPriceForm = z
  .object({ rupees: z.record(z.string(), z.string()) })
  .superRefine(({ rupees }, ctx) => {
    for (const [appType, text] of Object.entries(rupees)) {
      if (text.trim() !== '' && rupeesToPaise(text) === null)
        ctx.addIssue({ code: 'custom', path: ['rupees', appType], message: 'Enter a price in rupees' });
    }
  })
  .transform(({ rupees }) => ({
    prices: APP_TYPE_OPTIONS.filter(({ value }) => (rupees[value] ?? '').trim() !== '').map(({ value }) => ({
      appType: value,
      unitPricePaise: rupeesToPaise(rupees[value]!)!,
    })),
  }))
  .pipe(ZKeyPrices);
const resolver = zodResolver<TPriceInputs, unknown, TKeyPrices>(ZPriceForm);

const inputsOf = (prices: TKeyPrices | undefined): TPriceInputs => ({
  rupees: Object.fromEntries(
    APP_TYPE_OPTIONS.map(({ value }) => {
      const price = prices?.prices.find((p) => p.appType === value);
      return [String(value), price ? paiseToRupeesInput(price.unitPricePaise) : ''];
    }),
  ),
});

/** The price of one key per app_type for online purchase; a type left empty cannot be bought online. */
export const KeyPricesPanel = () => {
  const { t } = useTranslation();
  const prices = useGetKeyPricesQuery();
  const [save, { isLoading }] = useSaveKeyPricesMutation();
  const form = useForm<TPriceInputs, unknown, TKeyPrices>({ resolver, defaultValues: inputsOf(undefined) });
  useEffect(() => {
    if (prices.data) form.reset(inputsOf(prices.data));
  }, [prices.data, form]);

  const submit = form.handleSubmit(async (values) => {
    const result = await save(values);
    if (result.data) enqueueSnackbar(t('admin.prices.saved'), { variant: 'success' });
    else
      enqueueSnackbar(isApiError(result.error) ? result.error.message : t('admin.failed'), {
        variant: 'error',
      });
  });

  return (
    <Stack component="form" spacing={2} noValidate onSubmit={(event) => void submit(event)}>
      <Typography variant="body2" color="text.secondary">
        {t('admin.prices.intro')}
      </Typography>
      {prices.isError && <Alert severity="error">{t('admin.failed')}</Alert>}
      {APP_TYPE_OPTIONS.map(({ value, labelKey }) => (
        <Controller
          key={value}
          control={form.control}
          name={`rupees.${value}`}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              value={field.value ?? ''}
              label={t(labelKey)}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error ? t('validation.invalidAmount') : undefined}
              slotProps={{
                htmlInput: { inputMode: 'decimal', 'data-testid': `price-${value}` },
                input: { startAdornment: <InputAdornment position="start">₹</InputAdornment> },
              }}
            />
          )}
        />
      ))}
      <Button type="submit" variant="contained" loading={isLoading} data-testid="prices-save">
        {t('admin.prices.save')}
      </Button>
    </Stack>
  );
};
