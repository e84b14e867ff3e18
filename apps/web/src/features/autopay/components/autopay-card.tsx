import type { TMandate } from '@kisht/domain/autopay/autopay.schema';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { formatDate, formatRupees } from '../../../lib/format';
import { selectOrgConfig } from '../../../lib/ui-slice';
import { useCancelMandateMutation, useGetMandateQuery, useSetUpMandateMutation } from '../autopay-api';

type TState = TMandate['state'];

const STATE_COLOURS: Record<TState, 'default' | 'success' | 'warning' | 'error' | 'info'> = {
  created: 'info',
  active: 'success',
  paused: 'warning',
  cancelled: 'default',
  rejected: 'error',
  expired: 'default',
};

const CHARGE_COLOURS: Record<TMandate['charges'][number]['status'], 'info' | 'success' | 'error'> = {
  created: 'info',
  captured: 'success',
  failed: 'error',
};

const isLive = (state: TState) => state === 'created' || state === 'active' || state === 'paused';

/**
 * customer_details' "UPI AutoPay" card (issue 29, docs/autopay.md): the mandate's state, its
 * limit and validity; while it waits for approval, the authorisation QR (the `upi://mandate` link)
 * the customer scans with their UPI app; "Set up AutoPay" when there is none (or it ended, and
 * `canSetUp`; without it and without a mandate, nothing); "Cancel AutoPay" after a confirmation;
 * and the charges made, newest first. Offline it says the mandate is not kept.
 */
export const AutopayCard = ({
  customerId,
  isOffline = false,
  canSetUp = true,
}: {
  customerId: number;
  isOffline?: boolean;
  /** Shops set AutoPay up; a customer only sees and cancels theirs. */
  canSetUp?: boolean;
}) => {
  const { t } = useTranslation();
  // Without the organisation's payment gateway there is no AutoPay to set up or show.
  const isGatewayOn = useSelector(selectOrgConfig)?.features.paymentGateway === true;
  const mandate = useGetMandateQuery(customerId, { skip: isOffline || !isGatewayOn });
  const [setUp, settingUp] = useSetUpMandateMutation();
  const [cancel, cancelling] = useCancelMandateMutation();
  const [isConfirming, setIsConfirming] = useState(false);
  const title = t('autopay.card.title');
  if (!isGatewayOn) return null;
  if (isOffline) {
    return (
      <SectionCard title={title} testId="autopay-card">
        <Typography variant="body2" color="textSecondary">
          {t('common.notKeptOffline')}
        </Typography>
      </SectionCard>
    );
  }
  if (mandate.isLoading) return <Skeleton variant="rounded" height={96} />;
  // A customer's loan screen stays as it is when AutoPay cannot be read (offline, say).
  if (mandate.isError && !canSetUp) return null;
  if (mandate.isError) return <LoadError message={mandate.error?.message} onRetry={mandate.refetch} />;
  const data = mandate.data ?? null;
  const setUpButton =
    canSetUp && (!data || !isLive(data.state)) ? (
      <Button
        variant="contained"
        disabled={settingUp.isLoading}
        onClick={() => void setUp({ customer_id: customerId })}
        data-testid="autopay-set-up"
      >
        {t('autopay.card.setUp')}
      </Button>
    ) : null;
  // A customer without AutoPay has nothing to do here: their shop sets it up.
  if (!data && !canSetUp) return null;
  if (!data) {
    return (
      <SectionCard title={title} testId="autopay-card">
        <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }} data-testid="autopay-none">
          {t('autopay.card.none')}
        </Typography>
        {setUpButton}
      </SectionCard>
    );
  }
  return (
    <SectionCard title={title} testId="autopay-card">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Chip
          size="small"
          color={STATE_COLOURS[data.state]}
          label={t(`autopay.state.${data.state}`)}
          data-testid="autopay-state"
        />
        {data.endedBy ? (
          <Typography variant="body2" color="textSecondary">
            {t(`autopay.card.endedBy.${data.endedBy}`)}
          </Typography>
        ) : null}
      </Stack>
      <Typography variant="body2">
        {t('autopay.card.maxAmount', { amount: formatRupees(data.maxAmountPaise) })}
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
        {t('autopay.card.expires', { date: formatDate(data.expireAt.slice(0, 10)) })}
      </Typography>
      {data.authorisationLink ? (
        <Box sx={{ my: 2, textAlign: 'center' }} data-testid="autopay-qr">
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('autopay.card.scan')}
          </Typography>
          <QRCodeSVG value={data.authorisationLink} size={200} title={t('autopay.card.qrLabel')} />
          <Box sx={{ mt: 1 }}>
            <Button href={data.authorisationLink} size="small">
              {t('autopay.card.openLink')}
            </Button>
          </Box>
        </Box>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ my: 1 }}>
        {setUpButton}
        {isLive(data.state) ? (
          <Button
            color="error"
            variant="outlined"
            onClick={() => setIsConfirming(true)}
            data-testid="autopay-cancel"
          >
            {t('autopay.card.cancel')}
          </Button>
        ) : null}
      </Stack>
      {data.charges.length > 0 ? (
        <List disablePadding dense>
          {data.charges.map((charge) => (
            <ListItem
              key={`${charge.instalmentNo}-${charge.attempt}`}
              disableGutters
              divider
              data-testid={`autopay-charge-${charge.instalmentNo}-${charge.attempt}`}
            >
              <ListItemText
                primary={t('autopay.charge.line', {
                  no: charge.instalmentNo,
                  attempt: charge.attempt,
                  amount: formatRupees(charge.amountPaise),
                  date: formatDate(charge.chargeDate),
                })}
                secondary={[charge.receiptNo, charge.failureReason].filter(Boolean).join(' · ') || undefined}
              />
              <Chip
                size="small"
                color={CHARGE_COLOURS[charge.status]}
                label={t(`autopay.charge.${charge.status}`)}
              />
            </ListItem>
          ))}
        </List>
      ) : null}
      <ConfirmDialog
        isOpen={isConfirming}
        title={t('autopay.card.confirmTitle')}
        body={t('autopay.card.confirmBody')}
        confirmLabel={t('autopay.card.cancel')}
        cancelLabel={t('autopay.card.keep')}
        confirmColor="error"
        isBusy={cancelling.isLoading}
        confirmTestId="autopay-cancel-confirm"
        onClose={() => setIsConfirming(false)}
        onConfirm={() => {
          void cancel(customerId)
            .unwrap()
            .then(
              () => setIsConfirming(false),
              () => setIsConfirming(false),
            );
        }}
      />
    </SectionCard>
  );
};
