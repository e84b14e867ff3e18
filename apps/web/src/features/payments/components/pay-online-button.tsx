import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { selectOrgConfig } from '../../../lib/ui-slice';
import { useCreateInstalmentOrderMutation } from '../payments-api';
import { useGatewayPayment } from '../use-gateway-payment';

/**
 * "Pay online" on the customer's own loan (issue 13): pays what is due now through the gateway's
 * checkout; the server records it as the shop would (receipt, instalments earliest first,
 * auto-unlock) and the loan is reloaded. Nothing shows when the organisation's paymentGateway flag
 * is off or nothing is owed.
 */
export const PayOnlineButton = ({ customerId, isOwing }: { customerId: number; isOwing: boolean }) => {
  const { t } = useTranslation();
  const orgConfig = useSelector(selectOrgConfig);
  const [createInstalmentOrder] = useCreateInstalmentOrderMutation();
  const payment = useGatewayPayment();
  if (!orgConfig?.features.paymentGateway) return null;
  const { state } = payment;
  if (state.kind === 'paid')
    return (
      <Alert severity="success" data-testid="pay-online-success">
        {t('payments.instalmentPaid', { receipt: state.status.receiptNo ?? '' })}
      </Alert>
    );
  if (!isOwing) return null;
  return (
    <Stack spacing={1.5}>
      {state.kind === 'failed' ? (
        <Alert severity="error" data-testid="pay-online-failed">
          {state.message}
        </Alert>
      ) : null}
      {state.kind === 'dismissed' ? (
        <Alert severity="info" data-testid="pay-online-dismissed">
          {t('payments.dismissed')}
        </Alert>
      ) : null}
      <Button
        variant="contained"
        size="large"
        loading={state.kind === 'working'}
        onClick={() => void payment.pay(() => createInstalmentOrder({ customerId }))}
        data-testid="pay-online"
      >
        {t('payments.payOnline')}
      </Button>
    </Stack>
  );
};
