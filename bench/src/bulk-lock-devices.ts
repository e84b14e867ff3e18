/**
 * Child process of the bulk-lock benchmark (bulk-lock.ts): N simulated phones, each a real
 * DeviceAgent from @kisht/device-agent (persistent MQTT session over WebSocket to the embedded
 * broker, or over TCP to Mosquitto in the scale-out mode, hello on every
 * connect, received + done acks carrying the state, apply-once by command id, state saved to its
 * file before the done ack). They run in their own process so that they use their own core and
 * file descriptors, as phones would, and not the server's. Driven over IPC by the parent.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DeviceAgent } from '@kisht/device-agent/agent';
import { createAgentState, writeStateFile } from '@kisht/device-agent/state';
import { cmdTopic, evtTopic, type TServerKey } from '@kisht/domain/devices/protocol.schema';
import mqtt from 'mqtt';

/** What the parent knows about one enrolled device: enough to build its state file. */
export type TSimulatedDevice = { deviceId: string; secret: string; imei1: string; imei2: string };

export type TParentMessage =
  | {
      type: 'prepare';
      serverUrl: string;
      mqttUrl: string;
      stateDir: string;
      devices: TSimulatedDevice[];
      /** The organisation's server key, as enrolment hands it to a phone (device protocol §5). */
      serverKey: TServerKey;
    }
  | { type: 'connect'; concurrency: number; timeoutMs: number }
  /**
   * The connect baseline: every phone's MQTT connection alone, with its own credentials (the
   * broker's check included), `concurrency` at a time, no hello and no subscription; once all are
   * open they are closed again, with a clean session so that nothing of them stays at the broker,
   * and only then answered: no phone's own connect may meet the open connection of its client id.
   */
  | { type: 'rawConnect'; concurrency: number; timeoutMs: number }
  /**
   * Waits until every phone is connected and has the sync answering its hello (device protocol
   * §6), up to `timeoutMs`. Until then a phone holds every message it is sent; a hello it says again while the
   * server's event handling is paused (the baseline) is never answered, and it would hold the
   * baseline's policies for good.
   */
  | { type: 'sync'; timeoutMs: number }
  /** How many phones wait for a sync, and what they refused: where a phase waits on them. */
  | { type: 'status' }
  | {
      type: 'stop';
      /**
       * An external broker (Mosquitto) keeps each phone's persistent session after the run: when
       * set, every phone's session there is ended with a clean-session connect under its client id.
       */
      cleanSessionsAt?: string;
    };

export type TChildMessage =
  | { type: 'prepared' }
  | { type: 'connected'; failures: string[] }
  | {
      type: 'rawConnected';
      failures: string[];
      /** From the rawConnect message until every connection was open (or failed), ms; closing not included. */
      openMs: number;
    }
  | { type: 'synced'; unsynced: string[] }
  | {
      type: 'status';
      /**
       * Phones without the sync answering their current connection's hello: still connecting, or
       * connected and waiting for it (they hold what they are sent).
       */
      unsynced: number;
      /** Reconnect attempts of all phones since they started. */
      reconnects: number;
      /** Messages the phones refused (e.g. a sync for an earlier hello). */
      invalidMessages: number;
    }
  | {
      type: 'stopped';
      /** Command outcomes over every agent: done, failed, duplicate. */
      outcomes: Record<string, number>;
      warnings: number;
      firstWarning: string | null;
      /** Peak resident memory of this process, in KiB. */
      maxRssKiB: number;
    };

const agents: DeviceAgent[] = [];
/** The phones and broker of `prepare`, for the connect baseline. */
let prepared: { devices: TSimulatedDevice[]; mqttUrl: string } | undefined;
const outcomes: Record<string, number> = { done: 0, failed: 0, duplicate: 0 };
let warnings = 0;
let firstWarning: string | null = null;
/**
 * Phones without the sync answering their current connection's hello: every phone until its
 * first sync, and again from each (re)connect until that connection's sync.
 */
const unsynced = new Set<DeviceAgent>();
let reconnects = 0;
let invalidMessages = 0;

const send = (message: TChildMessage) =>
  new Promise<void>((resolve, reject) =>
    process.send!(message, undefined, undefined, (error) => (error ? reject(error) : resolve())),
  );

const warn = (text: string) => {
  warnings += 1;
  firstWarning ??= text;
};

