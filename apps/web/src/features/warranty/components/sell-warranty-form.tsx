import { zodResolver } from '@hookform/resolvers/zod';
import type { TProduct } from '@kisht/domain/catalogue/catalogue.schema';
import { ZId, ZImei } from '@kisht/domain/common/identifiers';
import { istDate } from '@kisht/domain/common/time';
import type { TPlan, TSellPlanRequest, TSellPlanResponseItem } from '@kisht/domain/plans/plans.schema';
import { planTermEnd, ZSellPlanRequest } from '@kisht/domain/plans/plans.schema';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useMemo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { BuyerFields } from '../../../components/buyer-fields';
import {
  applyServerFieldErrors,
  fieldErrorText,
  fieldMessageKey,
  type TValidationKey,
} from '../../../lib/form-errors';
import { formatDate, formatRupees } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { useSellPlanMutation } from '../../../lib/http/plans-api';

/** Spec §5 required-field message, as the domain schemas word it. */
const REQUIRED = 'This is a required field';

/** What the form holds while it is filled in: text as typed (mobile as 10 local digits, spec §2). */
export type TWarrantyForm = {
  planId: string;
  firstName: string;
  lastName: string;
  email: string;
  mobile: string;
  productId: string;
  imei: string;
  /** YYYY-MM-DD, the +05:30 day the warranty starts. */
  startDate: string;
};

/** A sale of an extended warranty: the plans request, with the product and IMEI it needs. */
const ZWarrantySale = ZSellPlanRequest.extend({ imei: ZImei, product_id: ZId });

/** The form field each request field belongs under. */
const FORM_FIELD_OF: Record<string, keyof TWarrantyForm> = {
  plan_id: 'planId',
  app_type: 'planId',
  plan_name: 'planId',
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  mobile: 'mobile',
  product_id: 'productId',
  imei: 'imei',
  start_date: 'startDate',
};

/** The products a plan covers: its productIds, or every product when it names none. */
export const productsOfPlan = (plan: TPlan | undefined, products: readonly TProduct[]): TProduct[] =>
  !plan || plan.productIds.length === 0
    ? [...products]
    : products.filter((p) => plan.productIds.includes(p.id));

/** The last day of a term (start + months − 1 day, as the server works it out), or null. */
export const warrantyEndDate = (startDate: string, months: number): string | null =>
  /^\d{4}-\d{2}-\d{2}$/.test(startDate) && formatDate(startDate) !== ''
    ? planTermEnd(startDate, months)
    : null;

/**
 * The form's schema: a plan of the list, then the request checked by the domain's ZSellPlanRequest
 * (with the product and IMEI a warranty needs; the mobile is sent with +91), each issue under its
 * form field. Outputs the request.
 */
const saleFormSchema = (plans: readonly TPlan[], products: readonly TProduct[]) =>
  z
    .object({
      planId: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      mobile: z.string(),
      productId: z.string(),
      imei: z.string(),
      startDate: z.string(),
    })
    .transform((form, ctx): TSellPlanRequest => {
      const plan = plans.find((candidate) => String(candidate.id) === form.planId);
      if (!plan) ctx.addIssue({ code: 'custom', path: ['planId'], message: REQUIRED });
      const productId = form.productId === '' ? undefined : Number(form.productId);
      if (plan && productId !== undefined && !productsOfPlan(plan, products).some((p) => p.id === productId))
        ctx.addIssue({ code: 'custom', path: ['productId'], message: REQUIRED });
      const parsed = ZWarrantySale.safeParse({
        plan_id: plan?.id ?? 0,
        app_type: plan?.appType,
        plan_name: plan?.name,
        firstName: form.firstName,
        lastName: form.lastName,
        email: form.email,
        mobile: form.mobile,
        product_id: productId,
        imei: form.imei,
        start_date: form.startDate,
      });
      if (!parsed.success)
        for (const issue of parsed.error.issues) {
          const field = FORM_FIELD_OF[String(issue.path[0])];
          if (field && field !== 'planId')
            ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
        }
      if (!plan || !parsed.success) return z.NEVER;
      return parsed.data as TSellPlanRequest;
    });

const emptyForm = (plans: readonly TPlan[]): TWarrantyForm => ({
  planId: plans.length === 1 ? String(plans[0]!.id) : '',
  firstName: '',
  lastName: '',
  email: '',
  mobile: '',
  productId: '',
  imei: '',
  startDate: istDate(),
});

type TSellWarrantyFormProps = {
  /** The organisation's active extended-warranty plans. */
  plans: readonly TPlan[];
  /** The organisation's products (brand and model). */
  products: readonly TProduct[];
  /** Called with the sale once the server answered it. */
  onSold: (sale: TSellPlanResponseItem) => void;
};

/**
 * Sells an extended warranty (POST paths.plans.sell): the plan, the buyer (first and last name,
 * optional email, mobile without +91), the product (limited to the plan's products when it names
 * some), the IMEI (15 digits, Luhn) and the start date (default today +05:30), with the end date
 * shown as it changes. Validated with the domain schema before any request; a server field error
 * lands under its field, any other failure in a toast (spec §8).
 */
