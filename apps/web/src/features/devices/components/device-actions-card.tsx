import type { TControlFeature } from '@kisht/domain/common/enums';
import { CustomerStatus } from '@kisht/domain/common/enums';
import { commandSpecByName } from '@kisht/domain/devices/command-catalogue';
import { commandOfferFor, type TCommandFacts } from '@kisht/domain/devices/command-rules';
import { canChangeDevicePin } from '@kisht/domain/devices/device-pin';
import type { TCommandHistoryItem, TDeviceSummary } from '@kisht/domain/devices/devices.schema';
import type { TLocationFix, TSimSlot } from '@kisht/domain/devices/protocol.schema';
import { canShowMessages } from '@kisht/domain/messages/messages.schema';
import MapIcon from '@mui/icons-material/Map';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDateTime } from '../../../lib/format';
import { useUserAccess } from '../../../lib/http/access-api';
import { useSendDeviceControlMutation, useUnclaimDeviceMutation } from '../device-api';
import type { TDestructiveAction } from '../device-controls';
import {
  actionFeaturesOf,
  controlOfferOf,
  isDestructiveAction,
  isRefused,
  mapLinkOf,
  noCommandRefusalOf,
  offeredScheduleOptionsOf,
  pendingByFeature,
} from '../device-controls';
import { ChangePinDialog } from './change-pin-dialog';
import { refusalKeyOf } from './lock-reason-picker';
import { ScheduleCommandButton } from './schedule-command-dialog';
import { SendMessageButton } from './send-message-button';
import { UninstallDialog } from './uninstall-dialog';

/** The phone's newest location fix, with a map link when it has coordinates. */
const LocationPanel = ({ location }: { location: TLocationFix | null }) => {
  const { t } = useTranslation();
  if (!location) {
    return (
      <Typography variant="body2" color="textSecondary" data-testid="device-location">
        {t('deviceActions.location.none')}
      </Typography>
    );
  }
  const mapLink = mapLinkOf(location);
  return (
    <Stack spacing={0.5} data-testid="device-location">
      {mapLink ? (
        <Typography variant="body1" data-testid="device-location-coordinates">
          {t('deviceActions.location.coordinates', {
            latitude: location.latitude,
            longitude: location.longitude,
          })}
        </Typography>
      ) : (
        <Typography variant="body2" color="textSecondary">
          {t('deviceActions.location.bypassed')}
        </Typography>
      )}
      <Typography variant="caption" color="textSecondary">
        {[
          t('deviceActions.location.at', { time: formatDateTime(location.at) }),
          location.accuracyM === undefined
            ? null
            : t('deviceActions.location.accuracy', { metres: Math.round(location.accuracyM) }),
        ]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
      {mapLink ? (
        <Box>
          <Button
            size="small"
            variant="outlined"
            startIcon={<MapIcon />}
            href={mapLink}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="device-location-map"
          >
            {t('deviceActions.location.openMap')}
          </Button>
        </Box>
      ) : null}
    </Stack>
  );
};

/** The SIM slots the phone last reported. */
const SimsPanel = ({ sims }: { sims: TSimSlot[] | null }) => {
  const { t } = useTranslation();
  if (!sims || sims.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary" data-testid="device-sims">
        {t('deviceActions.sims.none')}
      </Typography>
    );
  }
  return (
    <List dense disablePadding data-testid="device-sims">
      {sims.map((sim) => (
        <ListItem key={sim.slot} disableGutters data-testid={`device-sim-${sim.slot}`}>
          <ListItemText
            primary={`${t('deviceActions.sims.slot', { slot: sim.slot })} · ${
              sim.iccid === null
                ? t('deviceActions.sims.empty')
                : (sim.operator ?? t('deviceActions.sims.unknownOperator'))
            }`}
            secondary={sim.iccid === null ? null : t('deviceActions.sims.iccid', { iccid: sim.iccid })}
          />
        </ListItem>
      ))}
    </List>
  );
};

