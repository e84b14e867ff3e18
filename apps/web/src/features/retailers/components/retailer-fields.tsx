import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { Controller, type UseFormReturn, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import { retailerFieldError, type TRetailerFormOutput, type TRetailerFormValues } from '../retailer-form';
import { useRetailerCitiesQuery, useRetailerCountriesQuery, useRetailerStatesQuery } from '../retailers-api';

type TPlacePath = 'address.countryCode' | 'address.stateCode' | 'address.city';

/** One of the country/state/city lists (csc routes) as a select bound to the form. */
const PlaceSelect = ({
  form,
  name,
  label,
  options,
  isDisabled,
  onChosen,
}: {
  form: UseFormReturn<TRetailerFormValues, unknown, TRetailerFormOutput>;
  name: TPlacePath;
  label: string;
  options: { value: string; label: string }[];
  isDisabled?: boolean;
  onChosen?: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => {
        const error = retailerFieldError(t, fieldState.error, field.value);
        const hasValue = options.some((o) => o.value === field.value);
        return (
          <TextField
            select
            required
            fullWidth
            label={label}
            value={hasValue ? field.value : ''}
            disabled={isDisabled}
            inputRef={field.ref}
            onBlur={field.onBlur}
            onChange={(event) => {
              field.onChange(event.target.value);
              onChosen?.();
            }}
            error={error !== null}
            helperText={error ?? ' '}
            slotProps={{ htmlInput: { 'data-testid': `retailer-${name.split('.')[1]}` } }}
          >
            {options.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
        );
      }}
    />
  );
};

/** Unique options (the data can name a city twice). */
const uniqueOptions = (options: { value: string; label: string }[]) =>
  options.filter((o, i) => options.findIndex((p) => p.value === o.value) === i);

/**
 * The fields of add_retailer and of a mini-retailer's edit: name, shop, mobile (10 digits, sent
 * with +91), email, GST number, and the address with country, state and city from the csc lists
 * (a new country clears state and city; a new state clears the city) as add_customer has it.
 */
export const RetailerFields = ({
  form,
}: {
  form: UseFormReturn<TRetailerFormValues, unknown, TRetailerFormOutput>;
}) => {
  const { t } = useTranslation();
  const { register, formState, setValue, getValues } = form;
  const [country = '', state = ''] = useWatch({
    control: form.control,
    name: ['address.countryCode', 'address.stateCode'],
  });
  const countries = useRetailerCountriesQuery();
  const states = useRetailerStatesQuery({ country }, { skip: !country });
  const cities = useRetailerCitiesQuery({ country, state }, { skip: !country || !state });
  const errors = formState.errors;
  const text = (
    name: 'name' | 'shopName' | 'email' | 'gstNumber' | 'address.line1',
    label: string,
    isRequired: boolean,
    extra: Record<string, unknown> = {},
  ) => {
    const error =
      name === 'address.line1'
        ? retailerFieldError(t, errors.address?.line1, getValues('address.line1'))
        : retailerFieldError(t, errors[name], getValues(name));
    return (
      <TextField
        {...register(name)}
        label={label}
        required={isRequired}
        fullWidth
        error={error !== null}
        helperText={error ?? ' '}
        slotProps={{ htmlInput: { 'data-testid': `retailer-${name.replace('address.', '')}`, ...extra } }}
      />
    );
  };
  const mobileError = retailerFieldError(t, errors.mobile, getValues('mobile'));
  const pincodeError = retailerFieldError(t, errors.address?.pincode, getValues('address.pincode'));

  return (
    <Grid container spacing={1}>
      <Grid size={{ xs: 12, sm: 6 }}>
        {text('name', t('retailers.fields.name'), true, { autoComplete: 'name' })}
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>{text('shopName', t('retailers.fields.shopName'), true)}</Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField
          {...register('mobile', { setValueAs: (value: string) => toLocalMobileDigits(value) })}
          label={t('retailers.fields.mobile')}
          required
          fullWidth
          type="tel"
          error={mobileError !== null}
          helperText={mobileError ?? t('retailers.fields.mobileHint')}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'retailer-mobile' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        {text('email', t('retailers.fields.email'), false, { type: 'email', autoComplete: 'email' })}
      </Grid>
      <Grid size={12}>
        {text('gstNumber', t('retailers.fields.gstNumber'), false, {
          autoCapitalize: 'characters',
          maxLength: 20,
        })}
      </Grid>
      <Grid size={12}>{text('address.line1', t('retailers.fields.addressLine1'), true)}</Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PlaceSelect
          form={form}
          name="address.countryCode"
          label={t('retailers.fields.country')}
          options={uniqueOptions((countries.data ?? []).map((c) => ({ value: c.code, label: c.name })))}
          onChosen={() => {
            setValue('address.stateCode', '');
            setValue('address.city', '');
          }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PlaceSelect
          form={form}
          name="address.stateCode"
          label={t('retailers.fields.state')}
          options={uniqueOptions((states.currentData ?? []).map((s) => ({ value: s.code, label: s.name })))}
          isDisabled={!country}
          onChosen={() => setValue('address.city', '')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PlaceSelect
          form={form}
          name="address.city"
          label={t('retailers.fields.city')}
          options={uniqueOptions((cities.currentData ?? []).map((c) => ({ value: c.name, label: c.name })))}
          isDisabled={!state}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField
          {...register('address.pincode', {
            setValueAs: (value: string | undefined) => {
              const digits = (value ?? '').replace(/\D/g, '').slice(0, 6);
              return digits === '' ? undefined : digits;
            },
          })}
          label={t('retailers.fields.pincode')}
          fullWidth
          error={pincodeError !== null}
          helperText={pincodeError ?? ' '}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'retailer-pincode' } }}
        />
      </Grid>
    </Grid>
  );
};
