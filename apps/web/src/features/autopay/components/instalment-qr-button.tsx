import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { formatRupees } from '../../../lib/format';
import { apiErrorMessage } from '../../../lib/http/base-query';
import { selectOrgConfig } from '../../../lib/ui-slice';
import { useCreateInstalmentQrMutation } from '../autopay-api';

/**
 * "Pay by UPI QR" (issue 29, docs/autopay.md): asks the server for the payment gateway's
 * single-use UPI QR for the customer's oldest unpaid instalment and shows the gateway's image of
 * it, with the amount and the EMI it pays. Paid from any UPI app, the gateway's webhook records it
 * against that instalment and the phone unlocks; nothing here waits for that. "Close" hides the QR
 * (the gateway closes it at `closeBy`). A refusal (gateway off, nothing due, gateway unavailable)
 * shows the server's message. Nothing shows when the organisation's paymentGateway flag is off or
 * nothing is owed.
 */
export const InstalmentQrButton = ({ customerId, isOwing }: { customerId: number; isOwing: boolean }) => {
  const { t } = useTranslation();
  const isGatewayOn = useSelector(selectOrgConfig)?.features.paymentGateway === true;
  // Keyed by customer, so a QR asked for stays shown if the card around it is drawn again.
  const [createInstalmentQr, result] = useCreateInstalmentQrMutation({
    fixedCacheKey: `instalment-qr-${customerId}`,
  });
  if (!isGatewayOn || !isOwing) return null;
  const qr = result.data;
  // Shown until closed; a new one is asked for only after that (each is single-use).
  if (qr) {
    return (
      <Box sx={{ textAlign: 'center' }} data-testid="instalment-qr">
        <Box
          component="img"
          src={qr.imageUrl}
          alt={t('autopay.instalmentQrAlt', { n: qr.instalmentNo })}
          sx={{ width: 220, maxWidth: '100%', height: 'auto' }}
          data-testid="instalment-qr-image"
        />
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t('autopay.instalmentQrHint', { amount: formatRupees(qr.amountPaise), n: qr.instalmentNo })}
        </Typography>
        <Button size="small" sx={{ mt: 1 }} onClick={() => result.reset()} data-testid="instalment-qr-close">
          {t('common.close')}
        </Button>
      </Box>
    );
  }
  return (
    <Stack spacing={1.5}>
      {result.isError ? (
        <Alert severity="error" data-testid="instalment-qr-error">
          {apiErrorMessage(result.error, t('errors.somethingWentWrong'))}
        </Alert>
      ) : null}
      <Button
        variant="outlined"
        loading={result.isLoading}
        onClick={() => void createInstalmentQr({ customer_id: customerId })}
        data-testid="instalment-qr-create"
      >
        {t('autopay.payByQr')}
      </Button>
    </Stack>
  );
};
