import KeyOffIcon from '@mui/icons-material/KeyOff';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../../lib/http/base-query';
import { useRefundKeyMutation } from '../ledger-api';

type TRefundKeyButtonProps = {
  /** The inactive customer whose phone never enrolled. */
  customerId: number;
  /** Called once the key is back (the QR shown no longer works). */
  onReturned: () => void;
};

/**
 * "Return key" on customer_navigate: after a confirmation, gives back the key the customer's
 * enrolment QR spent (api/points/refund_key). The QR shown stops working and a new QR costs a key
 * again, as the dialog says. A refusal (already enrolled, nothing to return) shows in the
 * server's words.
 */
export const RefundKeyButton = ({ customerId, onReturned }: TRefundKeyButtonProps) => {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [refundKey, { isLoading }] = useRefundKeyMutation();

  const close = () => {
    setIsOpen(false);
    setFailure(null);
  };

  const confirm = async () => {
    setFailure(null);
    const result = await refundKey({ customer_id: customerId });
    if (result.error) {
      setFailure(apiErrorMessage(result.error, t('ledger.refund.failed')));
      return;
    }
    enqueueSnackbar(t('ledger.refund.done'), { variant: 'success' });
    setIsOpen(false);
    onReturned();
  };

  return (
    <>
      <Button
        variant="outlined"
        color="warning"
        startIcon={<KeyOffIcon />}
        onClick={() => setIsOpen(true)}
        data-testid="refund-key-button"
      >
        {t('ledger.refund.button')}
      </Button>
      {isOpen && (
        <Dialog open onClose={close} fullWidth maxWidth="xs" data-testid="refund-key-dialog">
          <DialogTitle>{t('ledger.refund.title')}</DialogTitle>
          <DialogContent>
            <DialogContentText>{t('ledger.refund.body')}</DialogContentText>
            {failure && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {failure}
              </Alert>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{t('common.cancel')}</Button>
            <Button
              variant="contained"
              color="warning"
              loading={isLoading}
              onClick={() => void confirm()}
              data-testid="refund-key-confirm"
            >
              {t('ledger.refund.confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
};
