import { randomUUID } from 'node:crypto';
import { editPolicy, isPolicyCommand } from '@kisht/domain/devices/device-policy';
import {
  INITIAL_POLICY,
  type TDeviceEvent,
  type TLockScreen,
  type TPolicy,
  type TPolicyVersion,
  type TServerKey,
  type TServerMessage,
} from '@kisht/domain/devices/protocol.schema';
import {
  generateServerKey,
  privateKeyOf,
  signServerMessage,
  type TStoredServerKey,
} from '@kisht/domain/devices/server-message';

/** What the simulator keeps for one device, as the API server keeps it in its tables. */
type TSimulatedDevice = {
  version: number;
  policy: TPolicy;
  issuedAt: string;
  /** Lock/toggle commands the current policy carries, not yet acked final: id → name. */
  policyCommands: Map<string, string>;
  /** One-shot commands sent and not yet acked final, oldest first. */
  commands: Map<string, TServerMessage & { type: 'command' }>;
};

/** How long a simulated one-shot command stays applicable, ms (the server's default, 7 days). */
const SIMULATED_NOT_AFTER_MS = 7 * 86_400_000;

/**
 * The server's side of the device protocol in a few lines, for tests and the conformance suite
 * (device protocol §5–§7): an organisation key, a versioned policy per device that lock/unlock and
 * toggle commands edit, one-shot commands with notAfter, cancels, and a sync answering every
 * hello. It does what the API server does on the wire, without its database; `publish` delivers
 * a payload to the device's cmd topic.
 */
export class ServerSimulator {
  /** The organisation key (public and private halves). */
  readonly key: TStoredServerKey;
  readonly #signing: { kid: string; privateKey: ReturnType<typeof privateKeyOf> };
  readonly #devices = new Map<string, TSimulatedDevice>();
  /** Hellos waiting for their sync while syncs are paused (pauseSyncs), oldest first. */
  #pausedHellos: { deviceId: string; event: TDeviceEvent & { type: 'hello' } }[] | undefined;
  /**
   * The lock screen (device protocol §9.2) every later lock puts in the policy, as the API server
   * puts the retailer, the amount overdue and how to pay in it; null (the default): locks carry none.
   */
  lockScreen: TLockScreen | null = null;

  constructor(private readonly publish: (deviceId: string, payload: string) => Promise<void>) {
    this.key = generateServerKey();
    this.#signing = { kid: this.key.kid, privateKey: privateKeyOf(this.key) };
  }

  /** The public key a device gets at enrolment. */
  get serverKey(): TServerKey {
    return { kid: this.key.kid, publicKey: this.key.publicKey };
  }

  /** The signed payload of `message` (also for tests that replay or tamper with it). */
  sign(message: TServerMessage): string {
    return signServerMessage(this.#signing, message);
  }

  #device(deviceId: string): TSimulatedDevice {
    let device = this.#devices.get(deviceId);
    if (!device) {
      device = {
        version: 0,
        policy: INITIAL_POLICY,
        issuedAt: new Date().toISOString(),
        policyCommands: new Map(),
        commands: new Map(),
      };
      this.#devices.set(deviceId, device);
    }
    return device;
  }

  /** The device's current policy version as it goes out. */
  policyOf(deviceId: string): TPolicyVersion {
    const device = this.#device(deviceId);
    return {
      version: device.version,
      policy: device.policy,
      commands: [...device.policyCommands].map(([id, name]) => ({ id, name })),
      issuedAt: device.issuedAt,
    };
  }

  /**
   * Sends command `name`: a lock/unlock or toggle edits the policy (a new version, carrying the
   * command) and publishes it, except that an id sent before re-publishes the current version; any
   * other command is published as a command message under the current version. Returns the id.
   */
  async send(
    deviceId: string,
    command: { id?: string; name: string; args?: Record<string, unknown>; notAfter?: string },
  ): Promise<string> {
    const device = this.#device(deviceId);
    const id = command.id ?? randomUUID();
    const args = command.args ?? {};
    if (isPolicyCommand(command.name)) {
      if (!device.policyCommands.has(id)) {
        // A newer half of a toggle supersedes a pending other half, as on the server.
        for (const [pendingId, name] of device.policyCommands) {
          if (sameFeature(name, command.name)) device.policyCommands.delete(pendingId);
        }
        device.policy = editPolicy(device.policy, command.name, args);
        if (command.name === 'lock' && this.lockScreen) device.policy.lockScreen = this.lockScreen;
        device.version += 1;
        device.issuedAt = new Date().toISOString();
        device.policyCommands.set(id, command.name);
      }
      await this.publishPolicy(deviceId);
      return id;
    }
    const message: TServerMessage & { type: 'command' } = {
      type: 'command',
      deviceId,
      id,
      name: command.name,
      args,
      issuedAt: new Date().toISOString(),
      notAfter: command.notAfter ?? new Date(Date.now() + SIMULATED_NOT_AFTER_MS).toISOString(),
      policyVersion: device.version,
    };
    device.commands.set(id, message);
    await this.publish(deviceId, this.sign(message));
    return id;
  }

