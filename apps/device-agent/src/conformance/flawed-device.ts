import { randomUUID } from 'node:crypto';
import { offlineCodeKey, verifyOfflineCode } from '@kisht/domain/devices/offline-code';
import {
  PROTOCOL_VERSION,
  type TAckEvent,
  type TCommandMessage,
  type TPolicyVersion,
  type TServerMessage,
  type TSyncMessage,
  ZServerMessage,
  ZSignedMessage,
} from '@kisht/domain/devices/protocol.schema';
import { openServerMessage, publicKeyOf } from '@kisht/domain/devices/server-message';
import { connect, type MqttClient } from 'mqtt';
import { z } from 'zod';
import type { TConformanceCredentials, TDeviceAdapter } from './checks';

/**
 * A minimal protocol-v2 device written straight on MQTT.js, with one deliberate flaw, to show that
 * the conformance suite catches it (conformance.test.ts, cli.test.ts). Test support only.
 *
 * It verifies signatures (openServerMessage), holds what arrives on a connection until that
 * connection's sync, then applies the newest policy and only the commands the sync lists; applies
 * a policy only when its version is newer (acking each listed command received, then done), and
 * re-acks done for the version it holds; applies a one-shot command once per id, drops it (acked
 * dropped) when cancelled or past notAfter. It keeps only the lock state and policy version: every
 * other command is acked done without doing anything, and it reports no controls.
 */

/**
 * Ways the fake device breaks the protocol: never-acks (no ack at all), double-done (every done
 * acked twice), applies-twice (a one-shot id applied again), forgets-on-restart (lock state,
 * version and ids lost), clean-session (MQTT clean session on), never-burns (keeps its offline
 * challenge), trusts-unsigned (applies unsigned v1 commands), unverified-signatures (takes any
 * envelope's body, signature, key and device unchecked), no-sync-barrier (applies every message
 * as it arrives, a command even if the sync does not list it), accepts-any-sync (ends the hold
 * on a sync for another connection), ignores-cancel, ignores-not-after, applies-old-versions
 * (applies any policy version other than the one it holds), blocks-emergency-calls (shows the
 * policy's lock screen but no emergency call from it).
 */
export type TFlaw =
  | 'never-acks'
  | 'double-done'
  | 'applies-twice'
  | 'forgets-on-restart'
  | 'clean-session'
  | 'never-burns'
  | 'trusts-unsigned'
  | 'unverified-signatures'
  | 'no-sync-barrier'
  | 'accepts-any-sync'
  | 'ignores-cancel'
  | 'ignores-not-after'
  | 'applies-old-versions'
  | 'blocks-emergency-calls';