type TDeviceActionsCardProps = {
  customerId: number;
  /**
   * What the command gate judges the customer by (commandFactsOf): the status (a customer whose
   * EMIs are completed may have their phone released; a released phone takes nothing), the device
   * family (only Android device-owner and managed phones take a new PIN) and what is overdue (the
   * reason a new PIN or a scheduled restriction needs).
   */
  facts: TCommandFacts;
  device: TDeviceSummary;
  /** The phone's command history (newest first), to tell which actions are still on their way. */
  history: TCommandHistoryItem[] | undefined;
};

/**
 * The actions tab of customer_details: the one-shot actions the device's availability offers
 * (spec §6 second action list). Reboot and uninstall anti-theft ask first; uninstall asks for an
 * OTP (purpose UNINSTALL) and goes through paths.devices.uninstall. A customer whose EMIs are
 * completed may have the phone released (unclaim), after a confirmation. "Change phone PIN" sets a
 * new screen-lock PIN after an OTP of purpose BYPASS_CODE (feature access needed). "Schedule for
 * later" sends any of these (and lock, unlock and the toggles) at a picked time. "Send message"
 * shows a text from the shop on the phone (issue 16; feature access, device-channel phones only). Fetch location
 * shows the newest fix with a map link; SIM info shows the reported SIM slots. An action stays busy
 * while its command is on its way (not while it waits for a scheduled time). Issue 25: what the
 * command rules refuse is not offered (a new PIN for a paid-up loan; anything for a released phone,
 * where the card says why).
 */