  /**
   * Gives the device's policy the paid-through date `paidThrough` (device protocol §12.5; ISO 8601
   * UTC, null for none) as a new version issued now, and publishes it.
   */
  async setPaidThrough(deviceId: string, paidThrough: string | null): Promise<void> {
    const device = this.#device(deviceId);
    device.policy = { ...device.policy, paidThrough };
    device.version += 1;
    device.issuedAt = new Date().toISOString();
    await this.publishPolicy(deviceId);
  }

  /** Publishes the device's current policy version. */
  async publishPolicy(deviceId: string): Promise<void> {
    await this.publish(deviceId, this.sign({ type: 'policy', deviceId, ...this.policyOf(deviceId) }));
  }

  /**
   * Cancels command `id`: a pending lock/toggle is taken back from the policy (the feature returns
   * to `revertTo`, default the initial policy's) as a new version; a one-shot command gets a cancel.
   */
  async cancel(deviceId: string, id: string, revertTo: TPolicy = INITIAL_POLICY): Promise<void> {
    const device = this.#device(deviceId);
    const name = device.policyCommands.get(id);
    if (name !== undefined) {
      device.policyCommands.delete(id);
      const feature = featureOfName(name);
      device.policy =
        feature === 'lock'
          ? { ...device.policy, locked: revertTo.locked }
          : {
              ...device.policy,
              controls: { ...device.policy.controls, [feature]: revertTo.controls[feature] ?? { on: false } },
            };
      device.version += 1;
      device.issuedAt = new Date().toISOString();
      await this.publishPolicy(deviceId);
      return;
    }
    device.commands.delete(id);
    await this.publish(
      deviceId,
      this.sign({ type: 'cancel', deviceId, id, issuedAt: new Date().toISOString() }),
    );
  }

  /**
   * Takes a device event as the server does: a hello is answered with a sync for its connection
   * (the current policy, then the pending one-shot commands); a final ack ends its command.
   */
  async onEvent(deviceId: string, event: TDeviceEvent): Promise<void> {
    const device = this.#device(deviceId);
    if (event.type === 'ack' && event.status !== 'received') {
      device.policyCommands.delete(event.commandId);
      device.commands.delete(event.commandId);
    }
    if (event.type !== 'hello') return;
    if (this.#pausedHellos) {
      this.#pausedHellos.push({ deviceId, event });
      return;
    }
    await this.#answerHello(deviceId, event);
  }

  /**
   * Stops answering hellos (a slow server): each waits, unanswered, until resumeSyncs. Lets a test
   * watch what a device does with the messages it holds before its sync.
   */
  pauseSyncs(): void {
    this.#pausedHellos ??= [];
  }

  /** Answers the hellos that came while paused, oldest first, with the state now; later ones at once. */
  async resumeSyncs(): Promise<void> {
    const waiting = this.#pausedHellos ?? [];
    this.#pausedHellos = undefined;
    for (const { deviceId, event } of waiting) await this.#answerHello(deviceId, event);
  }

  /** The sync for a hello's connection, then the pending one-shot commands again. */
  async #answerHello(deviceId: string, event: TDeviceEvent & { type: 'hello' }): Promise<void> {
    const device = this.#device(deviceId);
    const pending = [...device.commands.values()];
    await this.publish(
      deviceId,
      this.sign({
        type: 'sync',
        deviceId,
        connectionId: event.connectionId,
        serverTime: new Date().toISOString(),
        policy: this.policyOf(deviceId),
        commandIds: pending.map((command) => command.id),
      }),
    );
    for (const command of pending) await this.publish(deviceId, this.sign(command));
  }
}

/** The catalogue feature of a lock/unlock or toggle command name. */
const featureOfName = (name: string): string => {
  const policy = editPolicy(INITIAL_POLICY, name, {});
  return Object.keys(policy.controls)[0] ?? 'lock';
};

const sameFeature = (a: string, b: string): boolean => featureOfName(a) === featureOfName(b);
