import { CustomerStatus } from '@kisht/domain/common/enums';
import type { TPaymentReceipt } from '@kisht/domain/emi/emi.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailList } from '../../../components/detail-list';
import { formatDateTime, formatRupees } from '../../../lib/format';
import { describeAllocations } from '../payment-display';

type TReceiptDialogProps = {
  isOpen: boolean;
  /** The last receipt; kept while the dialog closes so its content does not vanish mid-animation. */
  receipt: TPaymentReceipt | null;
  onClose: () => void;
};

/**
 * The receipt of a recorded payment: receipt no., amount, mode, reference, instalments covered and
 * date. When the payment paid the loan off (customer status 5, EMIs completed) it says so.
 */
export const ReceiptDialog = ({ isOpen, receipt, onClose }: TReceiptDialogProps) => {
  const { t } = useTranslation();
  const titleId = useId();
  const isLoanCompleted = receipt?.customerStatus === CustomerStatus.EMI_COMPLETED;
  return (
    <Dialog
      open={isOpen && receipt !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
      data-testid="receipt-dialog"
    >
      <DialogTitle id={titleId}>{t('emi.receipt.title')}</DialogTitle>
      {receipt ? (
        <DialogContent>
          {isLoanCompleted ? (
            <Alert severity="success" sx={{ mb: 2 }} data-testid="receipt-loan-completed">
              {t('emi.loanCompleted')}
            </Alert>
          ) : null}
          <DetailList
            items={[
              { label: t('emi.receipt.receiptNo'), value: receipt.receiptNo, testId: 'receipt-no' },
              {
                label: t('emi.receipt.amount'),
                value: formatRupees(receipt.amountPaise),
                testId: 'receipt-amount',
              },
              {
                label: t('emi.receipt.mode'),
                value: t(`paymentMode.${receipt.mode}`),
                testId: 'receipt-mode',
              },
              {
                label: t('emi.receipt.reference'),
                value: receipt.reference || t('common.notAvailable'),
                testId: 'receipt-reference',
              },
              {
                label: t('emi.receipt.instalments'),
                value: describeAllocations(receipt.allocations),
                testId: 'receipt-instalments',
              },
              {
                label: t('emi.receipt.date'),
                value: formatDateTime(receipt.receivedAt),
                testId: 'receipt-date',
              },
            ]}
          />
        </DialogContent>
      ) : null}
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose} data-testid="receipt-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
