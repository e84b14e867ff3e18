import { zodResolver } from '@hookform/resolvers/zod';
import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import { APP_TYPE_KEYS } from '@kisht/domain/ledger/ledger.rules';
import type { TPlan, TSellPlanRequest } from '@kisht/domain/plans/plans.schema';
import { ZSellPlanRequest } from '@kisht/domain/plans/plans.schema';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { ParseKeys } from 'i18next';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { BuyerFields } from '../../../components/buyer-fields';
import { CodeDrawer } from '../../../components/code-drawer';
import type { TValidationKey } from '../../../lib/form-errors';
import { applyServerFieldErrors, fieldErrorText, fieldMessageKey } from '../../../lib/form-errors';
import { formatMobile, formatRupees } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { useListCustomersInfiniteQuery } from '../../../lib/http/customer-list-api';
import { useSellPlanMutation } from '../../../lib/http/plans-api';

/** Spec §5 required-field message, as the domain schemas word it. */
const REQUIRED = 'This is a required field';
/** How long typing in the customer search waits before it asks the server, ms. */
const SEARCH_DEBOUNCE_MS = 300;

/** Who buys: an existing customer of the shop, or someone new (name and mobile only). */
export type TBuyerKind = 'customer' | 'new';

/** The customer a sale is for: a row of the customer list. */
type TCustomerChoice = Pick<TCustomerListItem, 'id' | 'firstName' | 'lastName' | 'mobile'>;

type TSaleForm = {
  planId: number | '';
  buyer: TBuyerKind;
  customer: TCustomerChoice | null;
  firstName: string;
  lastName: string;
  /** 10 local digits, as typed without +91 (spec §2). */
  mobile: string;
};

const EMPTY_BUYER = { customer: null, firstName: '', lastName: '', mobile: '' } as const;

/**
 * The sale form's schema: a plan of the list, then either a chosen customer (whose name and mobile
 * are sent, with customer_id) or a new buyer's first name, last name and mobile checked by
 * ZSellPlanRequest's own field rules (the mobile is sent with +91). Outputs the request.
 */
const saleFormSchema = (plans: readonly TPlan[]) =>
  z
    .object({
      planId: z.union([z.number(), z.literal('')]),
      buyer: z.enum(['customer', 'new']),
      customer: z.custom<TCustomerChoice>().nullable(),
      firstName: z.string(),
      lastName: z.string(),
      mobile: z.string(),
    })
    .transform((form, ctx): TSellPlanRequest => {
      const plan = plans.find((candidate) => candidate.id === form.planId);
      if (!plan) ctx.addIssue({ code: 'custom', path: ['planId'], message: REQUIRED });
      if (form.buyer === 'customer') {
        if (!form.customer) ctx.addIssue({ code: 'custom', path: ['customer'], message: REQUIRED });
        if (!plan || !form.customer) return z.NEVER;
        return {
          plan_id: plan.id,
          app_type: plan.appType as TSellPlanRequest['app_type'],
          plan_name: plan.name,
          customer_id: form.customer.id,
          firstName: form.customer.firstName,
          lastName: form.customer.lastName,
          mobile: form.customer.mobile,
        };
      }
      const fields = {
        firstName: ZSellPlanRequest.shape.firstName.safeParse(form.firstName),
        lastName: ZSellPlanRequest.shape.lastName.safeParse(form.lastName),
        mobile: ZSellPlanRequest.shape.mobile.safeParse(form.mobile),
      };
      for (const [path, result] of Object.entries(fields))
        if (!result.success)
          ctx.addIssue({ code: 'custom', path: [path], message: result.error.issues[0]?.message ?? '' });
      if (!plan || !fields.firstName.success || !fields.lastName.success || !fields.mobile.success)
        return z.NEVER;
      return {
        plan_id: plan.id,
        app_type: plan.appType as TSellPlanRequest['app_type'],
        plan_name: plan.name,
        firstName: fields.firstName.data,
        lastName: fields.lastName.data,
        mobile: fields.mobile.data,
      };
    });

/** The request fields the form shows, by the form field they belong under. */
const FORM_FIELD_OF: Record<string, keyof TSaleForm> = {
  plan_id: 'planId',
  app_type: 'planId',
  customer_id: 'customer',
  firstName: 'firstName',
  lastName: 'lastName',
  mobile: 'mobile',
};

const customerLabel = (customer: TCustomerChoice) =>
  `${[customer.firstName, customer.lastName].filter(Boolean).join(' ')} · ${formatMobile(customer.mobile)}`;

type TCustomerPickerProps = {
  value: TCustomerChoice | null;
  onChange: (customer: TCustomerChoice | null) => void;
  onBlur: () => void;
  error: string | null;
};

/**
 * Chooses one of the shop's customers: typing searches the customer list (name, mobile or IMEI,
 * as customer_list does), after a short pause; the first page of matches is offered.
 */
const CustomerPicker = ({ value, onChange, onBlur, error }: TCustomerPickerProps) => {
  const { t } = useTranslation();
  const [inputText, setInputText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const text = inputText.trim();
    // Typing that only shows the chosen customer's label is not a search.
    const next = value && text === customerLabel(value) ? search : text;
    if (next === search) return;
    const timer = setTimeout(() => setSearch(next), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [inputText, value, search]);
  const list = useListCustomersInfiniteQuery({ search, status: 'all' });
  const options: TCustomerChoice[] = list.data?.pages[0]?.items ?? [];
  return (
    <Autocomplete
      options={options}
      value={value}
      onChange={(_event, customer) => onChange(customer)}
      onBlur={onBlur}
      inputValue={inputText}
      onInputChange={(_event, text) => setInputText(text)}
      // The server has already filtered by the search.
      filterOptions={(all) => all}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      getOptionLabel={customerLabel}
      getOptionKey={(option) => option.id}
      loading={list.isFetching}
      loadingText={t('common.loading')}
      noOptionsText={t('antiTheft.noCustomers')}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('antiTheft.customer')}
          placeholder={t('antiTheft.customerSearch')}
          required
          error={error !== null}
          helperText={error ?? t('antiTheft.customerHint')}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'anti-theft-customer' },
          }}
        />
      )}
    />
  );
};

