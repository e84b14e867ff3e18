import { randomUUID } from 'node:crypto';
import { lockScreenLines } from '@kisht/domain/devices/lock-reasons';
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
 * The lock screen text of a DeviceLock (device protocol §9.2 made Apple's way), the same lines the
 * reference phone shows (lock-reasons lockScreenLines): why, by the lock's reason category; whom to
 * call; what is overdue and how to pay only when something is. E.g. "This phone is locked because
 * an EMI is overdue. Call Ravi Mobiles on +919876543210. Overdue: ₹4,500.00 How to pay: UPI
 * ravimobiles@okaxis". iOS keeps emergency calls on every lock screen, so that line is left out.
 */
export const lockScreenMessage = (screen: TLockScreen): string =>
  lockScreenLines(screen).slice(0, -1).join(' ').slice(0, 500);

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

/**
 * The Kisht toggles an iPhone carries out with a Restrictions profile (docs/apple.md), and what
 * each one puts in it: camera_lock → allowCamera false; usb_debugging (usb_on blocks it) →
 * allowHostPairing false (no pairing with a Mac or PC: no Finder/Xcode access, backups or app
 * side-loading over USB: the iPhone's nearest thing to Android's USB debugging); app_lock → the
 * bundle ids in blockedAppBundleIDs (iOS 15+) and blacklistedAppBundleIDs (its iOS 9.3–14 name).
 */
export const RESTRICTION_FEATURES = ['camera_lock', 'usb_debugging', 'app_lock'] as const;

/** The restrictions a phone should hold: each feature on or off, app_lock as its bundle ids (empty: off). */
export type TRestrictions = { camera_lock: boolean; usb_debugging: boolean; app_lock: string[] };

/** Nothing restricted: the phone needs no Restrictions profile. */
export const NO_RESTRICTIONS: TRestrictions = { camera_lock: false, usb_debugging: false, app_lock: [] };

/** True when nothing is restricted (the profile is removed rather than installed). */
export const isUnrestricted = (r: TRestrictions): boolean =>
  !r.camera_lock && !r.usb_debugging && r.app_lock.length === 0;

/** True when both ask the same of the phone (app order and duplicates aside). */
export const isSameRestrictions = (a: TRestrictions, b: TRestrictions): boolean =>
  a.camera_lock === b.camera_lock &&
  a.usb_debugging === b.usb_debugging &&
  JSON.stringify([...new Set(a.app_lock)].sort()) === JSON.stringify([...new Set(b.app_lock)].sort());

/** The reported controls of a phone holding `r`. */
export const controlsOfRestrictions = (r: TRestrictions): Record<string, boolean> => ({
  camera_lock: r.camera_lock,
  usb_debugging: r.usb_debugging,
  app_lock: r.app_lock.length > 0,
});

/**
 * The Restrictions configuration profile (Apple's Configuration Profile Reference, payload
 * `com.apple.applicationaccess`, github.com/apple/device-management
 * mdm/profiles/com.apple.applicationaccess.yaml) holding `r`, as XML plist text. Only restricted
 * keys are written: a key left out keeps Apple's default (allowed). `identifier` is the stable
 * PayloadIdentifier: installing a profile with the same identifier replaces the one on the phone.
 * Supervision: allowCamera works on any iPhone (Apple: "deprecated on unsupervised devices");
 * allowHostPairing and blockedAppBundleIDs only on a supervised one (iOS ignores them otherwise).
 */
export const restrictionsProfile = (identifier: string, r: TRestrictions, organisation?: string): string => {
  const apps = [...new Set(r.app_lock)].sort();
  const restrictions: Record<string, PlistValue> = {
    PayloadType: 'com.apple.applicationaccess',
    PayloadVersion: 1,
    PayloadIdentifier: `${identifier}.applicationaccess`,
    PayloadUUID: randomUUID().toUpperCase(),
    PayloadDisplayName: 'Restrictions',
    ...(r.camera_lock ? { allowCamera: false } : {}),
    ...(r.usb_debugging ? { allowHostPairing: false } : {}),
    ...(apps.length > 0 ? { blockedAppBundleIDs: apps, blacklistedAppBundleIDs: apps } : {}),
  };
  return build({
    PayloadType: 'Configuration',
    PayloadVersion: 1,
    PayloadIdentifier: identifier,
    PayloadUUID: randomUUID().toUpperCase(),
    PayloadDisplayName: 'Phone financing restrictions',
    ...(organisation ? { PayloadOrganization: organisation } : {}),
    PayloadDescription: 'Restrictions set by the retailer who financed this phone while EMIs are due.',
    PayloadContent: [restrictions],
  });
};

/**
 * InstallProfile (profile.install.yaml; iOS 4+, not supervised-only, access right
 * AllowInstallationRemoval): Payload (data, required) is the profile's plist bytes.
 */
export const installProfileCommand = (uuid: string, profile: string): TAppleCommand => ({
  CommandUUID: uuid,
  Command: { RequestType: 'InstallProfile', Payload: Buffer.from(profile, 'utf8') },
});
