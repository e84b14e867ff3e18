import type { TPushRefusal } from '@kisht/domain/customers/customers.schema';
import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';

/**
 * Issue 27: wake-ups to the phone stopped because Firebase refused its push token (customer_details
 * `device.pushRefusal`), when (India time, `DD-MM-YYYY hh:mm A`), and what the shop can do: open
 * the Kisht app on the phone, which then registers a new token. Nothing when there is no refusal.
 */
export const PushRefusalNotice = ({ refusal }: { refusal: TPushRefusal | null | undefined }) => {
  const { t } = useTranslation();
  if (!refusal) return null;
  return (
    <Alert severity="warning" data-testid="device-push-refusal">
      {t('device.pushRefusal', { time: formatDateTime(refusal.at) })}
    </Alert>
  );
};