export const DeviceActionsCard = ({ customerId, facts, device, history }: TDeviceActionsCardProps) => {
  const { t } = useTranslation();
  const [sendControl, sendState] = useSendDeviceControlMutation();
  const [unclaim, unclaimState] = useUnclaimDeviceMutation();
  const [confirming, setConfirming] = useState<TDestructiveAction | null>(null);
  const [isUninstallOpen, setIsUninstallOpen] = useState(false);
  const [isReleaseOpen, setIsReleaseOpen] = useState(false);
  const [isChangePinOpen, setIsChangePinOpen] = useState(false);
  const userAccess = useUserAccess();
  const releasedRefusal = noCommandRefusalOf(facts);
  const actions = actionFeaturesOf(device.availability).filter(
    (feature) => !isRefused(controlOfferOf(facts, feature)),
  );
  const isEnrolled = device.enrolledAt !== null;
  const canRelease = facts.status === CustomerStatus.EMI_COMPLETED;
  // The server refuses change_device_pinV1 without feature access (spec §6 user access), for phone
  // families that cannot take a PIN remotely, and where the command rules refuse a new PIN.
  const canChangePin =
    userAccess.flags.feature_access === '1' &&
    canChangeDevicePin(facts.deviceType) &&
    !isRefused(commandOfferFor(facts, 'change_pin'));
  const canSchedule = offeredScheduleOptionsOf(device.availability, facts).length > 0;
  // send_fcm_retailer_to_customer needs feature access, and a phone on Kisht's own channel (an
  // iPhone or managed-Android phone cannot show a message; the server answers 409 for them).
  const canMessage =
    userAccess.flags.feature_access === '1' &&
    canShowMessages(facts.deviceType) &&
    !isRefused(commandOfferFor(facts, 'show_message'));

  const pending = pendingByFeature(history ?? []);
  const pendingName = device.pendingCommand?.name;
  const pendingSpec = pendingName ? commandSpecByName(pendingName)?.spec : undefined;
  if (pendingSpec) pending.add(pendingSpec.feature);
  const sendingFeature = sendState.isLoading ? sendState.originalArgs?.feature : undefined;

  const run = async (feature: TControlFeature) => {
    const result = await sendControl({ feature, body: { customer_id: customerId } });
    setConfirming(null);
    if (!result.data) return;
    enqueueSnackbar(t('deviceActions.sent', { action: t(`controlFeature.${feature}`) }), { variant: 'info' });
  };

  const release = async () => {
    const result = await unclaim({ customer_id: customerId });
    setIsReleaseOpen(false);
    if (!result.data) return;
    enqueueSnackbar(t('deviceActions.release.sent'), { variant: 'info' });
  };

  const handleClick = (feature: TControlFeature) => {
    // Uninstall is not a plain control command: it needs the user's OTP (spec §4).
    if (feature === 'uninstall') {
      setIsUninstallOpen(true);
      return;
    }
    if (isDestructiveAction(feature)) {
      setConfirming(feature);
      return;
    }
    void run(feature);
  };

  if (releasedRefusal) {
    return (
      <Alert severity="info" data-testid="device-actions-refused">
        {t(refusalKeyOf(releasedRefusal, 'restriction'))}
      </Alert>
    );
  }
  if (!isEnrolled) {
    return (
      <Alert severity="info" data-testid="device-actions-not-enrolled">
        {t('deviceActions.notEnrolled')}
      </Alert>
    );
  }
  if (actions.length === 0 && !canRelease && !canChangePin && !canMessage) {
    return (
      <Alert severity="info" data-testid="device-actions-empty">
        {t('deviceActions.empty')}
      </Alert>
    );
  }
  return (
    <Card data-testid="device-actions">
      <CardContent>
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 1 }}>
          {actions.map((feature) => {
            const isWaiting = pending.has(feature) || sendingFeature === feature;
            return (
              <Button
                key={feature}
                variant="outlined"
                color={isDestructiveAction(feature) ? 'error' : 'primary'}
                loading={isWaiting}
                loadingPosition="start"
                onClick={() => handleClick(feature)}
                data-testid={`action-${feature}`}
                title={isWaiting ? t('deviceActions.waiting') : undefined}
              >
                {t(`controlFeature.${feature}`)}
              </Button>
            );
          })}
          {canMessage ? (
            <SendMessageButton
              customerId={customerId}
              label={t('customerMessage.button')}
              testId="action-send-message"
            />
          ) : null}
          {canChangePin ? (
            <Button
              variant="outlined"
              onClick={() => setIsChangePinOpen(true)}
              data-testid="action-change-pin"
            >
              {t('changePin.button')}
            </Button>
          ) : null}
          {canRelease ? (
            <Button
              variant="outlined"
              color="error"
              onClick={() => setIsReleaseOpen(true)}
              data-testid="action-release"
            >
              {t('deviceActions.release.button')}
            </Button>
          ) : null}
        </Box>
        {canSchedule ? (
          <Box sx={{ mt: 1 }}>
            <ScheduleCommandButton
              customerId={customerId}
              availability={device.availability}
              facts={facts}
              group="actions"
            />
          </Box>
        ) : null}
        {actions.includes('fetch_location') ? (
          <>
            <Divider sx={{ my: 2 }} />
            <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
              {t('deviceActions.location.title')}
            </Typography>
            <LocationPanel location={device.lastLocation} />
          </>
        ) : null}
        {actions.includes('sim_info') ? (
          <>
            <Divider sx={{ my: 2 }} />
            <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
              {t('deviceActions.sims.title')}
            </Typography>
            <SimsPanel sims={device.sims} />
          </>
        ) : null}
      </CardContent>
      <ConfirmDialog
        isOpen={confirming !== null}
        title={confirming ? t(`deviceActions.confirm.${confirming}.title`) : ''}
        body={confirming ? t(`deviceActions.confirm.${confirming}.body`) : ''}
        confirmLabel={confirming ? t(`controlFeature.${confirming}`) : ''}
        confirmColor="error"
        confirmTestId="action-confirm"
        isBusy={sendState.isLoading}
        onConfirm={() => {
          if (confirming) void run(confirming);
        }}
        onClose={() => setConfirming(null)}
      />
      <UninstallDialog
        customerId={customerId}
        isOpen={isUninstallOpen}
        onClose={() => setIsUninstallOpen(false)}
      />
      <ChangePinDialog
        customerId={customerId}
        facts={facts}
        isOpen={isChangePinOpen}
        onClose={() => setIsChangePinOpen(false)}
      />
      <ConfirmDialog
        isOpen={isReleaseOpen}
        title={t('deviceActions.release.title')}
        body={t('deviceActions.release.body')}
        confirmLabel={t('deviceActions.release.button')}
        confirmColor="error"
        confirmTestId="release-confirm"
        isBusy={unclaimState.isLoading}
        onConfirm={() => void release()}
        onClose={() => setIsReleaseOpen(false)}
      />
    </Card>
  );
};
