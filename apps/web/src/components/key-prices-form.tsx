import { zodResolver } from '@hookform/resolvers/zod';
import { APP_TYPE_CODES } from '@kisht/domain/common/enums';
import type { TKeyPrices } from '@kisht/domain/payments/payments.schema';
import { MAX_KEY_PRICE_PAISE, ZKeyPrices } from '@kisht/domain/payments/payments.schema';
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
import { appTypeName } from '../lib/app-type-name';
import { paiseToRupeesInput, rupeesToPaise } from '../lib/format';
import { apiErrorMessage } from '../lib/http/base-query';

/** What is typed: a price in rupees per app_type ('' = no price of this form's own for the type). */
type TPriceInputs = { rupees: Record<string, string> };

/**
 * The typed rupees as the domain's TKeyPrices (ZKeyPrices checks every price). A price ZKeyPrices
 * would refuse (not a number, zero, above MAX_KEY_PRICE_PAISE) is flagged here on its own field,
 * where the person typing sees it, rather than on `prices.<index>`, which no field shows.
 */
const ZPriceForm = z
  .object({ rupees: z.record(z.string(), z.string()) })
  .superRefine(({ rupees }, ctx) => {
    for (const [appType, text] of Object.entries(rupees)) {
      if (text.trim() === '') continue;
      const paise = rupeesToPaise(text);
      if (paise === null || paise <= 0 || paise > MAX_KEY_PRICE_PAISE)
        ctx.addIssue({ code: 'custom', path: ['rupees', appType], message: 'Enter a price in rupees' });
    }
  })
  .transform(({ rupees }) => ({
    prices: APP_TYPE_CODES.filter((code) => (rupees[code] ?? '').trim() !== '').map((code) => ({
      appType: code,
      unitPricePaise: rupeesToPaise(rupees[code]!)!,
    })),
  }))
  .pipe(ZKeyPrices);
const resolver = zodResolver<TPriceInputs, unknown, TKeyPrices>(ZPriceForm);

const inputsOf = (prices: TKeyPrices | undefined): TPriceInputs => ({
  rupees: Object.fromEntries(
    APP_TYPE_CODES.map((code) => {
      const price = prices?.prices.find((p) => p.appType === code);
      return [String(code), price ? paiseToRupeesInput(price.unitPricePaise) : ''];
    }),
  ),
});

type TKeyPricesFormProps = {
  /** The saved prices (paise), shown in rupees once they arrive; undefined while loading. */
  prices: TKeyPrices | undefined;
  /** Saves the typed prices (only the types given a price): the mutation's result. */
  onSave: (prices: TKeyPrices) => Promise<{ data?: unknown; error?: unknown }>;
  isSaving: boolean;
  /** Said once saved; a refusal is said in the server's words, else `failedText`. */
  savedText: string;
  failedText: string;
  /** What a price here means (the admin's online price, a parent's price to the nodes below it). */
  intro: string;
  saveLabel: string;
  /** Each price field is `${testIdPrefix}-<app_type>`, the button `${testIdPrefix}s-save`. */
  testIdPrefix: string;
  testId?: string;
};

/**
 * The price of one key per spec §1 app_type, in rupees (issues 13, 30): the organisation admin's
 * key prices and a distributor's or retailer's prices to the nodes below it edit them alike. A
 * type left empty has no price of this form's own.
 */
export const KeyPricesForm = ({
  prices,
  onSave,
  isSaving,
  savedText,
  failedText,
  intro,
  saveLabel,
  testIdPrefix,
  testId,
}: TKeyPricesFormProps) => {
  const { t } = useTranslation();
  const form = useForm<TPriceInputs, unknown, TKeyPrices>({ resolver, defaultValues: inputsOf(undefined) });
  useEffect(() => {
    if (prices) form.reset(inputsOf(prices));
  }, [prices, form]);
  const submit = form.handleSubmit(async (values) => {
    const result = await onSave(values);
    if (result.data) enqueueSnackbar(savedText, { variant: 'success' });
    else enqueueSnackbar(apiErrorMessage(result.error, failedText), { variant: 'error' });
  });

  return (
    <Stack
      component="form"
      spacing={2}
      noValidate
      onSubmit={(event) => void submit(event)}
      data-testid={testId}
    >
      <Typography variant="body2" color="text.secondary">
        {intro}
      </Typography>
      {APP_TYPE_CODES.map((code) => (
        <Controller
          key={code}
          control={form.control}
          name={`rupees.${code}`}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              value={field.value ?? ''}
              label={appTypeName(t, code)}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error ? t('validation.invalidAmount') : undefined}
              slotProps={{
                htmlInput: { inputMode: 'decimal', 'data-testid': `${testIdPrefix}-${code}` },
                input: { startAdornment: <InputAdornment position="start">₹</InputAdornment> },
              }}
            />
          )}
        />
      ))}
      <Button type="submit" variant="contained" loading={isSaving} data-testid={`${testIdPrefix}s-save`}>
        {saveLabel}
      </Button>
    </Stack>
  );
};
