import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import { type ReactNode, useId } from 'react';

type TFormDialogProps = {
  isOpen: boolean;
  onClose: () => void;
  /** The dialog's title, which also names it for screen readers. */
  title: string;
  /** data-testid of the dialog's paper, when tests look for it. */
  testId?: string;
  /** The dialog's width (default 'xs'; 'sm' for a form of many fields). */
  maxWidth?: 'xs' | 'sm';
  /** The form: mounted only while the dialog is open. */
  children: ReactNode;
};

/**
 * The frame of a form in a dialog: small, full width, titled. The form is mounted only while the
 * dialog is open, so each opening starts afresh: empty or from the current values, with a fresh
 * OTP where the form asks for one.
 */
export const FormDialog = ({
  isOpen,
  onClose,
  title,
  testId,
  maxWidth = 'xs',
  children,
}: TFormDialogProps) => {
  const titleId = useId();
  return (
    <Dialog
      open={isOpen}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={maxWidth}
      slotProps={testId === undefined ? undefined : { paper: { 'data-testid': testId } as object }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {isOpen ? children : null}
    </Dialog>
  );
};