/** The version-1 command format: unsigned JSON on the cmd topic. */
const ZV1Command = z.object({
  v: z.literal(1),
  id: z.string().uuid(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
});

/** The body of a signed envelope, its signature, key and device left unchecked ('unverified-signatures'). */
const bodyOf = (payload: string): TServerMessage | undefined => {
  try {
    const envelope = ZSignedMessage.safeParse(JSON.parse(payload));
    const message = envelope.success ? ZServerMessage.safeParse(JSON.parse(envelope.data.body)) : undefined;
    return message?.success ? message.data : undefined;
  } catch {
    return undefined;
  }
};

/** The challenge the 'never-burns' device shows for ever. */
const FIXED_CHALLENGE = '424242';

/**
 * The conformance adapter of a flawed device. Only the 'never-burns' device takes offline codes:
 * it checks them properly and reports them, but keeps its challenge for ever.
 */
export const createFlawedDevice = (flaw: TFlaw): TDeviceAdapter => {
  let credentials: TConformanceCredentials | undefined;
  let client: MqttClient | undefined;
  // Durable state (kept across restarts unless the flaw is forgets-on-restart).
  let isLocked = false;
  let policyVersion = 0;
  let lockScreenText = '';
  let applied = new Set<string>();
  let cancelled = new Set<string>();
  // The current connection.
  let connectionId = randomUUID();
  let held: TServerMessage[] | undefined = [];

  const publish = (event: Record<string, unknown>) =>
    client?.publish(
      credentials!.evtTopic,
      JSON.stringify({
        v: PROTOCOL_VERSION,
        ...event,
        state: { isLocked, policyVersion },
        at: new Date().toISOString(),
        connectionId,
      }),
      { qos: 1 },
    );
  const ack = (commandId: string, status: TAckEvent['status']) => {
    if (flaw === 'never-acks') return;
    publish({ type: 'ack', commandId, status });
  };
  const done = (commandId: string) => {
    ack(commandId, 'done');
    if (flaw === 'double-done') ack(commandId, 'done');
  };

  const applyPolicy = (version: TPolicyVersion) => {
    const isNewer =
      flaw === 'applies-old-versions' ? version.version !== policyVersion : version.version > policyVersion;
    if (!isNewer) {
      if (version.version === policyVersion) for (const command of version.commands) done(command.id);
      return;
    }
    for (const command of version.commands) ack(command.id, 'received');
    isLocked = version.policy.locked;
    policyVersion = version.version;
    const screen = version.policy.lockScreen;
    if (screen)
      lockScreenText = [screen.retailerName, screen.retailerPhone, screen.howToPay ?? ''].join('\n');
    for (const command of version.commands) done(command.id);
  };

  const applyCommand = (command: Pick<TCommandMessage, 'id' | 'name'> & { notAfter?: string }) => {
    if (applied.has(command.id) && flaw !== 'applies-twice') {
      done(command.id);
      return;
    }
    if (cancelled.has(command.id)) {
      ack(command.id, 'dropped');
      return;
    }
    if (command.notAfter && Date.now() > Date.parse(command.notAfter) && flaw !== 'ignores-not-after') {
      ack(command.id, 'dropped');
      return;
    }
    ack(command.id, 'received');
    if (command.name === 'lock') isLocked = true;
    if (command.name === 'unlock') isLocked = false;
    applied.add(command.id);
    done(command.id);
  };

  const applyCancel = (id: string) => {
    if (flaw === 'ignores-cancel') return;
    cancelled.add(id);
    if (!applied.has(id)) ack(id, 'dropped');
  };

  const applySync = (sync: TSyncMessage, messages: TServerMessage[]) => {
    let newest = sync.policy;
    for (const message of messages) {
      if (message.type === 'policy' && message.version > newest.version) newest = message;
    }
    applyPolicy(newest);
    for (const message of messages) if (message.type === 'cancel') applyCancel(message.id);
    // The listed commands follow the sync; a held one it does not list is no longer pending.
    for (const message of messages) {
      if (message.type !== 'command' || sync.commandIds.includes(message.id)) continue;
      if (applied.has(message.id)) done(message.id);
      else ack(message.id, 'dropped');
    }
  };

  const verified = (payload: string): TServerMessage | undefined => {
    const key = credentials!.serverKey;
    const opened = openServerMessage(
      payload,
      { kid: key.kid, publicKey: publicKeyOf(key) },
      credentials!.deviceId,
    );
    return 'message' in opened ? opened.message : undefined;
  };

  const onMessage = (payload: string) => {
    if (flaw === 'trusts-unsigned') {
      let json: unknown;
      try {
        json = JSON.parse(payload);
      } catch {
        json = undefined;
      }
      const v1 = ZV1Command.safeParse(json);
      if (v1.success) {
        applyCommand(v1.data);
        return;
      }
    }
    const message = flaw === 'unverified-signatures' ? bodyOf(payload) : verified(payload);
    if (!message) return;
    if (message.type === 'sync') {
      if (message.connectionId !== connectionId && flaw !== 'accepts-any-sync') return;
      if (flaw === 'no-sync-barrier') {
        applyPolicy(message.policy);
        return;
      }
      if (!held) return;
      const messages = held;
      held = undefined;
      applySync(message, messages);
      return;
    }
    if (held && flaw !== 'no-sync-barrier') {
      held.push(message);
      return;
    }
    if (message.type === 'policy') applyPolicy(message);
    else if (message.type === 'cancel') applyCancel(message.id);
    else applyCommand(message);
  };

  const start = () => {
    const { deviceId, deviceSecret, mqttUrl, cmdTopic } = credentials!;
    client = connect(mqttUrl, {
      clientId: deviceId,
      username: deviceId,
      password: deviceSecret,
      clean: flaw === 'clean-session',
      reconnectPeriod: 200,
      resubscribe: false,
    });
    // A new connection at CONNACK, before the messages its session brings: hold until its sync.
    client.on('packetreceive', (packet) => {
      if (packet.cmd !== 'connack') return;
      connectionId = randomUUID();
      held = [];
    });
    client.on('connect', async () => {
      await client?.subscribeAsync(cmdTopic, { qos: 1 });
      publish({ type: 'hello' });
    });
    client.on('message', (_topic, payload) => onMessage(payload.toString()));
  };

  const offlineHooks: Pick<TDeviceAdapter, 'offlineChallenge' | 'enterOfflineCode'> = {
    offlineChallenge: async () => FIXED_CHALLENGE,
    enterOfflineCode: async (code, action) => {
      const isValid = await verifyOfflineCode({
        keyHex: await offlineCodeKey(credentials!.deviceSecret),
        deviceId: credentials!.deviceId,
        challenge: FIXED_CHALLENGE,
        action,
        code,
        nowMs: Date.now(),
      });
      if (!isValid) return 'wrong';
      isLocked = action === 'lock';
      const at = new Date().toISOString();
      publish({
        type: 'report',
        kind: 'offline_lock',
        data: { action, challenge: FIXED_CHALLENGE, at, source: 'offline_code' },
      });
      return 'accepted';
    },
  };

  // Only the 'blocks-emergency-calls' device has a lock screen to show: without emergency calls.
  const lockScreenHook: Pick<TDeviceAdapter, 'lockScreen'> = {
    lockScreen: async () => (isLocked ? { text: lockScreenText, isEmergencyCallAllowed: false } : null),
  };

  return {
    ...(flaw === 'never-burns' ? offlineHooks : {}),
    ...(flaw === 'blocks-emergency-calls' ? lockScreenHook : {}),
    start: async (given) => {
      credentials = given;
      start();
    },
    stop: async () => {
      await client?.endAsync();
      client = undefined;
    },
    restart: async () => {
      if (flaw === 'forgets-on-restart') {
        isLocked = false;
        policyVersion = 0;
        applied = new Set();
        cancelled = new Set();
      }
      start();
    },
  };
};
