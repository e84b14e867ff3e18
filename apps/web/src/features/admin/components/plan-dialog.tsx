import { zodResolver } from '@hookform/resolvers/zod';
import type { TPlan } from '@kisht/domain/plans/plans.schema';
import { MAX_PLAN_MONTHS } from '@kisht/domain/plans/plans.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyServerFieldErrors, fieldErrorText, fieldMessageKey } from '../../../lib/form-errors';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import { useListProductsQuery } from '../../../lib/http/products-api';
import { wholeNumberInputProps } from '../../../lib/whole-number-input';
import { useSavePlanMutation } from '../admin-api';
import { PLAN_TYPE_OPTIONS } from '../app-types';
import {
  planFormFieldOf,
  planFormValues,
  type TPlanFormInput,
  type TPlanFormOutput,
  ZPlanForm,
} from '../plan-form';

const resolver = zodResolver<TPlanFormInput, unknown, TPlanFormOutput>(ZPlanForm);

/**
 * Add or edit a plan (issue 14): name, app_type, price in rupees (sent as paise), term in months,
 * description, active, and the products it applies to (none chosen: every product). Server field
 * errors land under their fields.
 */
export const PlanDialog = ({ plan, onClose }: { plan: TPlan | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const products = useListProductsQuery();
  const [savePlan, { isLoading }] = useSavePlanMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TPlanFormInput, unknown, TPlanFormOutput>({
    resolver,
    defaultValues: planFormValues(plan, PLAN_TYPE_OPTIONS[0]!.value),
  });
  const productName = (id: number) => {
    const product = products.data?.find((candidate) => candidate.id === id);
    return product ? `${product.brand} ${product.name}` : String(id);
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await savePlan(values);
    if (result.error) {
      if (isApiError(result.error) && applyServerFieldErrors(result.error, form.setError, planFormFieldOf))
        return;
      setFailure(apiErrorMessage(result.error, t('admin.failed')));
      return;
    }
    enqueueSnackbar(t('adminPlans.saved', { name: values.name }), { variant: 'success' });
    onClose();
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="plan-dialog">
      <DialogTitle>{t(plan ? 'adminPlans.editTitle' : 'adminPlans.addTitle')}</DialogTitle>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Controller
              control={form.control}
              name="name"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  label={t('adminPlans.name')}
                  error={Boolean(fieldState.error)}
                  helperText={fieldErrorText(fieldState.error, (error) =>
                    t(fieldMessageKey(error, field.value, 'validation.tooLong')),
                  )}
                  slotProps={{ htmlInput: { maxLength: 80, 'data-testid': 'plan-name' } }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="appType"
              render={({ field, fieldState }) => (
                <TextField
                  select
                  label={t('adminPlans.appType')}
                  value={field.value}
                  onChange={(event) => field.onChange(Number(event.target.value))}
                  error={Boolean(fieldState.error)}
                  helperText={fieldErrorText(fieldState.error, () => t('validation.invalidValue'))}
                  slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'plan-app-type' } as object } }}
                >
                  {PLAN_TYPE_OPTIONS.map((option) => (
                    <MenuItem key={option.value} value={option.value}>
                      {t(option.labelKey)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Stack direction="row" spacing={2}>
              <Controller
                control={form.control}
                name="rupees"
                render={({ field, fieldState }) => (
                  <TextField
                    {...field}
                    label={t('adminPlans.price')}
                    error={Boolean(fieldState.error)}
                    helperText={fieldErrorText(fieldState.error, () =>
                      field.value.trim() === '' ? t('validation.required') : t('adminPlans.invalidPrice'),
                    )}
                    slotProps={{
                      htmlInput: { inputMode: 'decimal', 'data-testid': 'plan-price' },
                      input: { startAdornment: <InputAdornment position="start">₹</InputAdornment> },
                    }}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="durationMonths"
                render={({ field, fieldState }) => (
                  <TextField
                    label={t('adminPlans.duration')}
                    {...wholeNumberInputProps(field)}
                    error={Boolean(fieldState.error)}
                    helperText={fieldErrorText(fieldState.error, () =>
                      t('adminPlans.invalidDuration', { max: MAX_PLAN_MONTHS }),
                    )}
                    slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'plan-duration' } }}
                  />
                )}
              />
            </Stack>
            <Controller
              control={form.control}
              name="productIds"
              render={({ field, fieldState }) => (
                <TextField
                  select
                  label={t('adminPlans.products')}
                  value={field.value}
                  onChange={(event) => {
                    const chosen = event.target.value as unknown as number[] | string;
                    field.onChange(typeof chosen === 'string' ? chosen.split(',').map(Number) : chosen);
                  }}
                  error={Boolean(fieldState.error)}
                  helperText={
                    fieldErrorText(fieldState.error, () => t('validation.invalidValue')) ??
                    (field.value.length === 0 ? t('adminPlans.allProductsHint') : undefined)
                  }
                  slotProps={{
                    select: {
                      multiple: true,
                      displayEmpty: true,
                      renderValue: (selected) => {
                        const ids = selected as number[];
                        return ids.length === 0
                          ? t('adminPlans.allProducts')
                          : ids.map(productName).join(', ');
                      },
                      SelectDisplayProps: { 'data-testid': 'plan-products' } as object,
                    },
                    inputLabel: { shrink: true },
                  }}
                >
                  {products.data?.map((product) => (
                    <MenuItem key={product.id} value={product.id} data-testid={`plan-product-${product.id}`}>
                      <Checkbox checked={field.value.includes(product.id)} size="small" />
                      <ListItemText primary={`${product.brand} ${product.name}`} />
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Controller
              control={form.control}
              name="description"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  label={t('adminPlans.description')}
                  multiline
                  minRows={2}
                  error={Boolean(fieldState.error)}
                  helperText={fieldErrorText(fieldState.error, () => t('validation.tooLong'))}
                  slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'plan-description' } }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <FormControlLabel
                  control={
                    <Switch
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      slotProps={{ input: { 'data-testid': 'plan-active' } as object }}
                    />
                  }
                  label={t(field.value ? 'adminPlans.activeHint' : 'adminPlans.inactiveHint')}
                />
              )}
            />
            {failure && <Alert severity="error">{failure}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('admin.cancel')}</Button>
          <Button type="submit" variant="contained" loading={isLoading} data-testid="plan-save">
            {t('adminPlans.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
