import { MOBILE_PREFIX } from '@kisht/domain/common/identifiers';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { Ref } from 'react';
import { toLocalMobileDigits } from '../../../lib/mobile-input';

type TMobileFieldProps = {
  label: string;
  value: string;
  onChange: (localDigits: string) => void;
  onBlur?: () => void;
  /** The text under the field (already translated, or the server's words); null without an error. */
  error: string | null;
  inputRef?: Ref<HTMLInputElement>;
  testId: string;
  autoFocus?: boolean;
};

/** A local Indian mobile number input with the +91 prefix shown (spec §9). */
export const MobileField = ({
  label,
  value,
  onChange,
  onBlur,
  error,
  testId,
  autoFocus,
  inputRef,
}: TMobileFieldProps) => {
  return (
    <TextField
      label={label}
      name="mobile"
      type="tel"
      value={value}
      onChange={(event) => onChange(toLocalMobileDigits(event.target.value))}
      onBlur={onBlur}
      error={Boolean(error)}
      helperText={error ?? ' '}
      inputRef={inputRef}
      autoFocus={autoFocus}
      required
      slotProps={{
        input: { startAdornment: <InputAdornment position="start">{MOBILE_PREFIX}</InputAdornment> },
        htmlInput: { inputMode: 'numeric', autoComplete: 'tel-national', 'data-testid': testId },
      }}
    />
  );
};
