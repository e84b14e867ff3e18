import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import type { TextFieldProps } from '@mui/material/TextField';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import type { ControllerFieldState, FieldError } from 'react-hook-form';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SERVER_ERROR_TYPE } from '../../../lib/form-errors';
import { bpsToPercent, paiseToRupeesInput, percentToBps, rupeesToPaise } from '../../../lib/format';
import type { TAddCustomerPath, TAddCustomerValues } from '../add-customer-form';
import { validationKeyFor } from '../add-customer-form';

/** The DOM id of a form field's input (`address.city` → `add-customer-address-city`). */
export const fieldId = (path: TAddCustomerPath): string => `add-customer-${path.replace('.', '-')}`;

/**
 * The message under a field: the server's words for a server error, else the translated message
 * for the domain schema's issue (validationKeyFor); null when the field is fine.
 */
export const useFieldErrorText = () => {
  const { t } = useTranslation();
  return (path: TAddCustomerPath, error: FieldError | undefined, value: unknown): string | null => {
    if (!error) return null;
    if (error.type === SERVER_ERROR_TYPE && error.message) return error.message;
    return t(validationKeyFor(path, error, value));
  };
};

/**
 * After a change, a field showing an error checks itself again even before it was ever left (the
 * error came from Next, or from the server); once left, the form's onTouched mode does this.
 */
export const useRecheckOnChange = () => {
  const { trigger } = useFormContext<TAddCustomerValues>();
  return (name: TAddCustomerPath, fieldState: ControllerFieldState) => {
    if (fieldState.error && !fieldState.isTouched) void trigger(name);
  };
};

type TBoundFieldProps = Omit<
  TextFieldProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error' | 'inputRef' | 'select' | 'children'
> & {
  name: TAddCustomerPath;
  /** Shown under the field while it has no error. */
  helperText?: string;
};

type TFormTextFieldProps = TBoundFieldProps & {
  /**
   * Empty text is stored as undefined: the schema reads that as absent, where '' would be a
   * malformed date or PIN code.
   */
  isEmptyUndefined?: boolean;
  /** Cleans what was typed before it is stored (digits only, a local mobile number). */
  clean?: (raw: string) => string;
};

/** A text field of the add-customer form. */
export const FormTextField = ({
  name,
  helperText,
  isEmptyUndefined,
  clean,
  ...props
}: TFormTextFieldProps) => {
  const { control } = useFormContext<TAddCustomerValues>();
  const errorText = useFieldErrorText();
  const recheck = useRecheckOnChange();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const error = errorText(name, fieldState.error, field.value);
        return (
          <TextField
            {...props}
            id={fieldId(name)}
            name={field.name}
            value={field.value ?? ''}
            inputRef={field.ref}
            onBlur={field.onBlur}
            onChange={(event) => {
              const text = clean ? clean(event.target.value) : event.target.value;
              field.onChange(isEmptyUndefined && text === '' ? undefined : text);
              recheck(name, fieldState);
            }}
            error={Boolean(error)}
            helperText={error ?? helperText ?? ' '}
            fullWidth
          />
        );
      }}
    />
  );
};

/** One choice of a select: its value as the form holds it, and its label. */
export type TSelectOption = { value: string | number; label: string };

type TFormSelectFieldProps = TBoundFieldProps & {
  options: readonly TSelectOption[];
  /** A first choice that leaves the field empty (undefined), for an optional field. */
  emptyLabel?: string;
  /** Called with the chosen value after the form has it (to prefill other fields). */
  onValueChange?: (value: TSelectOption['value'] | undefined) => void;
};

/** A select of the add-customer form; it stores the chosen option's own value (a number stays one). */
export const FormSelectField = ({
  name,
  helperText,
  options,
  emptyLabel,
  onValueChange,
  ...props
}: TFormSelectFieldProps) => {
  const { control } = useFormContext<TAddCustomerValues>();
  const errorText = useFieldErrorText();
  const recheck = useRecheckOnChange();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const error = errorText(name, fieldState.error, field.value);
        const selected = options.find((option) => option.value === field.value);
        return (
          <TextField
            {...props}
            select
            id={fieldId(name)}
            name={field.name}
            value={selected ? String(selected.value) : ''}
            inputRef={field.ref}
            onBlur={field.onBlur}
            onChange={(event) => {
              const value = options.find((option) => String(option.value) === event.target.value)?.value;
              field.onChange(value);
              recheck(name, fieldState);
              onValueChange?.(value);
            }}
            error={Boolean(error)}
            helperText={error ?? helperText ?? ' '}
            fullWidth
          >
            {emptyLabel === undefined ? null : <MenuItem value="">{emptyLabel}</MenuItem>}
            {options.map((option) => (
              <MenuItem key={option.value} value={String(option.value)}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
        );
      }}
    />
  );
};

