import type { TDeviceChannel } from '@kisht/domain/devices/device-families';
import type { TServerMessage } from '@kisht/domain/devices/protocol.schema';
import type { CommandRow } from './commands.repository';
import type { DeviceRow } from './devices.repository';

/**
 * A device family reached through an MDM service instead of Kisht's own device channel (issue 15):
 * Apple through NanoMDM, managed Android through Google's Android Management API. The outbox hands
 * it the same messages an MQTT phone would get (unsigned: the service, not the phone, reads them);
 * the bridge turns them into the service's commands and reports the service's answers back as
 * device events (acks, reported state) through the DeviceEventRecorder, so commands move through
 * the same states and the history shows them alike.
 */
export type TDeviceBridge = {
  /**
   * The text of the enrolment QR for a phone of this channel carrying the one-time enrolment
   * `token` (the Apple enrolment profile's URL; the Android Management API's enrolment QR), and
   * the APK location when there is one. Throws AppError (503 MDM_UNAVAILABLE) when the service
   * cannot be reached; the caller's transaction then writes nothing.
   */
  enrolmentQr: (options: {
    device: DeviceRow;
    token: string;
    expiresAt: Date;
    baseUrl: string;
  }) => Promise<{ payload: string; apkUrl?: string }>;
  /**
   * Carries the server's messages for one enrolled phone of this channel: a policy (also the policy
   * of a sync) becomes the service's commands for what it changes, a command message the one-shot
   * command. Throws when the service cannot be reached or refuses; the outbox logs it and the
   * re-send of unacknowledged commands tries again.
   */
  deliver: (device: DeviceRow, messages: TServerMessage[]) => Promise<void>;
  /**
   * A one-shot command was cancelled after it went out. MDM services cannot take a queued command
   * back; a bridge does what it can (nothing, or a command that undoes it) and never throws.
   */
  cancel?: (command: CommandRow) => Promise<void>;
  /**
   * Makes up for what the service lost (NanoMDM posts each webhook once, issue 27); the job
   * `device service reconciliation` runs it every few minutes with the time `now`. Returns the ids
   * of the devices whose pending messages are to be delivered again. A failure for one device is
   * logged, not thrown.
   */
  reconcile?: (now: Date) => Promise<string[]>;
  /**
   * Releases a phone of this channel that a re-enrolment took out (issue 27), by its former MDM id
   * (`device` as it was before the re-enrolment), outside Kisht's command rows: the service lets
   * it go unrestricted when it next checks in, and nothing it does touches the phone that enrols
   * next. Throws when the service cannot be reached or refuses.
   */
  retire?: (device: DeviceRow) => Promise<void>;
};

/** The bridges by channel; `mqtt` phones are reached directly and never have one. */
export type TDeviceBridges = Partial<Record<Exclude<TDeviceChannel, 'mqtt'>, TDeviceBridge>>;
