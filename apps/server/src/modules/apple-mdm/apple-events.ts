import {
  evtTopic,
  PROTOCOL_VERSION,
  type TAckEvent,
  type TAppliedEvent,
  type TReportedState,
  type TSimSlot,
} from '@kisht/domain/devices/protocol.schema';
import type { PlistValue } from 'plist';
import type { devices } from '../../db/schema';

type DeviceRow = typeof devices.$inferSelect;

/** Where a bridge reports what the phone did: the DeviceEventRecorder's entry point (app.ts). */
export type TDeviceEventSink = { handleEvent: (topic: string, payload: Buffer) => Promise<void> };

/**
 * The reported state of an Apple device after a change the phone confirmed: what Kisht last
 * recorded, with `change` on top (controls merge; a feature left out keeps its state).
 */
export const reportedStateOf = (
  device: DeviceRow,
  change: {
    isLocked?: boolean;
    controls?: Record<string, boolean>;
    sims?: TSimSlot[];
    policyVersion?: number;
  },
): TReportedState => ({
  isLocked: change.isLocked ?? device.reportedLocked,
  controls: { ...device.reportedControls, ...change.controls },
  ...(change.sims ? { sims: change.sims } : {}),
  ...(change.policyVersion === undefined ? {} : { policyVersion: change.policyVersion }),
});

/**
 * Feeds an ack of device command `commandId` into the recorder, as an MQTT phone would send it
 * (device protocol §4), so the command moves through the same states; resolves once recorded.
 */
export const reportAck = (
  sink: TDeviceEventSink,
  device: DeviceRow,
  ack: Pick<TAckEvent, 'commandId' | 'status' | 'error' | 'result' | 'state'>,
): Promise<void> => {
  const event: TAckEvent = {
    v: PROTOCOL_VERSION,
    type: 'ack',
    ...ack,
    at: new Date().toISOString(),
  };
  return sink.handleEvent(evtTopic(device.id), Buffer.from(JSON.stringify(event)));
};

/** Feeds an `applied` event (a policy step without a command of its own, e.g. a lost mode released). */
export const reportApplied = (
  sink: TDeviceEventSink,
  device: DeviceRow,
  version: number,
  state: TReportedState,
): Promise<void> => {
  const event: TAppliedEvent = {
    v: PROTOCOL_VERSION,
    type: 'applied',
    version,
    state: { ...state, policyVersion: version },
    at: new Date().toISOString(),
  };
  return sink.handleEvent(evtTopic(device.id), Buffer.from(JSON.stringify(event)));
};

/** A plist value as JSON: dates as ISO 8601 text, data as base64. */
export const plistToJson = (value: PlistValue): unknown => {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(plistToJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plistToJson(v)]));
  }
  return value;
};

/**
 * SIM slots from DeviceInformation's ServiceSubscriptions (iOS 12+): one per subscription in
 * order, its ICCID (digits only, else null) and carrier network name.
 */
export const simsOf = (subscriptions: unknown): TSimSlot[] | undefined => {
  if (!Array.isArray(subscriptions)) return undefined;
  return subscriptions.slice(0, 4).map((raw, index) => {
    const s = (raw ?? {}) as Record<string, unknown>;
    const iccid = typeof s.ICCID === 'string' ? s.ICCID.replace(/\s/g, '') : '';
    const operator = typeof s.CurrentCarrierNetwork === 'string' ? s.CurrentCarrierNetwork : null;
    return {
      slot: index + 1,
      iccid: /^\d{18,22}$/.test(iccid) ? iccid : null,
      operator: operator ? operator.slice(0, 60) : null,
    };
  });
};
