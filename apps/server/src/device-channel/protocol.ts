import {
  cmdTopic,
  PROTOCOL_VERSION,
  type TCommandMessage,
  type TDeviceEvent,
  ZDeviceEvent,
} from '@kisht/domain/devices/protocol.schema';
import type { CommandRow } from '../modules/devices/devices.repository';

/** The MQTT message for a command row (design §5): the row id is the message id. */
export const commandMessage = (command: CommandRow): { topic: string; payload: string } => {
  const message: TCommandMessage = {
    v: PROTOCOL_VERSION,
    id: command.id,
    name: command.name,
    args: command.args,
    issuedAt: command.createdAt.toISOString(),
  };
  return { topic: cmdTopic(command.deviceId), payload: JSON.stringify(message) };
};

/** Parses a device event; returns null (and the reason) for anything malformed. */
export const parseDeviceEvent = (payload: Buffer): { event: TDeviceEvent } | { error: string } => {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { error: 'not JSON' };
  }
  const result = ZDeviceEvent.safeParse(json);
  return result.success
    ? { event: result.data }
    : { error: result.error.issues.map((i) => i.path.join('.')).join(', ') };
};
