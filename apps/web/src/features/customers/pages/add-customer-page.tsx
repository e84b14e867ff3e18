import { MOBILE_PREFIX } from '@kisht/domain/common/identifiers';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import type { FormEvent, ReactNode } from 'react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { appPaths } from '../../../app/paths';
import { PageHeader } from '../../../components/page-header';
import { formatRupees, paiseToRupeesInput } from '../../../lib/format';
import type { TApiError } from '../../../lib/http/base-query';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import { useGoBack } from '../../../lib/use-go-back';
import type { TAddCustomerErrors, TAddCustomerField, TAddCustomerValues } from '../add-customer-form';
import {
  INITIAL_ADD_CUSTOMER_VALUES,
  previewSchedule,
  serverFieldErrors,
  suggestedLoanPaise,
  TENURE_OPTIONS,
  validateAddCustomer,
} from '../add-customer-form';
import { EmiPreviewCard } from '../components/emi-preview-card';
import { useCreateCustomerMutation, useListProductsQuery } from '../customers-api';

const IMEI_LENGTH = 15;
const digitsOnly = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);
const amountChars = (value: string) => value.replace(/[^\d.]/g, '');

const isApiError = (error: unknown): error is TApiError =>
  typeof error === 'object' && error !== null && 'fields' in error && 'message' in error;

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Card>
    <CardContent>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
        {title}
      </Typography>
      <Grid container spacing={2}>
        {children}
      </Grid>
    </CardContent>
  </Card>
);

/**
 * Spec §2 add_customer: the customer, their phone (IMEIs, product) and the loan, with a live EMI
 * preview. Validated with the domain schema before sending; the server's field errors show under
 * the fields. A new customer is inactive, so success opens customer_navigate (the enrolment QR).
 */