/** Writes every state file (as enrolment would) and loads the agents, not yet started. */
const prepare = async (message: Extract<TParentMessage, { type: 'prepare' }>) => {
  prepared = { devices: message.devices, mqttUrl: message.mqttUrl };
  const enrolledAt = new Date().toISOString();
  for (let i = 0; i < message.devices.length; i += 200) {
    const chunk = message.devices.slice(i, i + 200);
    const loaded = await Promise.all(
      chunk.map(async (device) => {
        // Named by device: the phone processes of one run share the directory.
        const statePath = join(message.stateDir, `device-${device.deviceId}.json`);
        await writeStateFile(
          statePath,
          createAgentState({
            deviceId: device.deviceId,
            deviceSecret: device.secret,
            mqttUrl: message.mqttUrl,
            cmdTopic: cmdTopic(device.deviceId),
            evtTopic: evtTopic(device.deviceId),
            serverUrl: message.serverUrl,
            imei1: device.imei1,
            imei2: device.imei2,
            enrolledAt,
            serverKey: message.serverKey,
          }),
        );
        return DeviceAgent.load({ statePath });
      }),
    );
    agents.push(...loaded);
  }
  for (const agent of agents) {
    agent.on('command', (outcome) => {
      outcomes[outcome.result] = (outcomes[outcome.result] ?? 0) + 1;
    });
    agent.on('warning', (error) => warn(`${agent.deviceId}: ${error.message}`));
    agent.on('invalidMessage', ({ reason }) => {
      invalidMessages += 1;
      warn(`${agent.deviceId}: invalid message: ${reason}`);
    });
    unsynced.add(agent);
    agent.on('connected', () => unsynced.add(agent));
    agent.on('synced', () => unsynced.delete(agent));
    agent.on('reconnecting', () => {
      reconnects += 1;
    });
    agent.on('refused', (error) => warn(error.message));
  }
  await send({ type: 'prepared' });
};

/** Starts every agent, `concurrency` at a time; answers once each has said hello (or failed). */
const connectAll = async ({ concurrency, timeoutMs }: Extract<TParentMessage, { type: 'connect' }>) => {
  const failures: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < agents.length) {
      const agent = agents[next]!;
      next += 1;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          agent.start(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no hello within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
      } catch (error) {
        failures.push(`${agent.deviceId}: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, agents.length) }, lane));
  await send({ type: 'connected', failures });
};

/** The connect baseline (TParentMessage rawConnect): plain MQTT connections, then closed. */
const rawConnectAll = async ({ concurrency, timeoutMs }: Extract<TParentMessage, { type: 'rawConnect' }>) => {
  const { devices, mqttUrl } = prepared!;
  const start = performance.now();
  const failures: string[] = [];
  const clients: mqtt.MqttClient[] = [];
  let next = 0;
  const lane = async () => {
    while (next < devices.length) {
      const device = devices[next]!;
      next += 1;
      try {
        clients.push(
          await mqtt.connectAsync(
            mqttUrl,
            {
              clientId: device.deviceId,
              username: device.deviceId,
              password: device.secret,
              protocolVersion: 4,
              clean: true,
              reconnectPeriod: 0,
              connectTimeout: timeoutMs,
            },
            false,
          ),
        );
      } catch (error) {
        failures.push(`${device.deviceId}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, devices.length) }, lane));
  const openMs = performance.now() - start;
  await Promise.all(clients.map((client) => client.endAsync().catch(() => undefined)));
  await send({ type: 'rawConnected', failures, openMs });
};

/**
 * Answers once every phone has its sync (a phone that failed to connect in time counts too: it
 * goes on trying), or after `timeoutMs` with those that have not.
 */
const syncAll = async ({ timeoutMs }: Extract<TParentMessage, { type: 'sync' }>) => {
  const deadline = Date.now() + timeoutMs;
  while (unsynced.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await send({ type: 'synced', unsynced: [...unsynced].map((agent) => agent.deviceId) });
};

/** Ends each phone's persistent session on `url` (clientId = deviceId, clean session), 50 at a time. */
const cleanSessions = async (url: string) => {
  let next = 0;
  const lane = async () => {
    while (next < agents.length) {
      const clientId = agents[next]!.deviceId;
      next += 1;
      const client = await mqtt
        .connectAsync(url, { clientId, clean: true, reconnectPeriod: 0, connectTimeout: 10_000 }, false)
        .catch((error: Error) => warn(`cleaning the session of ${clientId}: ${error.message}`));
      await client?.endAsync();
    }
  };
  await Promise.all(Array.from({ length: Math.min(50, agents.length) }, lane));
};

const stopAll = async ({ cleanSessionsAt }: Extract<TParentMessage, { type: 'stop' }>) => {
  await Promise.all(agents.map((agent) => agent.stop().catch((error: Error) => warn(error.message))));
  if (cleanSessionsAt) await cleanSessions(cleanSessionsAt);
  await send({
    type: 'stopped',
    outcomes,
    warnings,
    firstWarning,
    maxRssKiB: process.resourceUsage().maxRSS,
  });
  process.disconnect();
};

process.on('message', (message: TParentMessage) => {
  const task =
    message.type === 'prepare'
      ? prepare(message)
      : message.type === 'connect'
        ? connectAll(message)
        : message.type === 'rawConnect'
          ? rawConnectAll(message)
          : message.type === 'sync'
            ? syncAll(message)
            : message.type === 'status'
              ? send({ type: 'status', unsynced: unsynced.size, reconnects, invalidMessages })
              : stopAll(message);
  task.catch((error: unknown) => {
    console.error('simulated devices failed:', error);
    process.exit(1);
  });
});
// The parent went away (crashed or was killed): do not linger.
process.on('disconnect', () => process.exit(0));
