import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

type TConfirmDialogProps = {
  isOpen: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  /** The label of the button that closes without acting; "Cancel" unless that would read oddly. */
  cancelLabel?: string;
  confirmColor?: 'primary' | 'error' | 'success';
  isBusy?: boolean;
  /** data-testid of the confirm button (e2e journeys tell dialogs apart by it). */
  confirmTestId?: string;
  onConfirm: () => void;
  onClose: () => void;
  /** More of the question below the body (a choice of when). */
  children?: ReactNode;
};

/** Asks before an action with consequences (design: lock and unlock ask the user to confirm). */
export const ConfirmDialog = ({
  isOpen,
  title,
  body,
  confirmLabel,
  cancelLabel,
  confirmColor = 'primary',
  isBusy = false,
  confirmTestId = 'confirm-dialog-confirm',
  onConfirm,
  onClose,
  children,
}: TConfirmDialogProps) => {
  const { t } = useTranslation();
  const titleId = useId();
  const bodyId = useId();
  return (
    <Dialog
      open={isOpen}
      onClose={isBusy ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>{body}</DialogContentText>
        {children}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={isBusy} data-testid="confirm-dialog-cancel">
          {cancelLabel ?? t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          color={confirmColor}
          onClick={onConfirm}
          loading={isBusy}
          data-testid={confirmTestId}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
