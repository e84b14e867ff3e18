import type { TInstalmentRow } from '@kisht/domain/emi/emi.schema';
import { enqueueSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate, formatRupees } from '../../../lib/format';
import { isRefused } from '../api-error';
import { useSendPenaltyMutation } from '../emi-api';

type TLevyPenaltyDialogProps = {
  isOpen: boolean;
  customerId: number;
  /** The instalment to levy on; kept while the dialog closes. */
  instalment: TInstalmentRow | null;
  onClose: () => void;
};

/**
 * Asks before levying the organisation's late-payment penalty (the row's penaltyDuePaise) on an
 * overdue instalment, showing the amount and what the instalment will then owe, and sends
 * send_penalty. A failure is toasted by the store; when the server refused (PENALTY_NOT_DUE) the
 * dialog closes, as the schedule is fetched afresh.
 */
export const LevyPenaltyDialog = ({ isOpen, customerId, instalment, onClose }: TLevyPenaltyDialogProps) => {
  const { t } = useTranslation();
  const [sendPenalty, { isLoading }] = useSendPenaltyMutation();
  if (!instalment) return null;
  const amount = formatRupees(instalment.penaltyDuePaise);
  const no = instalment.instalmentNo;

  const handleConfirm = async () => {
    const result = await sendPenalty({ customer_id: customerId, emi_id: instalment.id });
    if (result.error) {
      if (isRefused(result.error)) onClose();
      return;
    }
    enqueueSnackbar(t('emi.penalty.levied', { amount, no }), { variant: 'success' });
    onClose();
  };

  return (
    <ConfirmDialog
      isOpen={isOpen}
      title={t('emi.penalty.confirmTitle', { no })}
      body={t('emi.penalty.confirmBody', {
        amount,
        no,
        date: formatDate(instalment.dueDate),
        total: formatRupees(instalment.outstandingPaise + instalment.penaltyDuePaise),
      })}
      confirmLabel={t('emi.penalty.levyAction', { amount })}
      confirmColor="error"
      isBusy={isLoading}
      onConfirm={handleConfirm}
      onClose={onClose}
    />
  );
};
