import TextField from '@mui/material/TextField';
import type { Ref } from 'react';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { keepDigits, MPIN_LENGTH, signInErrorText } from '../sign-in-form';

type TMpinFieldProps = {
  label: string;
  name: string;
  value: string;
  onChange: (digits: string) => void;
  /** The text under the field (already translated, or the server's words); null without an error. */
  error: string | null;
  inputRef?: Ref<HTMLInputElement>;
  testId: string;
  autoComplete: 'current-password' | 'new-password';
  autoFocus?: boolean;
};

/** A 4-digit MPIN input: masked, numeric keypad, digits only. */
export const MpinField = ({
  label,
  name,
  value,
  onChange,
  error,
  testId,
  autoComplete,
  autoFocus,
  inputRef,
}: TMpinFieldProps) => {
  return (
    <TextField
      label={label}
      name={name}
      type="password"
      value={value}
      onChange={(event) => onChange(keepDigits(event.target.value, MPIN_LENGTH))}
      error={Boolean(error)}
      helperText={error ?? ' '}
      inputRef={inputRef}
      autoFocus={autoFocus}
      required
      slotProps={{
        htmlInput: {
          inputMode: 'numeric',
          pattern: '[0-9]*',
          autoComplete,
          'data-testid': testId,
          style: { letterSpacing: '0.6em', fontSize: 22, textAlign: 'center' },
        },
      }}
    />
  );
};

/** The sign-in forms' MPIN fields: a new or current MPIN, and its confirmation. */
type TMpinFieldName = 'mpin' | 'mpinConfirmation';

type TMpinControllerProps<TForm extends FieldValues> = {
  control: Control<TForm>;
  name: Extract<Path<TForm>, TMpinFieldName>;
} & Pick<TMpinFieldProps, 'label' | 'testId' | 'autoComplete' | 'autoFocus'>;

/**
 * An MpinField bound to the react-hook-form field `name` (mpin or mpinConfirmation) of a sign-in
 * form, its error in the app's words (signInErrorText of that field).
 */
export const MpinController = <TForm extends FieldValues>({
  control,
  name,
  ...shown
}: TMpinControllerProps<TForm>) => {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <MpinField
          {...shown}
          name={field.name}
          value={field.value as string}
          onChange={field.onChange}
          inputRef={field.ref}
          error={signInErrorText(t, name, fieldState.error, field.value as string)}
        />
      )}
    />
  );
};
