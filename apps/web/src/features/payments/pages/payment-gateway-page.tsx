import { zodResolver } from '@hookform/resolvers/zod';
import { AppErrorCode } from '@kisht/domain/common/errors';
import {
  MAX_KEYS_PER_PURCHASE,
  type TPaymentQuote,
  type TPaymentQuoteRequest,
  ZPaymentQuoteRequest,
} from '@kisht/domain/payments/payments.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { DetailList } from '../../../components/detail-list';
import { PageHeader } from '../../../components/page-header';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { formatRupees } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { selectOrgConfig } from '../../../lib/ui-slice';
import { appTypeLabelKey, KEY_APP_TYPES } from '../app-types';
import { useCreateKeyOrderMutation, useQuoteKeysMutation } from '../payments-api';
import { type TGatewayPaymentState, useGatewayPayment } from '../use-gateway-payment';

type TKeysForm = { appType: number | ''; quantity: number };

const resolver = zodResolver<TKeysForm, unknown, TPaymentQuoteRequest>(ZPaymentQuoteRequest as never);

/** What the checkout ended in, under the Pay button (nothing while idle or under way). */
const PaymentOutcome = ({ state }: { state: TGatewayPaymentState }) => {
  const { t } = useTranslation();
  if (state.kind === 'dismissed')
    return (
      <Alert severity="info" data-testid="payment-dismissed">
        {t('payments.dismissed')}
      </Alert>
    );
  if (state.kind === 'failed')
    return (
      <Alert severity="error" data-testid="payment-failed">
        {state.message}
      </Alert>
    );
  return null;
};

/**
 * payment_gateway (spec §2; issue 13 "Payments"): a retailer buys keys online. They choose the key
 * type and how many, see the price (the organisation admin's price per key; without one 'Please
 * contact admin for prices'), pay through the gateway's checkout, and see the keys credited.
 * Shown only when the organisation's paymentGateway flag is on (spec §1, off by default).
 */
