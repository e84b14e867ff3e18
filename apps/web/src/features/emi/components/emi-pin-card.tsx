import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadError } from '../../../components/load-error';
import { formatDateTime } from '../../../lib/format';
import { useGetCustomerEmiPinQuery, useRotateEmiPinMutation } from '../emi-api';

type TEmiPinCardProps = {
  customerId: number;
  /**
   * The page shows the schedule saved for offline reading (issue 28): the PIN is not kept on the
   * phone, so the card says so instead of asking for it.
   */
  isOffline?: boolean;
};

/**
 * The customer's EMI PIN on emi_details (customer_emi_pin; the server issues one on the first
 * ask): the customer quotes it when paying, so a payment is matched to the loan. Copy puts it on
 * the clipboard; "Issue new PIN" asks first, as the old PIN stops matching.
 * Memoised: typing in the page's payment form does not re-render it.
 */
export const EmiPinCard = memo(({ customerId, isOffline = false }: TEmiPinCardProps) => {
  const { t } = useTranslation();
  const pin = useGetCustomerEmiPinQuery(customerId, { skip: isOffline });
  const [rotateEmiPin, { isLoading: isRotating }] = useRotateEmiPinMutation();
  const [isConfirmOpen, setIsConfirmOpen] = useState(false);
  const current = pin.data?.emiPin;

  const handleCopy = async () => {
    if (!current) return;
    try {
      await navigator.clipboard.writeText(current);
      enqueueSnackbar(t('emi.pin.copied'), { variant: 'success' });
    } catch {
      enqueueSnackbar(t('emi.pin.copyFailed'), { variant: 'error' });
    }
  };

  const handleRotate = async () => {
    const result = await rotateEmiPin({ customer_id: customerId });
    // A failure has been toasted by the store; the dialog stays for another try.
    if (result.error) return;
    setIsConfirmOpen(false);
    enqueueSnackbar(t('emi.pin.issued', { pin: result.data.emiPin }), { variant: 'success' });
  };

  const renderPin = () => {
    if (isOffline) {
      return (
        <Typography variant="body2" color="textSecondary" data-testid="emi-pin-offline">
          {t('common.notKeptOffline')}
        </Typography>
      );
    }
    if (pin.isLoading) return <Skeleton variant="rounded" height={56} data-testid="emi-pin-loading" />;
    if (!pin.data) return <LoadError message={pin.error?.message} onRetry={pin.refetch} />;
    return (
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <div>
          <Typography
            component="p"
            variant="h4"
            sx={{ fontFamily: 'monospace', letterSpacing: '0.15em' }}
            data-testid="emi-pin-value"
          >
            {pin.data.emiPin}
          </Typography>
          <Typography variant="caption" color="textSecondary" data-testid="emi-pin-updated">
            {t('emi.pin.updated', { date: formatDateTime(pin.data.updatedAt) })}
          </Typography>
        </div>
        <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
          <Button
            variant="outlined"
            startIcon={<ContentCopyIcon />}
            onClick={handleCopy}
            data-testid="emi-pin-copy"
          >
            {t('emi.pin.copy')}
          </Button>
          <Button onClick={() => setIsConfirmOpen(true)} disabled={isRotating} data-testid="emi-pin-rotate">
            {t('emi.pin.rotate')}
          </Button>
        </Stack>
      </Stack>
    );
  };

  return (
    <Card data-testid="emi-pin-card">
      <CardContent>
        <Stack spacing={1.5}>
          <div>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {t('emi.pin.title')}
            </Typography>
            <Typography variant="body2" color="textSecondary">
              {t('emi.pin.hint')}
            </Typography>
          </div>
          {renderPin()}
        </Stack>
      </CardContent>
      <ConfirmDialog
        isOpen={isConfirmOpen}
        title={t('emi.pin.confirmTitle')}
        body={t('emi.pin.confirmBody', { pin: current ?? '' })}
        confirmLabel={t('emi.pin.rotate')}
        isBusy={isRotating}
        onConfirm={handleRotate}
        onClose={() => setIsConfirmOpen(false)}
      />
    </Card>
  );
});
