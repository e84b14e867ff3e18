import type { TPayment } from '@kisht/domain/emi/emi.schema';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRupees } from '../../../lib/format';
import { describeAllocations } from '../payment-display';

/**
 * The payments of a loan, as the server lists them: receipt no. and amount, then date
 * (DD-MM-YYYY hh:mm A, +05:30), mode, reference, the instalments covered and who recorded it.
 */
export const PaymentList = ({ payments }: { payments: TPayment[] }) => {
  const { t } = useTranslation();
  if (payments.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary" data-testid="emi-payments-empty">
        {t('emi.payments.empty')}
      </Typography>
    );
  }
  return (
    <List disablePadding data-testid="emi-payments">
      {payments.map((payment) => (
        <ListItem
          key={payment.id}
          divider
          disableGutters
          data-testid={`emi-payment-${payment.receiptNo}`}
          sx={{ display: 'block', py: 1.25 }}
        >
          <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
            <Typography variant="subtitle2" data-testid="emi-payment-receipt-no">
              {payment.receiptNo}
            </Typography>
            <Typography variant="subtitle2" sx={{ fontWeight: 700 }} data-testid="emi-payment-amount">
              {formatRupees(payment.amountPaise)}
            </Typography>
          </Stack>
          <Typography variant="body2" color="textSecondary">
            {t('emi.payments.meta', {
              date: formatDateTime(payment.receivedAt),
              mode: t(`paymentMode.${payment.mode}`),
            })}
          </Typography>
          {payment.reference ? (
            <Typography variant="body2" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
              {t('emi.payments.reference', { reference: payment.reference })}
            </Typography>
          ) : null}
          <Typography variant="body2" color="textSecondary" data-testid="emi-payment-instalments">
            {t('emi.payments.instalments', { list: describeAllocations(payment.allocations) })}
          </Typography>
          {payment.recordedByName ? (
            <Typography variant="caption" color="textSecondary">
              {t('emi.payments.recordedBy', { name: payment.recordedByName })}
            </Typography>
          ) : null}
        </ListItem>
      ))}
    </List>
  );
};
