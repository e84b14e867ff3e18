import Autocomplete from '@mui/material/Autocomplete';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import type { Ref } from 'react';
import type { FieldError } from 'react-hook-form';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TAddCustomerPath, TAddCustomerValues } from '../add-customer-form';
import { useListCitiesQuery, useListCountriesQuery, useListStatesQuery } from '../customers-api';
import { FormTextField, fieldId, useFieldErrorText, useRecheckOnChange } from './add-customer-fields';

const PINCODE_LENGTH = 6;
const digitsOnly = (value: string) => value.replace(/\D/g, '').slice(0, PINCODE_LENGTH);

/** One choice of a place list: the code (or name, for a city) the form stores, and its name. */
type TPlaceOption = { value: string; label: string };

/** Choices from a list of places, each value once (the data can name a city twice). */
const placeOptions = <T,>(items: T[] | undefined, read: (item: T) => TPlaceOption): TPlaceOption[] => {
  const seen = new Set<string>();
  return (items ?? []).map(read).filter((option) => {
    if (seen.has(option.value)) return false;
    seen.add(option.value);
    return true;
  });
};

type TPlaceFieldProps = {
  name: TAddCustomerPath;
  label: string;
  options: TPlaceOption[];
  isLoading: boolean;
  /** Disabled until the place above it is chosen; helperText then says which. */
  isDisabled?: boolean;
  helperText?: string;
  testId: string;
  /** Called after the form has the new value (to clear the places below it). */
  onChosen?: () => void;
};

type TPlaceInputProps = TPlaceFieldProps & {
  value: string;
  inputRef: Ref<HTMLInputElement>;
  error: FieldError | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
};

const PlaceInput = (props: TPlaceInputProps) => {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const error = errorText(props.name, props.error, props.value);
  const selected = props.options.find((option) => option.value === props.value) ?? null;
  return (
    <Autocomplete
      id={fieldId(props.name)}
      options={props.options}
      value={selected}
      isOptionEqualToValue={(option, value) => option.value === value.value}
      getOptionLabel={(option) => option.label}
      getOptionKey={(option) => option.value}
      loading={props.isLoading}
      loadingText={t('common.loading')}
      noOptionsText={t('addCustomer.noOptions')}
      disabled={props.isDisabled}
      onChange={(_event, option) => {
        props.onChange(option?.value ?? '');
        props.onChosen?.();
      }}
      onBlur={props.onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          required
          inputRef={props.inputRef}
          error={Boolean(error)}
          helperText={error ?? props.helperText ?? ' '}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': props.testId, autoComplete: 'off' },
          }}
        />
      )}
    />
  );
};

/** A searchable list of places (country, state, city) bound to the form. */
const PlaceField = (props: TPlaceFieldProps) => {
  const { control } = useFormContext<TAddCustomerValues>();
  const recheck = useRecheckOnChange();
  return (
    <Controller
      control={control}
      name={props.name}
      render={({ field, fieldState }) => (
        <PlaceInput
          {...props}
          value={typeof field.value === 'string' ? field.value : ''}
          inputRef={field.ref}
          error={fieldState.error}
          onChange={(value) => {
            field.onChange(value);
            recheck(props.name, fieldState);
          }}
          onBlur={field.onBlur}
        />
      )}
    />
  );
};

/**
 * The address step: the street line, then country (India to start with), state and city, each
 * list loaded from the csc routes for the choice above it (a new country clears the state and
 * city; a new state clears the city), and an optional PIN code.
 */
export const AddressStep = () => {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<TAddCustomerValues>();
  const [country = '', state = ''] = useWatch({
    control,
    name: ['address.countryCode', 'address.stateCode'],
  });
  const countries = useListCountriesQuery();
  const states = useListStatesQuery({ country }, { skip: !country });
  const cities = useListCitiesQuery({ country, state }, { skip: !country || !state });

  return (
    <Grid container spacing={2}>
      <Grid size={12}>
        <FormTextField
          name="address.line1"
          label={t('addCustomer.addressLine1')}
          required
          slotProps={{ htmlInput: { autoComplete: 'address-line1' } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PlaceField
          name="address.countryCode"
          label={t('addCustomer.country')}
          testId="add-customer-country"
          options={placeOptions(countries.data, (item) => ({ value: item.code, label: item.name }))}
          isLoading={countries.isFetching}
          onChosen={() => {
            setValue('address.stateCode', '');
            setValue('address.city', '');
          }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PlaceField
          name="address.stateCode"
          label={t('addCustomer.state')}
          testId="add-customer-state"
          options={placeOptions(states.currentData, (item) => ({ value: item.code, label: item.name }))}
          isLoading={states.isFetching}
          isDisabled={!country}
          helperText={country ? undefined : t('addCustomer.stateNeedsCountry')}
          onChosen={() => setValue('address.city', '')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <PlaceField
          name="address.city"
          label={t('addCustomer.city')}
          testId="add-customer-city"
          options={placeOptions(cities.currentData, (item) => ({ value: item.name, label: item.name }))}
          isLoading={cities.isFetching}
          isDisabled={!state}
          helperText={state ? undefined : t('addCustomer.cityNeedsState')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          name="address.pincode"
          label={t('addCustomer.pincode')}
          isEmptyUndefined
          clean={digitsOnly}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'postal-code' } }}
        />
      </Grid>
    </Grid>
  );
};
