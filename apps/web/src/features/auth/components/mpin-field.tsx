import TextField from '@mui/material/TextField';
import type { Ref } from 'react';
import { keepDigits, MPIN_LENGTH } from '../sign-in-form';

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
