import { zodResolver } from '@hookform/resolvers/zod';
import { APP_TYPE_CODES } from '@kisht/domain/common/enums';
import type { TKeyPrices } from '@kisht/domain/payments/payments.schema';
import { MAX_KEY_PRICE_PAISE, ZKeyPrices } from '@kisht/domain/payments/payments.schema';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { LoadError } from '../../../components/load-error';
import { appTypeName } from '../../../lib/app-type-name';
import { paiseToRupeesInput, rupeesToPaise } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { useGetShopKeyPricesQuery, useSaveShopKeyPricesMutation } from '../key-requests-api';

/** What the retailer types: a price in rupees per app_type ('' = the organisation's price applies). */
type TPriceInputs = { rupees: Record<string, string> };

/**
 * The typed rupees as the domain's TKeyPrices (ZKeyPrices checks every price). A price ZKeyPrice
 * would refuse (zero, above MAX_KEY_PRICE_PAISE) is flagged here on its own field, where the
 * retailer sees it, rather than on `prices.<index>`, which no field shows.
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

/**
 * "Prices for my shops" (issue 30): a retailer's price of one key per app_type to its
 * mini-retailers (GET/PUT paths.keyRequests.prices), in rupees, as the organisation admin's key
 * prices are edited. A type left empty costs the organisation's key price (docs/key-requests.md); a
 * mini-retailer's request carries the price that applied when it arrived.
 */
export const ShopKeyPricesPanel = () => {
  const { t } = useTranslation();
  const prices = useGetShopKeyPricesQuery();
  const [save, { isLoading }] = useSaveShopKeyPricesMutation();
  const form = useForm<TPriceInputs, unknown, TKeyPrices>({ resolver, defaultValues: inputsOf(undefined) });
  useEffect(() => {
    if (prices.data) form.reset(inputsOf(prices.data));
  }, [prices.data, form]);

  const submit = form.handleSubmit(async (values) => {
    const result = await save(values);
    if (result.data) enqueueSnackbar(t('keyRequests.prices.saved'), { variant: 'success' });
    else
      enqueueSnackbar(isApiError(result.error) ? result.error.message : t('keyRequests.failed'), {
        variant: 'error',
      });
  });

  if (prices.isLoading) return <Skeleton variant="rounded" height={240} />;
  if (prices.isError)
    return (
      <LoadError
        message={isApiError(prices.error) ? prices.error.message : t('keyRequests.loadFailed')}
        onRetry={() => void prices.refetch()}
      />
    );
  return (
    <Stack
      component="form"
      spacing={2}
      noValidate
      onSubmit={(event) => void submit(event)}
      data-testid="shop-key-prices"
    >
      <Typography variant="body2" color="text.secondary">
        {t('keyRequests.prices.intro')}
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
                htmlInput: { inputMode: 'decimal', 'data-testid': `shop-price-${code}` },
                input: { startAdornment: <InputAdornment position="start">₹</InputAdornment> },
              }}
            />
          )}
        />
      ))}
      <Button type="submit" variant="contained" loading={isLoading} data-testid="shop-prices-save">
        {t('keyRequests.prices.save')}
      </Button>
    </Stack>
  );
};