export const PaymentGatewayPage = () => {
  const { t } = useTranslation();
  const orgConfig = useSelector(selectOrgConfig);
  const [quoteKeys, quoteState] = useQuoteKeysMutation();
  const [createKeyOrder] = useCreateKeyOrderMutation();
  const payment = useGatewayPayment();
  const [quote, setQuote] = useState<TPaymentQuote | null>(null);
  const [quoteError, setQuoteError] = useState<{ message: string; isNoPrice: boolean } | null>(null);
  const form = useForm<TKeysForm, unknown, TPaymentQuoteRequest>({
    resolver,
    defaultValues: { appType: '', quantity: 1 },
    mode: 'onTouched',
  });

  const clearQuote = () => {
    setQuote(null);
    setQuoteError(null);
    payment.reset();
  };

  const submit = form.handleSubmit(async (request) => {
    clearQuote();
    const result = await quoteKeys(request);
    if (result.data) return setQuote(result.data);
    const error = isApiError(result.error) ? result.error : null;
    const isOnField = error
      ? applyServerFieldErrors(error, form.setError, (field) =>
          field === 'appType' || field === 'quantity' ? field : null,
        )
      : false;
    if (isOnField) return;
    const isNoPrice = error?.code === AppErrorCode.PRICES_NOT_SET;
    setQuoteError({
      isNoPrice,
      message: isNoPrice ? t('payments.contactAdmin') : (error?.message ?? t('errors.somethingWentWrong')),
    });
  });

  if (orgConfig && !orgConfig.features.paymentGateway) {
    return (
      <>
        <PageHeader title={t('pages.payment_gateway')} />
        <Alert severity="info" data-testid="payment-gateway-off">
          {t('payments.disabled')}
        </Alert>
      </>
    );
  }

  const paid = payment.state.kind === 'paid' ? payment.state.status : null;
  const paidLabelKey = paid?.appType === undefined ? null : appTypeLabelKey(paid.appType);
  const appTypeError = fieldErrorText(form.formState.errors.appType, () => t('payments.chooseKeyType'));
  const quantityError = fieldErrorText(form.formState.errors.quantity, () =>
    t('payments.quantityRange', { max: MAX_KEYS_PER_PURCHASE }),
  );

  return (
    <>
      <PageHeader title={t('pages.payment_gateway')} />
      <Stack spacing={2}>
        {paid ? (
          <Card data-testid="payment-success">
            <CardContent>
              <Stack spacing={2}>
                <Alert severity="success">
                  {t('payments.keysCredited', {
                    count: paid.quantity ?? 0,
                    type: paidLabelKey ? t(paidLabelKey) : String(paid.appType),
                  })}
                </Alert>
                <Typography variant="body2" color="textSecondary">
                  {t('payments.amountPaid', { amount: formatRupees(paid.amountPaise) })}
                </Typography>
                <Button
                  variant="outlined"
                  onClick={() => {
                    clearQuote();
                    form.reset({ appType: '', quantity: 1 });
                  }}
                  data-testid="payment-buy-more"
                >
                  {t('payments.buyMore')}
                </Button>
              </Stack>
            </CardContent>
          </Card>
        ) : (
          <Card>
            <CardContent>
              <form noValidate onSubmit={(event) => void submit(event)} data-testid="payment-keys-form">
                <Stack spacing={2}>
                  <Typography variant="body2" color="textSecondary">
                    {t('payments.intro')}
                  </Typography>
                  <Controller
                    control={form.control}
                    name="appType"
                    render={({ field }) => (
                      <TextField
                        select
                        label={t('payments.keyType')}
                        value={field.value}
                        onChange={(event) => {
                          field.onChange(event.target.value === '' ? '' : Number(event.target.value));
                          clearQuote();
                        }}
                        onBlur={field.onBlur}
                        inputRef={field.ref}
                        error={appTypeError !== null}
                        helperText={appTypeError ?? ' '}
                        fullWidth
                        slotProps={{ htmlInput: { 'data-testid': 'payment-app-type' } }}
                      >
                        {KEY_APP_TYPES.map((option) => (
                          <MenuItem key={option.value} value={option.value}>
                            {t(option.labelKey)}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                  <TextField
                    {...form.register('quantity', { valueAsNumber: true, onChange: clearQuote })}
                    type="number"
                    label={t('payments.quantity')}
                    error={quantityError !== null}
                    helperText={quantityError ?? t('payments.quantityHint', { max: MAX_KEYS_PER_PURCHASE })}
                    fullWidth
                    slotProps={{
                      htmlInput: {
                        min: 1,
                        max: MAX_KEYS_PER_PURCHASE,
                        inputMode: 'numeric',
                        'data-testid': 'payment-quantity',
                      },
                    }}
                  />
                  {quoteError ? (
                    <Alert
                      severity={quoteError.isNoPrice ? 'warning' : 'error'}
                      data-testid={quoteError.isNoPrice ? 'payment-no-price' : 'payment-quote-error'}
                    >
                      {quoteError.message}
                    </Alert>
                  ) : null}
                  {quote ? null : (
                    <Button
                      type="submit"
                      variant="contained"
                      loading={quoteState.isLoading}
                      data-testid="payment-get-price"
                    >
                      {t('payments.getPrice')}
                    </Button>
                  )}
                </Stack>
              </form>
              {quote ? (
                <Stack spacing={2} sx={{ mt: 2 }} data-testid="payment-quote">
                  <DetailList
                    items={[
                      {
                        label: t('payments.unitPrice'),
                        value: formatRupees(quote.unitPricePaise),
                        testId: 'payment-unit-price',
                      },
                      {
                        label: t('payments.quantity'),
                        value: String(quote.quantity),
                        testId: 'payment-quote-quantity',
                      },
                      {
                        label: t('payments.total'),
                        value: formatRupees(quote.amountPaise),
                        testId: 'payment-total',
                      },
                    ]}
                  />
                  <PaymentOutcome state={payment.state} />
                  <Button
                    variant="contained"
                    size="large"
                    loading={payment.state.kind === 'working'}
                    onClick={() =>
                      void payment.pay(() =>
                        createKeyOrder({
                          appType: quote.appType as TPaymentQuoteRequest['appType'],
                          quantity: quote.quantity,
                        }),
                      )
                    }
                    data-testid="payment-pay"
                  >
                    {t('payments.pay', { amount: formatRupees(quote.amountPaise) })}
                  </Button>
                </Stack>
              ) : null}
            </CardContent>
          </Card>
        )}
      </Stack>
    </>
  );
};
