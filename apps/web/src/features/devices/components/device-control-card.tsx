import { LockStatus } from '@kisht/domain/common/enums';
import { AppErrorCode } from '@kisht/domain/common/errors';
import {
  commandOfferFor,
  isPaymentLockAllowed,
  type TCommandFacts,
} from '@kisht/domain/devices/command-rules';
import { deriveLockDisplay } from '@kisht/domain/devices/devices.rules';
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
import { isRefused, noCommandRefusalOf, pendingLockCommand } from '../device-controls';
import { LockReasonPicker, refusalKeyOf, useLockReason } from './lock-reason-picker';
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
   * What the command gate judges the customer's commands by (commandFactsOf: status, device
   * family, amount overdue today): the card offers a lock, an unlock and offline codes by the
   * domain's commandOfferFor, and asks the lock's reason as the rules want it.
   */
  facts: TCommandFacts;
  /** Opens the enrolment QR, offered while the phone has not enrolled. */
  onShowEnrolmentQr?: (() => void) | undefined;
};

/** A command this screen sent and is waiting to see the outcome of. */
type TAwaitedCommand = { commandId: string };

/**
 * The device card of customer_details: the lock display (reported state plus pending lock or
 * unlock, via deriveLockDisplay), last seen, and Lock / Unlock with confirmation when the device's
 * availability offers `lock`; the confirmation sends it now or, with "Schedule for later", at a
 * date and time on India's clock (`run_at`). The page polls while a command is pending; when the command it sent
 * ends without being applied, this says why. Other pending commands (a camera lock) do not hold
 * up a lock: the device and actions tabs show those. Issue 25: a lock's confirmation always asks
 * why (LockReasonPicker: a category, starting on "Overdue EMI" while one is overdue and the family
 * allows it, required otherwise, and a note), and shows what is overdue; once the EMIs are
 * completed no lock is offered, and for a phone released from Kisht nothing is; the card says why.
 * A managed-Android phone shows Google's rule (never locked for a payment). Unlock asks no reason.
 */
export const DeviceControlCard = ({
  customerId,
  device,
  facts,
  onShowEnrolmentQr,
}: TDeviceControlCardProps) => {
  const { t } = useTranslation();
  const [lockDevice, lockState] = useLockDeviceMutation();
  const [unlockDevice, unlockState] = useUnlockDeviceMutation();
  const [dialogAction, setDialogAction] = useState<TLockAction>('lock');
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [when, setWhen] = useState<TWhen>(initialWhen);
  const [whenError, setWhenError] = useState<string | null>(null);
  const reason = useLockReason(facts, dialogAction === 'lock' ? 'lock' : null);
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
  // Spec §4 status by the command rules: a released phone takes nothing, a paid-up one no lock.
  const releasedRefusal = noCommandRefusalOf(facts);
  const actionOffer = commandOfferFor(facts, action);
  const actionRefusal = isRefused(actionOffer) ? actionOffer.refusal : null;
  const canGetOfflineCode =
    !isRefused(commandOfferFor(facts, 'offline_code_unlock')) ||
    !isRefused(commandOfferFor(facts, 'offline_code_lock'));
  // A managed-Android phone is locked only for a reason that is not a payment (Google's rule).
  const isPaymentLockBarred = !isPaymentLockAllowed(facts.deviceType);

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
    setPaymentLockRefusal(null);
    setIsDialogOpen(true);
  };

  const handleConfirm = async () => {
    const checked = checkWhen(when);
    if (checked.errorKey) {
      setWhenError(t(checked.errorKey));
      return;
    }
    setWhenError(null);
    // A lock sends its reason (category and note); an unlock never asks one.
    const checkedReason = dialogAction === 'lock' ? reason.check() : {};
    if (checkedReason === null) return;
    const runAt = checked.runAt;
    const base = { customer_id: customerId, ...(runAt ? { run_at: runAt } : {}) };
    const result =
      dialogAction === 'lock' ? await lockDevice({ ...base, ...checkedReason }) : await unlockDevice(base);
    const error = isApiError(result.error) ? result.error : null;
    if (error?.code === AppErrorCode.PAYMENT_LOCK_NOT_ALLOWED) setPaymentLockRefusal(error.message);
    if (result.error) {
      // A time or reason the server refuses goes under its field, and the dialog stays open.
      const runAtError = error?.fields.find((field) => field.field === 'run_at');
      const isOnReason = dialogAction === 'lock' && reason.showServerErrors(error);
      if (runAtError || isOnReason) {
        setWhenError(runAtError?.message ?? null);
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
              {device.paidThrough ? (
                <Typography variant="body2" color="textSecondary" data-testid="device-paid-through">
                  {t('device.paidThrough', { time: formatDateTime(device.paidThrough) })}
                </Typography>
              ) : null}
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

          {releasedRefusal ? (
            // Issue 25: a phone released from Kisht (status 3 or 4) takes no command at all.
            <Alert severity="info" data-testid="device-lock-refused">
              {t(refusalKeyOf(releasedRefusal, 'lock'))}
            </Alert>
          ) : (
            <>
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

              {isPaymentLockBarred ? <PaymentLockRuleNotice /> : null}

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
              {isEnrolled && canLockOrUnlock && actionRefusal ? (
                <Alert severity="info" data-testid="device-lock-refused">
                  {t(refusalKeyOf(actionRefusal, 'lock'))}
                </Alert>
              ) : null}

              {(!canLockOrUnlock && isEnrolled) || actionRefusal ? null : action === 'lock' ? (
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
              {isEnrolled && canLockOrUnlock && canGetOfflineCode ? (
                <OfflineCodeButton customerId={customerId} facts={facts} />
              ) : null}
            </>
          )}
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
        {dialogAction === 'lock' && facts.overduePaise > 0 ? (
          <Alert severity="info" icon={false} sx={{ mt: 1.5 }} data-testid="lock-overdue">
            {t('device.overdueNow', { amount: formatRupees(facts.overduePaise) })}
          </Alert>
        ) : null}
        {reason.field ? <LockReasonPicker {...reason.field} /> : null}
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