/** How a number field reads and shows its number: rupees for paise, a percentage for basis points. */
const NUMBER_FORMATS = {
  rupees: { toNumber: rupeesToPaise, toText: paiseToRupeesInput },
  percent: { toNumber: percentToBps, toText: bpsToPercent },
} as const;
type TNumberFormat = keyof typeof NUMBER_FORMATS;

/** Keeps only what an amount or a rate can be typed with. */
const amountChars = (value: string) => value.replace(/[^\d.]/g, '');

/** The number typed: undefined when empty, NaN when it is not a valid amount or rate. */
const readNumber = (text: string, format: TNumberFormat): number | undefined =>
  text.trim() === '' ? undefined : (NUMBER_FORMATS[format].toNumber(text) ?? Number.NaN);

/** A number as the field shows it: empty for none (or a mistyped one), else rupees or percent. */
const showNumber = (value: number | undefined, format: TNumberFormat): string =>
  value === undefined || Number.isNaN(value) ? '' : NUMBER_FORMATS[format].toText(value);

type TNumberInputProps = Omit<TextFieldProps, 'value' | 'onChange'> & {
  value: number | undefined;
  onValueChange: (value: number | undefined) => void;
  format: TNumberFormat;
};

/**
 * A text input for a number the form holds in paise or basis points, shown in rupees or percent.
 * It keeps the text as typed (`12.` stays `12.`) and follows the value only when it is set from
 * outside (the price prefilled from the product, the loan from price − down payment).
 */
const NumberInput = ({ value, onValueChange, format, ...props }: TNumberInputProps) => {
  const [text, setText] = useState(() => showNumber(value, format));
  useEffect(() => {
    // A mistyped value (NaN) is the text itself; anything else the text does not read as is new.
    setText((current) =>
      Number.isNaN(value) || Object.is(readNumber(current, format), value)
        ? current
        : showNumber(value, format),
    );
  }, [value, format]);
  return (
    <TextField
      {...props}
      value={text}
      onChange={(event) => {
        const next = amountChars(event.target.value);
        setText(next);
        onValueChange(readNumber(next, format));
      }}
    />
  );
};

type TFormNumberFieldProps = TBoundFieldProps & {
  format: TNumberFormat;
  /** Called with the new number after the form has it (a person typed it). */
  onValueChange?: (value: number | undefined) => void;
};

/** An amount (rupees, held in paise) or a rate (% a year, held in basis points) of the add-customer form. */
export const FormNumberField = ({
  name,
  helperText,
  format,
  onValueChange,
  ...props
}: TFormNumberFieldProps) => {
  const { t } = useTranslation();
  const { control } = useFormContext<TAddCustomerValues>();
  const errorText = useFieldErrorText();
  const recheck = useRecheckOnChange();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const error = errorText(name, fieldState.error, field.value);
        return (
          <NumberInput
            {...props}
            id={fieldId(name)}
            name={field.name}
            value={typeof field.value === 'number' ? field.value : undefined}
            format={format}
            inputRef={field.ref}
            onBlur={field.onBlur}
            onValueChange={(value) => {
              field.onChange(value);
              recheck(name, fieldState);
              onValueChange?.(value);
            }}
            error={Boolean(error)}
            helperText={error ?? helperText ?? ' '}
            fullWidth
            slotProps={{
              input:
                format === 'rupees'
                  ? {
                      startAdornment: (
                        <InputAdornment position="start">{t('addCustomer.rupeeSymbol')}</InputAdornment>
                      ),
                    }
                  : {},
              htmlInput: { inputMode: 'decimal' },
            }}
          />
        );
      }}
    />
  );
};