export const AddCustomerPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack(appPaths.customerList.href());
  const products = useListProductsQuery();
  const [createCustomer, { isLoading: isSaving }] = useCreateCustomerMutation();
  const [values, setValues] = useState<TAddCustomerValues>(INITIAL_ADD_CUSTOMER_VALUES);
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [isLoanEdited, setIsLoanEdited] = useState(false);
  const [serverErrors, setServerErrors] = useState<TAddCustomerErrors>({});

  const clientErrors = hasTriedSubmit ? validateAddCustomer(values).errors : {};
  const schedule = useMemo(() => previewSchedule(values), [values]);

  /** Sets fields; while the loan amount has not been typed by hand it follows price − down payment. */
  const update = (patch: Partial<TAddCustomerValues>) => {
    setValues((current) => {
      const next = { ...current, ...patch };
      if (!isLoanEdited && ('price' in patch || 'downPayment' in patch)) {
        const loan = suggestedLoanPaise(next);
        next.loanAmount = loan === null ? '' : paiseToRupeesInput(loan);
      }
      return next;
    });
    setServerErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(patch) as TAddCustomerField[]) delete next[field];
      return next;
    });
  };

  const errorText = (field: TAddCustomerField): string | null => {
    const error = serverErrors[field] ?? clientErrors[field];
    if (!error) return null;
    return 'key' in error ? t(error.key) : error.text;
  };

  /** The props every field shares: name, value, error state and the message under it. */
  const field = (name: TAddCustomerField, helper?: string) => {
    const error = errorText(name);
    return {
      name,
      id: `add-customer-${name}`,
      value: values[name],
      error: Boolean(error),
      helperText: error ?? helper ?? ' ',
    };
  };

  const handleProductChange = (productId: string) => {
    const product = products.data?.find((item) => String(item.id) === productId);
    update({ productId, ...(product ? { price: paiseToRupeesInput(product.pricePaise) } : {}) });
  };

  const focusFirstError = () =>
    window.requestAnimationFrame(() => {
      document.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus();
    });

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setHasTriedSubmit(true);
    const validation = validateAddCustomer(values);
    if (!validation.isValid) {
      enqueueSnackbar(t('addCustomer.fixErrors'), { variant: 'error' });
      focusFirstError();
      return;
    }
    const result = await createCustomer(validation.request);
    if (result.error) {
      if (isApiError(result.error)) setServerErrors(serverFieldErrors(result.error.fields));
      focusFirstError();
      return;
    }
    const customer = result.data;
    enqueueSnackbar(t('addCustomer.created', { name: `${customer.firstName} ${customer.lastName}` }), {
      variant: 'success',
    });
    navigate(appPaths.customerNavigate.href(customer.id), { replace: true });
  };

  const productHelper = products.isLoading
    ? t('addCustomer.productsLoading')
    : products.data?.length === 0
      ? t('addCustomer.productsEmpty')
      : undefined;
  const rupeeAdornment = {
    startAdornment: <InputAdornment position="start">{t('addCustomer.rupeeSymbol')}</InputAdornment>,
  };

  return (
    <>
      <PageHeader title={t('addCustomer.title')} onBack={goBack} />
      <Stack component="form" spacing={2} noValidate onSubmit={handleSubmit} data-testid="add-customer-form">
        <Section title={t('addCustomer.customerSection')}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              {...field('firstName')}
              label={t('addCustomer.firstName')}
              onChange={(e) => update({ firstName: e.target.value })}
              required
              slotProps={{ htmlInput: { autoComplete: 'given-name' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              {...field('lastName')}
              label={t('addCustomer.lastName')}
              onChange={(e) => update({ lastName: e.target.value })}
              required
              slotProps={{ htmlInput: { autoComplete: 'family-name' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              {...field('mobile')}
              label={t('addCustomer.mobile')}
              type="tel"
              onChange={(e) => update({ mobile: toLocalMobileDigits(e.target.value) })}
              required
              slotProps={{
                input: { startAdornment: <InputAdornment position="start">{MOBILE_PREFIX}</InputAdornment> },
                htmlInput: { inputMode: 'numeric', autoComplete: 'off' },
              }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              {...field('email')}
              label={t('addCustomer.email')}
              type="email"
              onChange={(e) => update({ email: e.target.value })}
              slotProps={{ htmlInput: { autoComplete: 'off' } }}
            />
          </Grid>
        </Section>

        <Section title={t('addCustomer.phoneSection')}>
          <Grid size={12}>
            <TextField
              {...field('productId', productHelper)}
              select
              label={t('addCustomer.product')}
              onChange={(e) => handleProductChange(e.target.value)}
              disabled={!products.data?.length}
              required
            >
              {(products.data ?? []).map((product) => (
                <MenuItem key={product.id} value={String(product.id)}>
                  {t('addCustomer.productOption', {
                    brand: product.brand,
                    name: product.name,
                    price: formatRupees(product.pricePaise),
                  })}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              {...field('imei1', t('addCustomer.imeiHelper'))}
              label={t('addCustomer.imei1')}
              onChange={(e) => update({ imei1: digitsOnly(e.target.value, IMEI_LENGTH) })}
              required
              slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              {...field('imei2')}
              label={t('addCustomer.imei2')}
              onChange={(e) => update({ imei2: digitsOnly(e.target.value, IMEI_LENGTH) })}
              required
              slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
            />
          </Grid>
        </Section>

        <Section title={t('addCustomer.loanSection')}>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...field('price')}
              label={t('addCustomer.price')}
              onChange={(e) => update({ price: amountChars(e.target.value) })}
              required
              slotProps={{ input: rupeeAdornment, htmlInput: { inputMode: 'decimal' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...field('downPayment')}
              label={t('addCustomer.downPayment')}
              onChange={(e) => update({ downPayment: amountChars(e.target.value) })}
              required
              slotProps={{ input: rupeeAdornment, htmlInput: { inputMode: 'decimal' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...field('loanAmount')}
              label={t('addCustomer.loanAmount')}
              onChange={(e) => {
                setIsLoanEdited(true);
                update({ loanAmount: amountChars(e.target.value) });
              }}
              required
              slotProps={{ input: rupeeAdornment, htmlInput: { inputMode: 'decimal' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...field('interestRate')}
              label={t('addCustomer.interestRate')}
              onChange={(e) => update({ interestRate: amountChars(e.target.value) })}
              required
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...field('tenureMonths')}
              select
              label={t('addCustomer.tenure')}
              onChange={(e) => update({ tenureMonths: e.target.value })}
              required
            >
              {TENURE_OPTIONS.map((months) => (
                <MenuItem key={months} value={String(months)}>
                  {t('addCustomer.tenureOption', { count: months })}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...field('firstDueDate', t('addCustomer.firstDueDateHelper'))}
              label={t('addCustomer.firstDueDate')}
              type="date"
              onChange={(e) => update({ firstDueDate: e.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Grid>
        </Section>

        <EmiPreviewCard schedule={schedule} />

        <Button
          type="submit"
          variant="contained"
          size="large"
          loading={isSaving}
          data-testid="add-customer-submit"
        >
          {t('addCustomer.submit')}
        </Button>
      </Stack>
    </>
  );
};
