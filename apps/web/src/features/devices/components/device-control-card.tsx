import { LockStatus } from '@kisht/domain/common/enums';
import { AppErrorCode } from '@kisht/domain/common/errors';
import { isPaymentLockAllowed } from '@kisht/domain/devices/device-families';
import { deriveLockDisplay, type TLockRule } from '@kisht/domain/devices/devices.rules';
import type { TDeviceCommand, TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import QrCode2Icon from '@mui/icons-material/QrCode2';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDateTime, formatRupees } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { useLockDeviceMutation, useUnlockDeviceMutation } from '../device-api';
import { pendingLockCommand } from '../device-controls';
import { LockReasonField, useLockReason } from './lock-reason-field';
import { OfflineCodeButton } from './offline-code-dialog';
import { PaymentLockRuleNotice } from './payment-lock-rule-notice';
import type { TWhen } from './run-at-field';
import { checkWhen, initialWhen, WhenChoice } from './run-at-field';

type TLockAction = 'lock' | 'unlock';

/** States in which a command has ended without being applied. */
const UNAPPLIED_STATES: readonly TDeviceCommand['state'][] = ['failed', 'cancelled', 'expired'];
/** States in which a command has ended. */
const FINAL_STATES: readonly TDeviceCommand['state'][] = ['done', ...UNAPPLIED_STATES];

type TDeviceControlCardProps = {
  customerId: number;
  device: TDeviceSummary;
  /**
   * What a lock needs now (lockRuleFor of the customer's status and instalments): a reason when
   * nothing is overdue; none offered once the EMIs are completed.
   */
  lockRule: TLockRule;
  /** Opens the enrolment QR, offered while the phone has not enrolled. */
  onShowEnrolmentQr?: (() => void) | undefined;
  /**
   * The customer's device family (spec §1 device_type): a managed-Android phone (1) shows Google's
   * rule that it is never locked for a missed payment (isPaymentLockAllowed).
   */
  deviceType?: number | undefined;
};

/** A command this screen sent and is waiting to see the outcome of. */
type TAwaitedCommand = { commandId: string };

/**
 * The device card of customer_details: the lock display (reported state plus pending lock or
 * unlock, via deriveLockDisplay), last seen, and Lock / Unlock with confirmation when the device's
 * availability offers `lock`; the confirmation sends it now or, with "Schedule for later", at a
 * date and time on India's clock (`run_at`). The page polls while a command is pending; when the command it sent
 * ends without being applied, this says why. Other pending commands (a camera lock) do not hold
 * up a lock: the device and actions tabs show those. Issue 12: with nothing overdue the lock's
 * confirmation says so and asks for the reason (required, sent with the lock); with something
 * overdue it shows the amount; once the EMIs are completed no lock is offered, and the card says why.
 */
