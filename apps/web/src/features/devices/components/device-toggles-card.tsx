import type { TControlFeature } from '@kisht/domain/common/enums';
import type { TCommandFacts } from '@kisht/domain/devices/command-rules';
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
import type { TApiError } from '../../../lib/http/base-query';
import { isApiError } from '../../../lib/http/base-query';
import { useSendDeviceControlMutation } from '../device-api';
import type { TToggleDisplay } from '../device-controls';
import {
  controlOfferOf,
  deriveToggleDisplay,
  isArgsFeature,
  isRefused,
  isToggleChanging,
  noCommandRefusalOf,
  toggleFeaturesOf,
} from '../device-controls';
import type { TControlArgs } from './control-args-dialog';
import { ControlArgsDialog } from './control-args-dialog';
import type { TReasonFields } from './lock-reason-picker';
import { refusalKeyOf } from './lock-reason-picker';
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
  /**
   * What the command gate judges the customer by (commandFactsOf): which halves of each toggle the
   * rules allow, and the reason a restriction needs.
   */
  facts: TCommandFacts;
};

/**
 * The device tab of customer_details: each toggle the device's availability offers (spec §6, the
 * access flags applied by the server), with its reported state or "Turning on…"/"Turning off…"
 * while a command is on its way, and a switch that sends the on or off command. Turning on a
 * feature that takes arguments (wallpaper, lost mode, app lock/hide) asks for them first.
 * "Schedule for later" sends a toggle's on or off (or another command) at a picked time. Issue 25:
 * turning on a restriction (every "block"/"lock" toggle, lost modes) asks why, as the command rules
 * want it (a category required when nothing is overdue and the command leaves a lock screen, or on
 * managed Android while something is overdue); once the EMIs are completed a restriction can only
 * be turned off, and a phone released from Kisht takes nothing; the card says why.
 */
export const DeviceTogglesCard = ({ customerId, device, facts }: TDeviceTogglesCardProps) => {
  const { t } = useTranslation();
  const [sendControl, sendState] = useSendDeviceControlMutation();
  const [dialogFeature, setDialogFeature] = useState<TControlFeature | null>(null);
  const features = toggleFeaturesOf(device.availability);
  const isEnrolled = device.enrolledAt !== null;
  const sendingFeature = sendState.isLoading ? sendState.originalArgs?.feature : undefined;
  const releasedRefusal = noCommandRefusalOf(facts);
  // The first refusal of turning a listed toggle on (a paid-up loan's restrictions), said once.
  const onRefusal = features.map((feature) => controlOfferOf(facts, feature, true)).find(isRefused)?.refusal;

  /** Sends the toggle's command: whether it is on its way, and the server's error if refused. */
  const send = async (
    feature: TControlFeature,
    enable: boolean,
    args?: TControlArgs,
    reason: TReasonFields = {},
  ): Promise<{ isSent: boolean; error: TApiError | null }> => {
    const result = await sendControl({
      feature,
      body: { customer_id: customerId, enable, ...(args ? { args } : {}), ...reason },
    });
    if (!result.data) return { isSent: false, error: isApiError(result.error) ? result.error : null };
    const command = result.data;
    if (UNAPPLIED_STATES.includes(command.state)) {
      enqueueSnackbar(
        t('device.commandFailed', { error: command.error ?? t(`commandState.${command.state}`) }),
        {
          variant: 'error',
        },
      );
      return { isSent: false, error: null };
    }
    enqueueSnackbar(t('deviceControls.sent', { feature: t(`controlFeature.${feature}`) }), {
      variant: 'info',
    });
    return { isSent: true, error: null };
  };

  const handleChange = (feature: TControlFeature, enable: boolean) => {
    const offer = controlOfferOf(facts, feature, enable);
    // The switch is disabled then; a refusal that came meanwhile is said rather than sent.
    if (isRefused(offer)) {
      enqueueSnackbar(t(refusalKeyOf(offer.refusal, 'restriction')), { variant: 'error' });
      return;
    }
    // Arguments to type, or a restriction's reason: a small form first.
    if (enable && (isArgsFeature(feature) || offer?.reason)) {
      setDialogFeature(feature);
      return;
    }
    void send(feature, enable);
  };

  const handleDialog = async (args: TControlArgs | undefined, reason: TReasonFields) => {
    if (!dialogFeature) return null;
    const { isSent, error } = await send(dialogFeature, true, args, reason);
    // Until it is sent the dialog stays open, with the server's words on the reason under its fields.
    if (isSent) setDialogFeature(null);
    return error;
  };

  if (releasedRefusal) {
    return (
      <Alert severity="info" data-testid="device-controls-refused">
        {t(refusalKeyOf(releasedRefusal, 'restriction'))}
      </Alert>
    );
  }
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
      {onRefusal ? (
        <Alert severity="info" sx={{ m: 1 }} data-testid="device-controls-refused">
          {t(refusalKeyOf(onRefusal, 'restriction'))}
        </Alert>
      ) : null}
      <List disablePadding>
        {features.map((feature) => {
          const display = deriveToggleDisplay(device, feature);
          // The switch moves to the other half: off when shown on, on when shown off.
          const isMoveRefused = isRefused(controlOfferOf(facts, feature, !isShownOn(display)));
          return (
            <ToggleRow
              key={feature}
              feature={feature}
              display={display}
              isDisabled={sendingFeature === feature || isMoveRefused}
              onChange={(enable) => handleChange(feature, enable)}
            />
          );
        })}
      </List>
      <Box sx={{ p: 1 }}>
        <ScheduleCommandButton
          customerId={customerId}
          availability={device.availability}
          facts={facts}
          group="controls"
        />
      </Box>
      <ControlArgsDialog
        feature={dialogFeature}
        facts={facts}
        isBusy={sendState.isLoading}
        onSubmit={handleDialog}
        onClose={() => setDialogFeature(null)}
      />
    </Card>
  );
};
