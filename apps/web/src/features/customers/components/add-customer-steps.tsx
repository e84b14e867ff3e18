import { productPlatformOf } from '@kisht/domain/catalogue/catalogue.schema';
import { MOBILE_PREFIX } from '@kisht/domain/common/identifiers';
import { defaultAppTypeOf, isAppTypeOfDeviceType } from '@kisht/domain/devices/device-families';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formatRupees } from '../../../lib/format';
import { useListProductsQuery } from '../../../lib/http/products-api';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import type { TAddCustomerValues } from '../add-customer-form';
import {
  APP_TYPE_OPTIONS,
  DEVICE_TYPE_OPTIONS,
  INTEREST_METHOD_OPTIONS,
  imeiDigits,
  latestDateOfBirth,
  needsSerialNumber,
  previewSchedule,
  TENURE_OPTIONS,
} from '../add-customer-form';
import { useListFinancersQuery } from '../customers-api';
import { FormNumberField, FormSelectField, FormTextField } from './add-customer-fields';
import { CustomerMediaPanel } from './customer-media-panel';
import { EmiPreviewCard } from './emi-preview-card';

const SERIAL_NUMBER_MAX_LENGTH = 40;

/** Step 1: who the customer is. */
export const PersonalStep = () => {
  const { t } = useTranslation();
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          name="firstName"
          label={t('addCustomer.firstName')}
          required
          slotProps={{ htmlInput: { autoComplete: 'given-name' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          name="lastName"
          label={t('addCustomer.lastName')}
          required
          slotProps={{ htmlInput: { autoComplete: 'family-name' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          name="mobile"
          label={t('addCustomer.mobile')}
          type="tel"
          required
          clean={toLocalMobileDigits}
          slotProps={{
            input: { startAdornment: <InputAdornment position="start">{MOBILE_PREFIX}</InputAdornment> },
            htmlInput: { inputMode: 'numeric', autoComplete: 'off' },
          }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          name="email"
          label={t('addCustomer.email')}
          type="email"
          isEmptyUndefined
          slotProps={{ htmlInput: { autoComplete: 'off' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          name="dateOfBirth"
          label={t('addCustomer.dateOfBirth')}
          type="date"
          isEmptyUndefined
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: latestDateOfBirth() } }}
        />
      </Grid>
    </Grid>
  );
};

/**
 * Step 3: the phone: its family and protection, IMEIs, and for an Apple device its serial number.
 * The app types offered are those of the chosen family (isAppTypeOfDeviceType: Apple only Apple,
 * link-based only the link apps, managed Android the device policy controller); choosing another
 * family starts its app type over from that family's default (defaultAppTypeOf).
 */
export const DeviceStep = () => {
  const { t } = useTranslation();
  const { control, setValue, clearErrors } = useFormContext<TAddCustomerValues>();
  const deviceType = useWatch({ control, name: 'deviceType' });
  const appTypeOptions = APP_TYPE_OPTIONS.filter((option) =>
    isAppTypeOfDeviceType(deviceType ?? 0, option.value),
  );

  const handleDeviceTypeChosen = (value: string | number | undefined) => {
    const defaultAppType = APP_TYPE_OPTIONS.find(
      (option) => typeof value === 'number' && option.value === defaultAppTypeOf(value),
    );
    if (defaultAppType) {
      setValue('appType', defaultAppType.value);
      clearErrors('appType');
    }
    // A serial number belongs to an Apple phone only; another family drops it (and its error).
    if (needsSerialNumber(value)) return;
    setValue('serialNumber', undefined);
    clearErrors('serialNumber');
  };
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormSelectField
          name="deviceType"
          label={t('addCustomer.deviceType')}
          required
          options={DEVICE_TYPE_OPTIONS.map((option) => ({ value: option.value, label: t(option.labelKey) }))}
          onValueChange={handleDeviceTypeChosen}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormSelectField
          name="appType"
          label={t('addCustomer.appType')}
          required
          options={appTypeOptions.map((option) => ({ value: option.value, label: t(option.labelKey) }))}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          name="imei1"
          label={t('addCustomer.imei1')}
          helperText={t('addCustomer.imeiHelper')}
          required
          clean={imeiDigits}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          name="imei2"
          label={t('addCustomer.imei2')}
          required
          clean={imeiDigits}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
        />
      </Grid>
      {needsSerialNumber(deviceType) ? (
        <Grid size={12}>
          <FormTextField
            name="serialNumber"
            label={t('addCustomer.serialNumber')}
            helperText={t('addCustomer.serialNumberHelper')}
            required
            isEmptyUndefined
            slotProps={{ htmlInput: { autoComplete: 'off', maxLength: SERIAL_NUMBER_MAX_LENGTH } }}
          />
        </Grid>
      ) : null}
    </Grid>
  );
};

/**
 * Step 4: the phone model from the catalogue (its price prefills the loan) and the financer. Only
 * the phones of the device family chosen in step 3 are offered (iPhones for Apple, issue 28); a
 * phone chosen before the family changed is let go.
 */
export const ProductStep = () => {
  const { t } = useTranslation();
  const { setValue, getFieldState, getValues, control } = useFormContext<TAddCustomerValues>();
  const deviceType = useWatch({ control, name: 'deviceType' });
  const products = useListProductsQuery();
  const financers = useListFinancersQuery();
  const platform = productPlatformOf(Number(deviceType));
  const offered = useMemo(
    () => (products.data ?? []).filter((product) => product.platform === platform),
    [products.data, platform],
  );
  useEffect(() => {
    const chosen = getValues('productId');
    if (products.data && chosen && !offered.some((product) => product.id === chosen))
      setValue('productId', 0);
  }, [offered, products.data, getValues, setValue]);

  const handleProductChosen = (productId: string | number | undefined) => {
    const product = offered.find((item) => item.id === productId);
    if (!product) return;
    setValue('pricePaise', product.pricePaise, {
      shouldValidate: Boolean(getFieldState('pricePaise').error),
    });
  };

  const productHelper = products.isLoading
    ? t('addCustomer.productsLoading')
    : offered.length === 0
      ? t('addCustomer.productsEmpty')
      : undefined;
  const financerHelper = financers.data?.length === 0 ? t('addCustomer.financersEmpty') : undefined;

  return (
    <Grid container spacing={2}>
      <Grid size={12}>
        <FormSelectField
          name="productId"
          label={t('addCustomer.product')}
          required
          disabled={offered.length === 0}
          helperText={productHelper}
          options={offered.map((product) => ({
            value: product.id,
            label: t('addCustomer.productOption', {
              brand: product.brand,
              name: product.name,
              price: formatRupees(product.pricePaise),
            }),
          }))}
          onValueChange={handleProductChosen}
        />
      </Grid>
      <Grid size={12}>
        <FormSelectField
          name="financerId"
          label={t('addCustomer.financer')}
          disabled={!financers.data?.length}
          helperText={financerHelper}
          emptyLabel={t('addCustomer.financerNone')}
          options={(financers.data ?? []).map((financer) => ({ value: financer.id, label: financer.name }))}
        />
      </Grid>
    </Grid>
  );
};

/**
 * Step 5: the loan. Price comes from the product and the loan amount follows price − down
 * payment until typed by hand; the live preview shows the schedule with the chosen method.
 */
export const LoanStep = () => {
  const { t } = useTranslation();
  const { control } = useFormContext<TAddCustomerValues>();
  const [loanAmountPaise, annualRateBps, tenureMonths, interestMethod, firstDueDate] = useWatch({
    control,
    name: ['loanAmountPaise', 'annualRateBps', 'tenureMonths', 'interestMethod', 'firstDueDate'],
  });
  const schedule = previewSchedule({
    loanAmountPaise,
    annualRateBps,
    tenureMonths,
    interestMethod,
    firstDueDate,
  });
  return (
    <Stack spacing={2}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormNumberField name="pricePaise" format="rupees" label={t('addCustomer.price')} required />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormNumberField
            name="downPaymentPaise"
            format="rupees"
            label={t('addCustomer.downPayment')}
            required
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormNumberField name="processingFeePaise" format="rupees" label={t('addCustomer.processingFee')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormNumberField
            name="loanAmountPaise"
            format="rupees"
            label={t('addCustomer.loanAmount')}
            required
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormNumberField
            name="annualRateBps"
            format="percent"
            label={t('addCustomer.interestRate')}
            required
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormSelectField
            name="interestMethod"
            label={t('addCustomer.interestMethod')}
            required
            options={INTEREST_METHOD_OPTIONS.map((option) => ({
              value: option.value,
              label: t(option.labelKey),
            }))}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormSelectField
            name="tenureMonths"
            label={t('addCustomer.tenure')}
            required
            options={TENURE_OPTIONS.map((months) => ({
              value: months,
              label: t('addCustomer.tenureOption', { count: months }),
            }))}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormTextField
            name="firstDueDate"
            label={t('addCustomer.firstDueDate')}
            helperText={t('addCustomer.firstDueDateHelper')}
            type="date"
            isEmptyUndefined
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Grid>
      </Grid>
      <EmiPreviewCard schedule={schedule} />
    </Stack>
  );
};

/**
 * Step 6, once the customer is saved: their photo, invoice attachment, documents and signature
 * (and the witness's, when the organisation asks for one), each uploaded to the new customer.
 * Everything here is optional now and can be done later from customer details.
 */
export const AttachmentsStep = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="textSecondary" data-testid="add-customer-attachments-intro">
        {t('addCustomer.attachmentsIntro')}
      </Typography>
      <CustomerMediaPanel customerId={customerId} />
    </Stack>
  );
};