export const DeviceControlCard = ({
  customerId,
  device,
  lockRule,
  onShowEnrolmentQr,
  deviceType,
}: TDeviceControlCardProps) => {
  const { t } = useTranslation();
  const [lockDevice, lockState] = useLockDeviceMutation();
  const [unlockDevice, unlockState] = useUnlockDeviceMutation();
  const [dialogAction, setDialogAction] = useState<TLockAction>('lock');
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [when, setWhen] = useState<TWhen>(initialWhen);
  const [whenError, setWhenError] = useState<string | null>(null);
  const reason = useLockReason();
  // The server's refusal of a lock under Google's rule (409 PAYMENT_LOCK_NOT_ALLOWED), in its words.
  const [paymentLockRefusal, setPaymentLockRefusal] = useState<string | null>(null);
  const awaitedRef = useRef<TAwaitedCommand | null>(null);

  const pendingLock = pendingLockCommand(device);
  const display = deriveLockDisplay({ lockStatus: device.lockStatus, pendingCommand: pendingLock });
  const isLocked = device.lockStatus === LockStatus.LOCKED;
  const hasPendingCommand = pendingLock !== null;
  const isEnrolled = device.enrolledAt !== null;
  // Spec §6: the lock pair shows only when the device's availability (access flags applied) has it.
  const canLockOrUnlock = device.availability.controls.includes('lock');
  const isSending = lockState.isLoading || unlockState.isLoading;
  const canSendCommand = isEnrolled && !hasPendingCommand && !isSending;
  const action: TLockAction = isLocked ? 'unlock' : 'lock';
  const isLockRefused = lockRule.kind === 'refused';
  // A managed-Android phone is locked only for a reason that is not a payment (Google's rule).
  const isPaymentLockBarred = deviceType !== undefined && !isPaymentLockAllowed(deviceType);
  const needsReason = dialogAction === 'lock' && (lockRule.kind === 'needs_reason' || isPaymentLockBarred);

  // The command this screen sent has ended: say so when it ended without being applied.
  useEffect(() => {
    const awaited = awaitedRef.current;
    const last = device.lastCommand;
    if (!awaited || last?.id !== awaited.commandId || !FINAL_STATES.includes(last.state)) return;
    awaitedRef.current = null;
    if (UNAPPLIED_STATES.includes(last.state)) {
      enqueueSnackbar(t('device.commandFailed', { error: last.error ?? t(`commandState.${last.state}`) }), {
        variant: 'error',
      });
    }
  }, [device.lastCommand, t]);

  const askToConfirm = (requested: TLockAction) => {
    setDialogAction(requested);
    setWhen(initialWhen());
    setWhenError(null);
    reason.reset();
    setIsDialogOpen(true);
  };

  const handleConfirm = async () => {
    const checked = checkWhen(when);
    if (checked.errorKey) {
      setWhenError(t(checked.errorKey));
      return;
    }
    setWhenError(null);
    const checkedReason = needsReason ? reason.check() : null;
    if (needsReason && checkedReason === null) return;
    const runAt = checked.runAt;
    const body = {
      customer_id: customerId,
      ...(runAt ? { run_at: runAt } : {}),
      ...(checkedReason ? { reason: checkedReason } : {}),
    };
    const result = dialogAction === 'lock' ? await lockDevice(body) : await unlockDevice(body);
    if (isApiError(result.error) && result.error.code === AppErrorCode.PAYMENT_LOCK_NOT_ALLOWED) {
      setPaymentLockRefusal(result.error.message);
    }
    if (result.error) {
      // A time or reason the server refuses goes under its field, and the dialog stays open.
      const fields = isApiError(result.error) ? result.error.fields : [];
      const runAtError = fields.find((field) => field.field === 'run_at');
      const serverReasonError = fields.find((field) => field.field === 'reason');
      if (runAtError || serverReasonError) {
        setWhenError(runAtError?.message ?? null);
        reason.setError(serverReasonError?.message ?? null);
        return;
      }
    }
    setIsDialogOpen(false);
    if (!result.data) return;
    const command = result.data;
    if (runAt) {
      // Scheduled: the phone hears of it at run_at; the history shows it until then.
      enqueueSnackbar(
        t('schedule.scheduledToast', {
          command: t(`commandName.${command.name}`),
          time: formatDateTime(runAt),
        }),
        { variant: 'success' },
      );
      return;
    }
    if (UNAPPLIED_STATES.includes(command.state)) {
      enqueueSnackbar(
        t('device.commandFailed', { error: command.error ?? t(`commandState.${command.state}`) }),
        {
          variant: 'error',
        },
      );
      return;
    }
    awaitedRef.current = { commandId: command.id };
    enqueueSnackbar(dialogAction === 'lock' ? t('device.lockSent') : t('device.unlockSent'), {
      variant: 'info',
    });
  };

  const stateIcon = hasPendingCommand ? (
    <CircularProgress size={24} color="inherit" aria-hidden="true" />
  ) : isLocked ? (
    <LockIcon />
  ) : (
    <LockOpenIcon />
  );

  return (
    <Card data-testid="device-card">
      <CardContent>
        <Stack spacing={2}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Avatar
              sx={{
                width: 52,
                height: 52,
                bgcolor: hasPendingCommand ? 'warning.main' : isLocked ? 'error.main' : 'success.main',
              }}
            >
              {stateIcon}
            </Avatar>
            <Stack sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="caption" color="textSecondary">
                {t('device.lockState')}
              </Typography>
              <Typography variant="h6" component="p" data-testid="lock-state" aria-live="polite">
                {t(`lockDisplay.${display}`)}
              </Typography>
              <Typography variant="body2" color="textSecondary" data-testid="device-last-seen">
                {device.lastSeenAt
                  ? t('device.lastSeen', { time: formatDateTime(device.lastSeenAt) })
                  : t('device.neverSeen')}
              </Typography>
            </Stack>
            {isEnrolled ? (
              <Chip
                size="small"
                color={device.isOnline ? 'success' : 'default'}
                variant={device.isOnline ? 'filled' : 'outlined'}
                label={device.isOnline ? t('device.online') : t('device.offline')}
                data-testid="device-online"
              />
            ) : null}
          </Stack>

          {pendingLock ? (
            <Alert severity="warning" data-testid="device-pending">
              {t('device.pending', { state: t(`commandState.${pendingLock.state}`) })}
            </Alert>
          ) : null}

          {isEnrolled ? null : (
            <Alert severity="info" data-testid="device-not-enrolled">
              {t('device.notEnrolled')}
              {onShowEnrolmentQr ? (
                <Button
                  size="small"
                  variant="outlined"
                  color="info"
                  startIcon={<QrCode2Icon />}
                  onClick={onShowEnrolmentQr}
                  sx={{ display: 'flex', mt: 1.5 }}
                  data-testid="show-enrolment-qr"
                >
                  {t('customerDetails.showQr')}
                </Button>
              ) : null}
            </Alert>
          )}

          {deviceType !== undefined && !isPaymentLockAllowed(deviceType) ? <PaymentLockRuleNotice /> : null}

          {paymentLockRefusal ? (
            <Alert
              severity="error"
              onClose={() => setPaymentLockRefusal(null)}
              data-testid="payment-lock-refused"
            >
              {paymentLockRefusal}
            </Alert>
          ) : null}

          {isEnrolled && !canLockOrUnlock ? (
            <Alert severity="info" data-testid="device-lock-unavailable">
              {t('device.lockUnavailable')}
            </Alert>
          ) : null}

          {/* Issue 12: a phone whose EMIs are completed is the customer's; it is never locked. */}
          {isEnrolled && canLockOrUnlock && action === 'lock' && isLockRefused ? (
            <Alert severity="info" data-testid="device-lock-refused">
              {t('device.lockRefused')}
            </Alert>
          ) : null}

          {(!canLockOrUnlock && isEnrolled) || (action === 'lock' && isLockRefused) ? null : action ===
            'lock' ? (
            <Button
              variant="contained"
              color="error"
              size="large"
              startIcon={<LockIcon />}
              disabled={!canSendCommand}
              onClick={() => askToConfirm('lock')}
              data-testid="lock-button"
            >
              {t('device.lock')}
            </Button>
          ) : (
            <Button
              variant="contained"
              color="success"
              size="large"
              startIcon={<LockOpenIcon />}
              disabled={!canSendCommand}
              onClick={() => askToConfirm('unlock')}
              data-testid="unlock-button"
            >
              {t('device.unlock')}
            </Button>
          )}

          {/* A phone with no network takes an offline code instead of a command. */}
          {isEnrolled && canLockOrUnlock ? <OfflineCodeButton customerId={customerId} /> : null}
        </Stack>
      </CardContent>

      <ConfirmDialog
        isOpen={isDialogOpen}
        title={dialogAction === 'lock' ? t('device.confirmLockTitle') : t('device.confirmUnlockTitle')}
        body={dialogAction === 'lock' ? t('device.confirmLockBody') : t('device.confirmUnlockBody')}
        confirmLabel={
          when.isLater
            ? t(dialogAction === 'lock' ? 'schedule.scheduleLock' : 'schedule.scheduleUnlock')
            : t(dialogAction === 'lock' ? 'device.lock' : 'device.unlock')
        }
        confirmColor={dialogAction === 'lock' ? 'error' : 'success'}
        isBusy={isSending}
        onConfirm={() => void handleConfirm()}
        onClose={() => setIsDialogOpen(false)}
      >
        {dialogAction === 'lock' && lockRule.kind === 'overdue' ? (
          <Alert severity="info" icon={false} sx={{ mt: 1.5 }} data-testid="lock-overdue">
            {t('device.overdueNow', { amount: formatRupees(lockRule.overduePaise) })}
          </Alert>
        ) : null}
        {needsReason ? (
          <LockReasonField
            {...reason.field}
            whyKey={isPaymentLockBarred ? 'enrolment.paymentLockRule.body' : undefined}
          />
        ) : null}
        <WhenChoice
          value={when}
          onChange={(next) => {
            setWhen(next);
            setWhenError(null);
          }}
          error={whenError}
          testIdPrefix="lock-when"
        />
      </ConfirmDialog>
    </Card>
  );
};
