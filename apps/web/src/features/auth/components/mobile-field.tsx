import { MOBILE_PREFIX } from '@kisht/domain/common/identifier-rules';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useTheme } from '@mui/material/styles';
import type { Ref } from 'react';
import { useId } from 'react';
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

/**
 * A local Indian mobile number input with the +91 prefix shown (spec §9). Built from the parts an
 * outlined TextField renders (FormControl, InputLabel, OutlinedInput, FormHelperText; the same
 * DOM, ids and theme defaults), because TextField also brings Select and its menu, which the login
 * screen would load for nothing (issue 17).
 */
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
  const { fullWidth, size } = useTheme().components?.MuiTextField?.defaultProps ?? {};
  const id = useId();
  const helperTextId = `${id}-helper-text`;
  return (
    <FormControl
      className="MuiTextField-root"
      variant="outlined"
      fullWidth={fullWidth}
      size={size}
      error={Boolean(error)}
      required
    >
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        name="mobile"
        type="tel"
        value={value}
        onChange={(event) => onChange(toLocalMobileDigits(event.target.value))}
        onBlur={onBlur}
        inputRef={inputRef}
        autoFocus={autoFocus}
        aria-describedby={helperTextId}
        startAdornment={<InputAdornment position="start">{MOBILE_PREFIX}</InputAdornment>}
        inputProps={{ inputMode: 'numeric', autoComplete: 'tel-national', 'data-testid': testId }}
      />
      <FormHelperText id={helperTextId}>{error ?? ' '}</FormHelperText>
    </FormControl>
  );
};
