import type { ButtonProps } from '@mui/material/Button';
import Button from '@mui/material/Button';
import type { ChangeEvent } from 'react';

type TFilePickButtonProps = Omit<ButtonProps<'label'>, 'component' | 'onChange' | 'children'> & {
  /** The button's text, also the file input's accessible name. */
  label: string;
  /** The input's `accept` (image/*, application/pdf). */
  accept: string;
  /** Called with the picked file; picking the same file again calls it again. */
  onFile: (file: File) => void;
  isBusy?: boolean;
  /** data-testid of the file input itself (a journey sets its files). */
  inputTestId?: string;
};

/**
 * A button that opens the file picker (on a phone: camera or gallery). The file input sits inside
 * the button's label, named by the same text, so tests and journeys can set its files directly.
 */
export const FilePickButton = ({
  label,
  accept,
  onFile,
  isBusy = false,
  disabled = false,
  inputTestId,
  ...buttonProps
}: TFilePickButtonProps) => {
  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that picking the same file again is a change too.
    event.target.value = '';
    if (file) onFile(file);
  };
  const isDisabled = disabled || isBusy;
  return (
    <Button component="label" loading={isBusy} disabled={isDisabled} {...buttonProps}>
      {label}
      <input
        type="file"
        hidden
        accept={accept}
        aria-label={label}
        disabled={isDisabled}
        onChange={handleChange}
        data-testid={inputTestId}
      />
    </Button>
  );
};
