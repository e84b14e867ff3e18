import type { TCommandFacts } from '@kisht/domain/devices/command-rules';
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
import type { TOfferedScheduleOption, TScheduleGroup, TScheduleOption } from '../device-controls';
import { isArgsFeature, offeredScheduleOptionsOf } from '../device-controls';
import type { TControlArgs } from './control-args-dialog';
import { ControlArgsForm } from './control-args-dialog';
import type { TReasonFields } from './lock-reason-picker';
import { LockReasonPicker, useLockReason } from './lock-reason-picker';
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
   * What the command gate judges the customer by (commandFactsOf): what the rules refuse is not
   * offered (a paid-up loan's restrictions, anything for a released phone), and a restriction asks
   * its reason as they want it.
   */
  facts: TCommandFacts;
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
 * Issue 25: only what the command rules allow now is offered, and a restriction asks why
 * (LockReasonPicker); the server judges it again when it falls due.
 */
export const ScheduleCommandDialog = ({
  customerId,
  availability,
  facts,
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
        options={offeredScheduleOptionsOf(availability, facts)}
        facts={facts}
        group={group}
        onClose={onClose}
      />
    </FormDialog>
  );
};

type TScheduleCommandFormProps = {
  customerId: number;
  options: TOfferedScheduleOption[];
  facts: TCommandFacts;
  group: TScheduleGroup;
  onClose: () => void;
};

const ScheduleCommandForm = ({ customerId, options, facts, group, onClose }: TScheduleCommandFormProps) => {
  const { t } = useTranslation();
  /** The reason checked on the first step, sent with the command. */
  const [checkedReason, setCheckedReason] = useState<TReasonFields>({});
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
  // A restriction asks why (its offer's reason); the rest do not.
  const reason = useLockReason(facts, chosen?.name ?? null);
  const commandLabel = chosen ? t(`commandName.${chosen.name}`) : '';

  /** The server's word on run_at or the reason, shown under its field (back on the first step). */
  const showServerFieldErrors = (error: TApiError | null): boolean => {
    const runAtError = error?.fields.find((field) => field.field === 'run_at');
    const isOnReason = reason.showServerErrors(error);
    if (!runAtError && !isOnReason) return false;
    setArgsRunAt(null);
    setTimeError(runAtError?.message ?? null);
    return true;
  };

  const schedule = async (
    option: TScheduleOption,
    runAt: string,
    args: TControlArgs | undefined,
    withReason: TReasonFields,
  ) => {
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
      showServerFieldErrors(isApiError(result.error) ? result.error : null);
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
    const given = reason.check();
    if (given === null) return;
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
          facts={null}
          onSubmit={async (args) => {
            await schedule(chosen, argsRunAt, args, checkedReason);
            return null;
          }}
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
          {reason.field ? <LockReasonPicker {...reason.field} /> : null}
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
export const ScheduleCommandButton = ({ customerId, availability, facts, group }: TScheduleButtonProps) => {
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
        facts={facts}
        group={group}
        isOpen={isOpen}
        onClose={() => setIsOpen(false)}
      />
    </>
  );
};