type TSellAntiTheftFormProps = {
  /** The anti-theft plans (app_types 4 and 9) the seller may sell. */
  plans: readonly TPlan[];
};

/**
 * Sells an anti-theft plan (POST /api/plans/sell) to an existing customer (sent with customer_id)
 * or to a new buyer (first name, last name, mobile without +91). The code the sale issues
 * (data[0].antihacking_code) shows in the code drawer to copy; a failure shows the server's words
 * under the field it names, else in a toast (spec §8).
 */
export const SellAntiTheftForm = ({ plans }: TSellAntiTheftFormProps) => {
  const { t } = useTranslation();
  const [sell, sellState] = useSellPlanMutation();
  const [code, setCode] = useState<string | null>(null);
  const resolver = useMemo(
    () => zodResolver<TSaleForm, unknown, TSellPlanRequest>(saleFormSchema(plans)),
    [plans],
  );
  const form = useForm<TSaleForm, unknown, TSellPlanRequest>({
    resolver,
    defaultValues: { planId: plans.length === 1 ? plans[0]!.id : '', buyer: 'customer', ...EMPTY_BUYER },
    mode: 'onTouched',
  });
  const buyer = useWatch({ control: form.control, name: 'buyer' });
  const errors = form.formState.errors;
  const errorText = (name: keyof TSaleForm, fallback: TValidationKey) =>
    fieldErrorText(errors[name] as Parameters<typeof fieldErrorText>[0], (error) =>
      t(fieldMessageKey(error, form.getValues(name), fallback)),
    );

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
    enqueueSnackbar(t('antiTheft.sold'), { variant: 'success' });
    setCode(result.data.antihacking_code);
    form.reset({ ...form.getValues(), ...EMPTY_BUYER });
  });

  const planLabel = (plan: TPlan) =>
    t('antiTheft.planOption', {
      name: plan.name,
      price: formatRupees(plan.pricePaise),
      count: plan.durationMonths,
    });
  const appTypeLabel = (plan: TPlan) =>
    t(`appType.${APP_TYPE_KEYS[plan.appType as keyof typeof APP_TYPE_KEYS]}` as ParseKeys);

  return (
    <>
      <form noValidate onSubmit={(event) => void submit(event)} data-testid="anti-theft-sell-form">
        <Stack spacing={2}>
          <Controller
            control={form.control}
            name="planId"
            render={({ field }) => (
              <TextField
                select
                label={t('antiTheft.plan')}
                required
                value={field.value}
                onChange={(event) =>
                  field.onChange(event.target.value === '' ? '' : Number(event.target.value))
                }
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(errors.planId)}
                helperText={errorText('planId', 'validation.required')}
                slotProps={{
                  htmlInput: { 'data-testid': 'anti-theft-plan' },
                  select: {
                    // The chosen plan shows on one line; the menu adds its app type below each name.
                    renderValue: (value) => {
                      const chosen = plans.find((plan) => plan.id === value);
                      return chosen ? planLabel(chosen) : '';
                    },
                  },
                }}
              >
                {plans.map((plan) => (
                  <MenuItem key={plan.id} value={plan.id} data-testid={`anti-theft-plan-${plan.id}`}>
                    <ListItemText primary={planLabel(plan)} secondary={appTypeLabel(plan)} />
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={form.control}
            name="buyer"
            render={({ field }) => (
              <ToggleButtonGroup
                exclusive
                fullWidth
                size="small"
                color="primary"
                value={field.value}
                onChange={(_event, next: TBuyerKind | null) => {
                  if (!next) return;
                  field.onChange(next);
                  form.reset({ ...form.getValues(), buyer: next, ...EMPTY_BUYER });
                }}
                aria-label={t('antiTheft.buyer')}
              >
                <ToggleButton value="customer" data-testid="anti-theft-buyer-customer">
                  {t('antiTheft.existingCustomer')}
                </ToggleButton>
                <ToggleButton value="new" data-testid="anti-theft-buyer-new">
                  {t('antiTheft.newBuyer')}
                </ToggleButton>
              </ToggleButtonGroup>
            )}
          />
          {buyer === 'customer' ? (
            <Controller
              control={form.control}
              name="customer"
              render={({ field }) => (
                <CustomerPicker
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={errorText('customer', 'validation.required')}
                />
              )}
            />
          ) : (
            <Grid container spacing={1}>
              <BuyerFields
                control={form.control}
                testIds={{
                  firstName: 'anti-theft-first-name',
                  lastName: 'anti-theft-last-name',
                  mobile: 'anti-theft-mobile',
                }}
              />
            </Grid>
          )}
          {plans.length === 0 ? <Alert severity="info">{t('antiTheft.noPlans')}</Alert> : null}
          <Button
            type="submit"
            variant="contained"
            loading={sellState.isLoading}
            disabled={plans.length === 0}
            data-testid="anti-theft-sell"
          >
            {t('antiTheft.sell')}
          </Button>
        </Stack>
      </form>
      <CodeDrawer
        isOpen={code !== null}
        code={code}
        title={t('antiTheft.codeTitle')}
        onClose={() => setCode(null)}
      />
    </>
  );
};
