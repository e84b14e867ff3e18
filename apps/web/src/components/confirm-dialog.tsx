import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

type TConfirmDialogProps = {
  isOpen: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  confirmColor?: 'primary' | 'error' | 'success';
  isBusy?: boolean;
  /** data-testid of the confirm button (e2e journeys tell dialogs apart by it). */
  confirmTestId?: string;
  onConfirm: () => void;
  onClose: () => void;
};

/** Asks before an action with consequences (design: lock and unlock ask the user to confirm). */
export const ConfirmDialog = ({
  isOpen,
  title,
  body,
  confirmLabel,
  confirmColor = 'primary',
  isBusy = false,
  confirmTestId = 'confirm-dialog-confirm',
  onConfirm,
  onClose,
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
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={isBusy} data-testid="confirm-dialog-cancel">
          {t('common.cancel')}
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
