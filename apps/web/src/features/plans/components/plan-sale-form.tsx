import type { TSellPlanRequest } from '@kisht/domain/plans/plans.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BuyerFields } from '../../../components/buyer-fields';
import { LoadError } from '../../../components/load-error';
import { applyServerFieldErrors, fieldErrorText, fieldMessageKey } from '../../../lib/form-errors';
import { formatRupees } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { type TPlanSale, useSellPlanMutation } from '../../../lib/http/plans-api';
import { useListProductsQuery } from '../../../lib/http/products-api';
import {
  EMPTY_PLAN_SALE_FORM,
  isPlanForProduct,
  planSaleFormPath,
  planSaleResolver,
  preselectedPlan,
  type TPlanPreselection,
  type TPlanSaleFormOutput,
  type TPlanSaleFormValues,
} from '../plan-form';
import { type TPlanKind, useGetSellablePlansQuery } from '../plans-api';

type TPlanSaleFormProps = {
  kind: TPlanKind;
  /** What the URL pre-selects (spec §3 app_type, plan_id, product_id). */
  preselection: TPlanPreselection;
  /** Called with the sale once the server has issued the code (after the success toast). */
  onSold: (sale: TPlanSale) => void;
};

/**
 * The sale form of /antihacking and /familycare (spec §2, §3): firstName, lastName, email, mobile
 * (10 digits with +91 shown, sent +91…) and the plan (the plans of the kind load when the form
 * opens; each option shows the plan's name, its value the plan's id; its app_type and name go with
 * the sale). The URL's plan_id or app_type pre-selects a plan, and its product_id is sent as
 * product_id (only plans for that product are offered). On success the server's message is
 * toasted; a failure toasts the server's message (spec §8) and puts field errors under their fields.
 */
export const PlanSaleForm = ({ kind, preselection, onSold }: TPlanSaleFormProps) => {
  const { t } = useTranslation();
  const plans = useGetSellablePlansQuery(kind, { refetchOnMountOrArgChange: true });
  const products = useListProductsQuery(undefined, { skip: preselection.productId === undefined });
  const [sellPlan, sellState] = useSellPlanMutation();
  const form = useForm<TPlanSaleFormValues, unknown, TPlanSaleFormOutput>({
    resolver: planSaleResolver(),
    defaultValues: EMPTY_PLAN_SALE_FORM,
    mode: 'onTouched',
  });
  const offered = useMemo(
    () => (plans.data ?? []).filter((plan) => isPlanForProduct(plan, preselection.productId)),
    [plans.data, preselection.productId],
  );
  const product = products.data?.find((p) => p.id === preselection.productId);

  // The URL's plan, once the plans have come (never over a plan the person chose).
  const { getValues, setValue } = form;
  useEffect(() => {
    const plan = preselectedPlan(offered, preselection);
    if (plan && getValues('plan_id') === '') setValue('plan_id', String(plan.id));
  }, [offered, preselection, getValues, setValue]);

  const submit = form.handleSubmit(async (values) => {
    const plan = offered.find((p) => p.id === values.plan_id);
    const request: TSellPlanRequest = {
      ...values,
      app_type: (plan?.app_type ?? null) as TSellPlanRequest['app_type'],
      ...(plan ? { plan_name: plan.name } : {}),
      ...(preselection.productId === undefined ? {} : { product_id: preselection.productId }),
    };
    const result = await sellPlan(request);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      if (error) applyServerFieldErrors(error, form.setError, planSaleFormPath);
      enqueueSnackbar(error?.message ?? t('errors.somethingWentWrong'), { variant: 'error' });
      return;
    }
    enqueueSnackbar(result.data.message || t('plans.sold'), { variant: 'success' });
    form.reset(EMPTY_PLAN_SALE_FORM);
    onSold(result.data);
  });

  const planError = (value: unknown) =>
    fieldErrorText(form.formState.errors.plan_id, (error) =>
      t(fieldMessageKey(error, value, 'validation.invalidValue')),
    );

  if (plans.isLoading) return <Skeleton variant="rounded" height={360} data-testid="plan-form-loading" />;
  if (!plans.data) return <LoadError message={plans.error?.message} onRetry={plans.refetch} />;

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="plan-sale-form">
      <Card>
        <CardContent>
          <Stack spacing={1}>
            {product ? (
              <Alert severity="info" icon={false} data-testid="plan-product">
                {t('plans.forProduct', { product: `${product.brand} ${product.name}` })}
              </Alert>
            ) : null}
            <Grid container spacing={1}>
              <BuyerFields
                control={form.control}
                testIds={{
                  firstName: 'plan-firstName',
                  lastName: 'plan-lastName',
                  mobile: 'plan-mobile',
                  email: 'plan-email',
                }}
              />
              <Grid size={12}>
                <Controller
                  control={form.control}
                  name="plan_id"
                  render={({ field, fieldState }) => (
                    <TextField
                      select
                      required
                      fullWidth
                      label={t('plans.fields.plan')}
                      value={offered.some((plan) => String(plan.id) === field.value) ? field.value : ''}
                      inputRef={field.ref}
                      onBlur={field.onBlur}
                      onChange={(event) => field.onChange(event.target.value)}
                      error={fieldState.error !== undefined}
                      helperText={planError(field.value) ?? (offered.length === 0 ? t('plans.noPlans') : ' ')}
                      slotProps={{
                        htmlInput: { 'data-testid': 'plan-plan_id' },
                        select: {
                          renderValue: (value) =>
                            offered.find((plan) => String(plan.id) === value)?.name ?? '',
                        },
                      }}
                    >
                      {offered.map((plan) => (
                        <MenuItem
                          key={plan.id}
                          value={String(plan.id)}
                          data-testid={`plan-option-${plan.id}`}
                        >
                          <ListItemText
                            primary={plan.name}
                            secondary={t('plans.planTerms', {
                              price: formatRupees(plan.pricePaise),
                              count: plan.durationMonths,
                            })}
                          />
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </Grid>
            </Grid>
            <Button
              type="submit"
              variant="contained"
              disabled={sellState.isLoading}
              data-testid="plan-submit"
            >
              {sellState.isLoading ? t('plans.selling') : t('plans.sell')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </form>
  );
};
