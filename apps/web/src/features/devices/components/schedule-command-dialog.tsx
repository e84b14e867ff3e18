import { isPhoneLockingCommand, type TLockRule } from '@kisht/domain/devices/devices.rules';
import type { TDeviceCommand, TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import ScheduleIcon from '@mui/icons-material/Schedule';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { enqueueSnackbar } from 'notistack';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { formatDateTime } from '../../../lib/format';
import type { TApiError } from '../../../lib/http/base-query';
import { isApiError } from '../../../lib/http/base-query';
import { defaultRunAtLocal } from '../../../lib/india-time';

import { useLockDeviceMutation, useSendDeviceControlMutation, useUnlockDeviceMutation } from '../device-api';
import type { TScheduleGroup, TScheduleOption } from '../device-controls';
import { isArgsFeature, scheduleOptionsOf } from '../device-controls';
import type { TControlArgs } from './control-args-dialog';
import { ControlArgsForm } from './control-args-dialog';
import { LockReasonField, useLockReason } from './lock-reason-field';
import { checkWhen, RunAtField } from './run-at-field';

const SCHEDULE_GROUPS: readonly TScheduleGroup[] = ['lock', 'controls', 'actions'];

/** An option's value in the select: its command name (each command appears once). */
const optionKey = (option: TScheduleOption): string => option.name;

/** Whether an option asks for arguments before it is scheduled (turning on a wallpaper, lost mode…). */
const needsArgs = (option: TScheduleOption): boolean =>
  option.enable !== false && isArgsFeature(option.feature);

type TScheduleCommandDialogProps = {
  customerId: number;
  availability: TDeviceSummary['availability'];
  /**
   * What a lock needs now (issue 12): a lock or lost mode is not offered once the EMIs are
   * completed, and asks for a reason when nothing is overdue.
   */
  lockRule: TLockRule;
  isOpen: boolean;
  /** Which tab opened it: its first command is chosen to begin with. */
  group: TScheduleGroup;
  onClose: () => void;
};

/**
 * "Schedule for later" on customer_details: any command the phone's availability offers (lock or
 * unlock, a toggle on or off, an action; not uninstall, which needs an OTP of the moment), at a
 * date and time on India's clock, sent as `run_at`. A command that takes arguments asks for them
 * next. The command waits on the server and shows in the history as "Scheduled for …" until then.
 * A lock or lost mode follows the lock rule (lockRule).
 */
export const ScheduleCommandDialog = ({
  customerId,
  availability,
  lockRule,
  isOpen,
  group,
  onClose,
}: TScheduleCommandDialogProps) => {
  const { t } = useTranslation();
  // FormDialog mounts the form only while open, so each opening starts from a fresh suggestion.
  return (
    <FormDialog isOpen={isOpen} onClose={onClose} title={t('schedule.title')} testId="schedule-dialog">
      <ScheduleCommandForm
        customerId={customerId}
        options={scheduleOptionsOf(availability).filter(
          (option) => lockRule.kind !== 'refused' || !isPhoneLockingCommand(option.name),
        )}
        needsReason={lockRule.kind === 'needs_reason'}
        group={group}
        onClose={onClose}
      />
    </FormDialog>
  );
};

type TScheduleCommandFormProps = {
  customerId: number;
  options: TScheduleOption[];
  /** Nothing is overdue: a lock or lost mode asks for a reason. */
  needsReason: boolean;
  group: TScheduleGroup;
  onClose: () => void;
};

const ScheduleCommandForm = ({
  customerId,
  options,
  needsReason,
  group,
  onClose,
}: TScheduleCommandFormProps) => {
  const { t } = useTranslation();
  const reason = useLockReason();
  /** The reason checked on the first step, sent with the command. */
  const [checkedReason, setCheckedReason] = useState<string | null>(null);
  const [lockDevice, lockState] = useLockDeviceMutation();
  const [unlockDevice, unlockState] = useUnlockDeviceMutation();
  const [sendControl, controlState] = useSendDeviceControlMutation();
  const firstOfGroup = options.find((option) => option.group === group) ?? options[0];
  const [chosenKey, setChosenKey] = useState(firstOfGroup ? optionKey(firstOfGroup) : '');
  const [local, setLocal] = useState(() => defaultRunAtLocal(Date.now()));
  const [timeError, setTimeError] = useState<string | null>(null);
  /** Set once the time is checked and the command takes arguments: the second step. */
  const [argsRunAt, setArgsRunAt] = useState<string | null>(null);
  const isBusy = lockState.isLoading || unlockState.isLoading || controlState.isLoading;
  const chosen = options.find((option) => optionKey(option) === chosenKey);
  const isReasonAsked = needsReason && chosen !== undefined && isPhoneLockingCommand(chosen.name);
  const commandLabel = chosen ? t(`commandName.${chosen.name}`) : '';

  /** The server's word on run_at or the reason, shown under its field (back on the first step). */
  const showServerTimeError = (error: TApiError | null): boolean => {
    const runAtError = error?.fields.find((field) => field.field === 'run_at');
    const serverReasonError = error?.fields.find((field) => field.field === 'reason');
    if (!runAtError && !serverReasonError) return false;
    setArgsRunAt(null);
    setTimeError(runAtError?.message ?? null);
    reason.setError(serverReasonError?.message ?? null);
    return true;
  };

  const schedule = async (
    option: TScheduleOption,
    runAt: string,
    args?: TControlArgs,
    given?: string | null,
  ) => {
    const withReason = given ? { reason: given } : {};
    const result: { data?: TDeviceCommand; error?: unknown } =
      option.group === 'lock'
        ? option.enable
          ? await lockDevice({ customer_id: customerId, run_at: runAt, ...withReason })
          : await unlockDevice({ customer_id: customerId, run_at: runAt })
        : await sendControl({
            feature: option.feature,
            body: {
              customer_id: customerId,
              run_at: runAt,
              ...(option.enable === undefined ? {} : { enable: option.enable }),
              ...(args ? { args } : {}),
              ...withReason,
            },
          });
    if (result.error) {
      showServerTimeError(isApiError(result.error) ? result.error : null);
      return;
    }
    enqueueSnackbar(
      t('schedule.scheduledToast', { command: t(`commandName.${option.name}`), time: formatDateTime(runAt) }),
      { variant: 'success' },
    );
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    const checked = checkWhen({ isLater: true, local });
    if (checked.errorKey || !checked.runAt) {
      setTimeError(t(checked.errorKey ?? 'schedule.errors.invalid'));
      return;
    }
    setTimeError(null);
    const given = isReasonAsked ? reason.check() : null;
    if (isReasonAsked && given === null) return;
    setCheckedReason(given);
    if (needsArgs(chosen)) {
      setArgsRunAt(checked.runAt);
      return;
    }
    void schedule(chosen, checked.runAt, undefined, given);
  };

  if (options.length === 0) {
    return (
      <>
        <DialogContent>
          <DialogContentText data-testid="schedule-nothing">{t('schedule.nothing')}</DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>{t('common.close')}</Button>
        </DialogActions>
      </>
    );
  }

  if (chosen && argsRunAt && isArgsFeature(chosen.feature)) {
    return (
      <>
        <DialogContent sx={{ pb: 0 }}>
          <DialogContentText data-testid="schedule-args-summary">
            {t('schedule.argsSummary', { command: commandLabel, time: formatDateTime(argsRunAt) })}
          </DialogContentText>
        </DialogContent>
        <ControlArgsForm
          feature={chosen.feature}
          isBusy={isBusy}
          submitLabel={t('schedule.submit')}
          onSubmit={(args) => void schedule(chosen, argsRunAt, args, checkedReason)}
          onClose={onClose}
        />
      </>
    );
  }

  return (
    <form noValidate onSubmit={submit} data-testid="schedule-form">
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>{t('schedule.intro')}</DialogContentText>
          <TextField
            select
            label={t('schedule.command')}
            name="command"
            value={chosenKey}
            onChange={(event) => setChosenKey(event.target.value)}
            fullWidth
            slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'schedule-command' } }}
          >
            {SCHEDULE_GROUPS.map((optionGroup) => {
              const inGroup = options.filter((option) => option.group === optionGroup);
              if (inGroup.length === 0) return null;
              return (
                <optgroup key={optionGroup} label={t(`schedule.groups.${optionGroup}`)}>
                  {inGroup.map((option) => (
                    <option key={optionKey(option)} value={optionKey(option)}>
                      {t(`commandName.${option.name}`)}
                    </option>
                  ))}
                </optgroup>
              );
            })}
          </TextField>
          <RunAtField
            value={local}
            onChange={(next) => {
              setLocal(next);
              setTimeError(null);
            }}
            error={timeError}
            testId="schedule-run-at"
          />
          {isReasonAsked ? <LockReasonField {...reason.field} /> : null}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={isBusy}>
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          startIcon={<ScheduleIcon />}
          loading={isBusy}
          data-testid="schedule-submit"
        >
          {chosen && needsArgs(chosen) ? t('schedule.next') : t('schedule.submit')}
        </Button>
      </DialogActions>
    </form>
  );
};

type TScheduleButtonProps = Omit<TScheduleCommandDialogProps, 'isOpen' | 'onClose'>;

/** The "Schedule for later" button of a command tab, and its dialog. */
export const ScheduleCommandButton = ({
  customerId,
  availability,
  lockRule,
  group,
}: TScheduleButtonProps) => {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button
        fullWidth
        variant="text"
        startIcon={<ScheduleIcon />}
        onClick={() => setIsOpen(true)}
        data-testid={`schedule-open-${group}`}
      >
        {t('schedule.open')}
      </Button>
      <ScheduleCommandDialog
        customerId={customerId}
        availability={availability}
        lockRule={lockRule}
        group={group}
        isOpen={isOpen}
        onClose={() => setIsOpen(false)}
      />
    </>
  );
};
