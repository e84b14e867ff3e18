import type { TControlFeature } from '@kisht/domain/common/enums';
import { commandSpecOf } from '@kisht/domain/devices/command-catalogue';
import { isPhoneLockingCommand, type TLockRule } from '@kisht/domain/devices/devices.rules';
import type { TDeviceCommand, TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendDeviceControlMutation } from '../device-api';
import type { TArgsFeature, TToggleDisplay } from '../device-controls';
import { deriveToggleDisplay, isArgsFeature, isToggleChanging, toggleFeaturesOf } from '../device-controls';
import type { TControlArgs } from './control-args-dialog';
import { ControlArgsDialog } from './control-args-dialog';
import { ScheduleCommandButton } from './schedule-command-dialog';

/** States in which a command has ended without being applied. */
const UNAPPLIED_STATES: readonly TDeviceCommand['state'][] = ['failed', 'cancelled', 'expired'];

/** Whether the switch shows on: the reported state, or the one a pending command is going to. */
const isShownOn = (display: TToggleDisplay) => display === 'on' || display === 'turningOn';

type TToggleRowProps = {
  feature: TControlFeature;
  display: TToggleDisplay;
  isDisabled: boolean;
  onChange: (enable: boolean) => void;
};

const ToggleRow = ({ feature, display, isDisabled, onChange }: TToggleRowProps) => {
  const { t } = useTranslation();
  const name = t(`controlFeature.${feature}`);
  const isChanging = isToggleChanging(display);
  return (
    <ListItem
      divider
      data-testid={`control-row-${feature}`}
      secondaryAction={
        <Switch
          edge="end"
          checked={isShownOn(display)}
          disabled={isDisabled || isChanging}
          onChange={(_event, checked) => onChange(checked)}
          slotProps={{
            input: {
              'aria-label': name,
              'data-testid': `control-${feature}`,
            } as object,
          }}
        />
      }
    >
      <ListItemText
        primary={name}
        secondary={
          <Stack component="span" direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            {isChanging ? <CircularProgress size={12} color="inherit" aria-hidden="true" /> : null}
            <span data-testid={`control-state-${feature}`} aria-live="polite">
              {t(`deviceControls.state.${display}`)}
            </span>
          </Stack>
        }
      />
    </ListItem>
  );
};

type TDeviceTogglesCardProps = {
  customerId: number;
  device: TDeviceSummary;
  /** What a lock needs now (issue 12): lost mode, which leaves only a lock screen, obeys it too. */
  lockRule: TLockRule;
};

/** True when turning `feature` on leaves the borrower only a lock screen (the lost modes). */
const locksThePhone = (feature: TControlFeature): boolean =>
  isPhoneLockingCommand(commandSpecOf(feature)?.on ?? '');

/**
 * The device tab of customer_details: each toggle the device's availability offers (spec §6, the
 * access flags applied by the server), with its reported state or "Turning on…"/"Turning off…"
 * while a command is on its way, and a switch that sends the on or off command. Turning on a
 * feature that takes arguments (wallpaper, lost mode, app lock/hide) asks for them first.
 * "Schedule for later" sends a toggle's on or off (or another command) at a picked time. Turning
 * on lost mode follows the lock rule (issue 12): a reason when nothing is overdue, never once the
 * EMIs are completed.
 */
export const DeviceTogglesCard = ({ customerId, device, lockRule }: TDeviceTogglesCardProps) => {
  const { t } = useTranslation();
  const [sendControl, sendState] = useSendDeviceControlMutation();
  const [argsFeature, setArgsFeature] = useState<TArgsFeature | null>(null);
  const features = toggleFeaturesOf(device.availability);
  const isEnrolled = device.enrolledAt !== null;
  const sendingFeature = sendState.isLoading ? sendState.originalArgs?.feature : undefined;

  const send = async (feature: TControlFeature, enable: boolean, args?: TControlArgs, reason?: string) => {
    const result = await sendControl({
      feature,
      body: { customer_id: customerId, enable, ...(args ? { args } : {}), ...(reason ? { reason } : {}) },
    });
    if (!result.data) return false;
    const command = result.data;
    if (UNAPPLIED_STATES.includes(command.state)) {
      enqueueSnackbar(
        t('device.commandFailed', { error: command.error ?? t(`commandState.${command.state}`) }),
        {
          variant: 'error',
        },
      );
      return false;
    }
    enqueueSnackbar(t('deviceControls.sent', { feature: t(`controlFeature.${feature}`) }), {
      variant: 'info',
    });
    return true;
  };

  const handleChange = (feature: TControlFeature, enable: boolean) => {
    if (enable && locksThePhone(feature) && lockRule.kind === 'refused') {
      enqueueSnackbar(t('device.lockRefused'), { variant: 'error' });
      return;
    }
    if (enable && isArgsFeature(feature)) {
      setArgsFeature(feature);
      return;
    }
    void send(feature, enable);
  };

  const handleArgs = async (args: TControlArgs, reason?: string) => {
    if (!argsFeature) return;
    const isSent = await send(argsFeature, true, args, reason);
    if (isSent) setArgsFeature(null);
  };

  if (!isEnrolled) {
    return (
      <Alert severity="info" data-testid="device-controls-not-enrolled">
        {t('deviceControls.notEnrolled')}
      </Alert>
    );
  }
  if (features.length === 0) {
    return (
      <Alert severity="info" data-testid="device-controls-empty">
        {t('deviceControls.empty')}
      </Alert>
    );
  }
  return (
    <Card data-testid="device-controls">
      <List disablePadding>
        {features.map((feature) => (
          <ToggleRow
            key={feature}
            feature={feature}
            display={deriveToggleDisplay(device, feature)}
            isDisabled={sendingFeature === feature}
            onChange={(enable) => handleChange(feature, enable)}
          />
        ))}
      </List>
      <Box sx={{ p: 1 }}>
        <ScheduleCommandButton
          customerId={customerId}
          availability={device.availability}
          lockRule={lockRule}
          group="controls"
        />
      </Box>
      <ControlArgsDialog
        feature={argsFeature}
        isBusy={sendState.isLoading}
        needsReason={argsFeature !== null && locksThePhone(argsFeature) && lockRule.kind === 'needs_reason'}
        onSubmit={(args, reason) => void handleArgs(args, reason)}
        onClose={() => setArgsFeature(null)}
      />
    </Card>
  );
};
