import { formatRupees } from '@kisht/domain/common/format';
import type { TLockScreen } from '@kisht/domain/devices/protocol.schema';
import { build, type PlistValue } from 'plist';

/**
 * Apple MDM commands as Kisht sends them through NanoMDM (Apple's Device Management reference,
 * github.com/apple/device-management mdm/commands/*.yaml): a top-level dict of CommandUUID and
 * Command, whose RequestType names the command and whose other keys are exactly that command's
 * keys in Apple's schema. Built as XML plists with the `plist` package.
 */
export type TAppleCommand = {
  CommandUUID: string;
  Command: { RequestType: string } & { [key: string]: PlistValue };
};

/** The XML plist of a command, as NanoMDM's enqueue takes it (and hands to the phone unchanged). */
export const toPlist = (command: TAppleCommand): string => build(command as unknown as PlistValue);

/**
 * The lock screen text of a DeviceLock / EnableLostMode (device protocol §9.2 made Apple's way):
 * whom to pay, what is overdue and how, e.g. "Ravi Mobiles: ₹4,500.00 overdue on your EMI. Pay to
 * ravimobiles@okaxis. Call +919876543210." iOS keeps Emergency calls on every lock screen.
 */
export const lockScreenMessage = (screen: TLockScreen): string =>
  [
    screen.overduePaise > 0
      ? `${screen.retailerName}: ${formatRupees(screen.overduePaise)} overdue on your EMI.`
      : `${screen.retailerName} locked this phone.`,
    screen.howToPay ? `Pay: ${screen.howToPay}.` : null,
    `Call ${screen.retailerPhone}.`,
  ]
    .filter(Boolean)
    .join(' ')
    .slice(0, 500);

/**
 * DeviceLock (device.lock.yaml; iOS 7+, not supervised-only): locks the screen at once with
 * Message and PhoneNumber shown on it. On iOS the owner's passcode opens it again (PIN is macOS
 * only, so it is never sent); emergency calls stay possible.
 */
export const deviceLockCommand = (
  uuid: string,
  screen: { message: string; phone: string },
): TAppleCommand => ({
  CommandUUID: uuid,
  Command: { RequestType: 'DeviceLock', Message: screen.message, PhoneNumber: screen.phone },
});

/**
 * EnableLostMode (device.lostmode.enable.yaml; iOS 9.3+, supervised): the phone stays on a lost
 * mode screen showing Message, PhoneNumber and Footnote (Message or PhoneNumber required) until
 * DisableLostMode.
 */
export const enableLostModeCommand = (
  uuid: string,
  screen: { message: string; phone?: string | undefined; footnote?: string | undefined },
): TAppleCommand => ({
  CommandUUID: uuid,
  Command: {
    RequestType: 'EnableLostMode',
    Message: screen.message,
    ...(screen.phone ? { PhoneNumber: screen.phone } : {}),
    ...(screen.footnote ? { Footnote: screen.footnote } : {}),
  },
});

/** A command without payload keys: DisableLostMode, DeviceLocation, RestartDevice, ActivationLockBypassCode. */
export const bareCommand = (
  uuid: string,
  requestType: 'DisableLostMode' | 'DeviceLocation' | 'RestartDevice' | 'ActivationLockBypassCode',
): TAppleCommand => ({ CommandUUID: uuid, Command: { RequestType: requestType } });

/**
 * What Kisht asks with DeviceInformation (information.device.yaml `Queries`): identity, OS,
 * supervision, lost mode and Activation Lock, battery, and the SIMs (ServiceSubscriptions, iOS 12+).
 */
export const DEVICE_INFORMATION_QUERIES = [
  'UDID',
  'SerialNumber',
  'DeviceName',
  'ModelName',
  'ProductName',
  'OSVersion',
  'BuildVersion',
  'IMEI',
  'ServiceSubscriptions',
  'IsSupervised',
  'IsMDMLostModeEnabled',
  'IsActivationLockEnabled',
  'IsDeviceLocatorServiceEnabled',
  'BatteryLevel',
] as const;

/** DeviceInformation with Queries (array of string, required). */
export const deviceInformationCommand = (
  uuid: string,
  queries: readonly string[] = DEVICE_INFORMATION_QUERIES,
): TAppleCommand => ({
  CommandUUID: uuid,
  Command: { RequestType: 'DeviceInformation', Queries: [...queries] },
});

/**
 * InstallApplication (application.install.yaml): an in-house app by its https ManifestURL, or an
 * App Store app by iTunesStoreID; ManagementFlags 1 removes it with the MDM profile.
 */
export const installApplicationCommand = (
  uuid: string,
  source: { manifestUrl: string } | { iTunesStoreId: number },
): TAppleCommand => ({
  CommandUUID: uuid,
  Command: {
    RequestType: 'InstallApplication',
    ...('manifestUrl' in source
      ? { ManifestURL: source.manifestUrl }
      : { iTunesStoreID: source.iTunesStoreId }),
    ManagementFlags: 1,
  },
});

/**
 * RemoveProfile (profile.remove.yaml) of the enrolment profile itself: the phone leaves MDM (and
 * sends CheckOut, as the profile asks). Kisht's release of an iPhone (unclaim_apple).
 */
export const removeProfileCommand = (uuid: string, identifier: string): TAppleCommand => ({
  CommandUUID: uuid,
  Command: { RequestType: 'RemoveProfile', Identifier: identifier },
});
