import type { TMyInstalmentRow } from '@kisht/domain/emi/emi.schema';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatRupees } from '../../../lib/format';

const Line = ({ text, testId, color }: { text: string; testId: string; color: string }) => (
  <Typography variant="caption" component="div" sx={{ color }} data-testid={testId}>
    {text}
  </Typography>
);

/**
 * Under an instalment's status on the customer's own view: how many days it is overdue, its late
 * fee (levied, or due under the organisation's rule) and, with a late fee, the total due including
 * it. Nothing for an instalment that is neither overdue nor charged a late fee.
 */
export const BorrowerDueNote = ({ instalment }: { instalment: TMyInstalmentRow }) => {
  const { t } = useTranslation();
  const hasLateFee = instalment.lateFeePaise > 0;
  return (
    <>
      {instalment.daysOverdue > 0 ? (
        <Line
          text={t('myLoan.daysOverdue', { count: instalment.daysOverdue })}
          testId="emi-row-days-overdue"
          color="error.main"
        />
      ) : null}
      {hasLateFee ? (
        <Line
          text={t('myLoan.lateFee', { amount: formatRupees(instalment.lateFeePaise) })}
          testId="emi-row-late-fee"
          color="text.secondary"
        />
      ) : null}
      {hasLateFee && instalment.totalDuePaise > 0 ? (
        <Line
          text={t('myLoan.totalDue', { amount: formatRupees(instalment.totalDuePaise) })}
          testId="emi-row-total-due"
          color="text.primary"
        />
      ) : null}
    </>
  );
};