export const SellWarrantyForm = ({ plans, products, onSold }: TSellWarrantyFormProps) => {
  const { t } = useTranslation();
  const [sell, sellState] = useSellPlanMutation();
  const resolver = useMemo(
    () => zodResolver<TWarrantyForm, unknown, TSellPlanRequest>(saleFormSchema(plans, products)),
    [plans, products],
  );
  const form = useForm<TWarrantyForm, unknown, TSellPlanRequest>({
    resolver,
    defaultValues: emptyForm(plans),
    mode: 'onTouched',
  });
  const [planId, startDate] = useWatch({ control: form.control, name: ['planId', 'startDate'] });
  const plan = plans.find((candidate) => String(candidate.id) === planId);
  const choices = productsOfPlan(plan, products);
  const endDate = plan ? warrantyEndDate(startDate, plan.durationMonths) : null;
  const errors = form.formState.errors;
  const errorText = (name: keyof TWarrantyForm, fallback: TValidationKey) =>
    fieldErrorText(errors[name], (error) => t(fieldMessageKey(error, form.getValues(name), fallback)));

  const submit = form.handleSubmit(async (request) => {
    const result = await sell(request);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error
        ? applyServerFieldErrors(error, form.setError, (field) => FORM_FIELD_OF[field] ?? null)
        : false;
      if (!isOnField) enqueueSnackbar(error?.message ?? t('errors.somethingWentWrong'), { variant: 'error' });
      return;
    }
    enqueueSnackbar(t('warranty.sold'), { variant: 'success' });
    form.reset({ ...emptyForm(plans), planId: form.getValues('planId') });
    onSold(result.data);
  });

  const imeiError = errorText('imei', 'validation.invalidImei');
  const startError = errorText('startDate', 'validation.invalidDate');

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="warranty-sell-form">
      <Grid container spacing={1}>
        <Grid size={12}>
          <Controller
            control={form.control}
            name="planId"
            render={({ field }) => (
              <TextField
                select
                label={t('warranty.plan')}
                required
                fullWidth
                value={field.value}
                onChange={(event) => {
                  field.onChange(event.target.value);
                  const next = plans.find((candidate) => String(candidate.id) === event.target.value);
                  const product = form.getValues('productId');
                  if (product && !productsOfPlan(next, products).some((p) => String(p.id) === product))
                    form.setValue('productId', '');
                }}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(errors.planId)}
                helperText={errorText('planId', 'validation.required') ?? ' '}
                slotProps={{ htmlInput: { 'data-testid': 'warranty-plan' } }}
              >
                {plans.map((option) => (
                  <MenuItem
                    key={option.id}
                    value={String(option.id)}
                    data-testid={`warranty-plan-${option.id}`}
                  >
                    {t('warranty.planOption', {
                      name: option.name,
                      price: formatRupees(option.pricePaise),
                      count: option.durationMonths,
                    })}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
        <BuyerFields
          control={form.control}
          testIds={{
            firstName: 'warranty-firstName',
            lastName: 'warranty-lastName',
            mobile: 'warranty-mobile',
            email: 'warranty-email',
          }}
        />
        <Grid size={12}>
          <Controller
            control={form.control}
            name="productId"
            render={({ field }) => (
              <TextField
                select
                label={t('warranty.fields.product')}
                required
                fullWidth
                value={choices.some((p) => String(p.id) === field.value) ? field.value : ''}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(errors.productId)}
                helperText={
                  errorText('productId', 'validation.required') ??
                  (plan && plan.productIds.length > 0 ? t('warranty.productsLimited') : ' ')
                }
                slotProps={{ htmlInput: { 'data-testid': 'warranty-product' } }}
              >
                {choices.map((product) => (
                  <MenuItem
                    key={product.id}
                    value={String(product.id)}
                    data-testid={`warranty-product-${product.id}`}
                  >
                    {`${product.brand} ${product.name}`}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
        <Grid size={12}>
          <TextField
            {...form.register('imei')}
            label={t('warranty.fields.imei')}
            required
            fullWidth
            error={imeiError !== null}
            helperText={imeiError ?? t('warranty.imeiHint')}
            slotProps={{
              htmlInput: {
                'data-testid': 'warranty-imei',
                inputMode: 'numeric',
                autoComplete: 'off',
                maxLength: 15,
              },
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...form.register('startDate')}
            label={t('warranty.fields.startDate')}
            type="date"
            required
            fullWidth
            error={startError !== null}
            helperText={startError ?? ' '}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'warranty-startDate' } }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Stack sx={{ py: 1 }}>
            <Typography variant="caption" color="textSecondary">
              {t('warranty.endsOn')}
            </Typography>
            <Typography variant="body1" sx={{ fontWeight: 600 }} data-testid="warranty-end-date">
              {endDate ? formatDate(endDate) : '—'}
            </Typography>
          </Stack>
        </Grid>
        <Grid size={12}>
          <Button
            type="submit"
            variant="contained"
            fullWidth
            loading={sellState.isLoading}
            data-testid="warranty-submit"
          >
            {t('warranty.sell')}
          </Button>
        </Grid>
      </Grid>
    </form>
  );
};
