import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TSimSlot } from '@kisht/domain/devices/protocol.schema';
import { DeviceAgent, type TAgentOptions } from '../agent';
import { createAgentState, writeStateFile } from '../state';
import type { TConformanceCredentials, TDeviceAdapter } from './checks';

/** The conformance adapter of the reference DeviceAgent, with access to the agent for tests. */
export type TDeviceAgentAdapter = TDeviceAdapter & {
  /** The agent now running (or last run), undefined before start(). */
  readonly agent: DeviceAgent | undefined;
  /** Where the agent keeps its state file. */
  readonly statePath: string | undefined;
  /** Stops the agent and deletes its state directory if the adapter created it. */
  dispose: () => Promise<void>;
};

/** The IMEIs the adapter's phone has (valid Luhn check digits). */
const IMEI_1 = '490154203237518';
const IMEI_2 = '356938035643809';

/**
 * Drives the reference DeviceAgent for runConformanceChecks: start(credentials) writes a fresh
 * state file for them (in `dir`, or a new temporary directory) and starts an agent, or, with `qr`,
 * enrols through the enrol endpoint that QR names (DeviceAgent.enrol) as a real phone would;
 * restart() loads a new agent from that file, as a rebooted phone would; setSims(),
 * offlineChallenge(), enterOfflineCode() and lockScreen() act on the current agent, running or
 * stopped.
 * `trackingIntervalMs` and `offlineLockAfterMs` are passed to every agent (DeviceAgent options).
 */
export const createDeviceAgentAdapter = (
  options: TAgentOptions & { dir?: string; qr?: string } = {},
): TDeviceAgentAdapter => {
  let agent: DeviceAgent | undefined;
  let statePath: string | undefined;
  let createdDir: string | undefined;
  const agentOptions: TAgentOptions = {
    trackingIntervalMs: options.trackingIntervalMs,
    offlineLockAfterMs: options.offlineLockAfterMs,
  };

  const startFromFile = async () => {
    await agent?.stop();
    agent = await DeviceAgent.load({ statePath, ...agentOptions });
    await agent.start();
  };

  return {
    get agent() {
      return agent;
    },
    get statePath() {
      return statePath;
    },
    start: async (credentials: TConformanceCredentials) => {
      if (!options.dir && !createdDir) createdDir = await mkdtemp(join(tmpdir(), 'kisht-conformance-'));
      const dir = options.dir ?? createdDir!;
      statePath = join(dir, `${credentials.deviceId}.json`);
      if (options.qr) {
        await agent?.stop();
        agent = await DeviceAgent.enrol({
          ...agentOptions,
          qr: options.qr,
          imei1: IMEI_1,
          imei2: IMEI_2,
          statePath,
          canOverwrite: true,
        });
        await agent.start();
        return;
      }
      await writeStateFile(
        statePath,
        createAgentState({
          ...credentials,
          serverUrl: 'http://127.0.0.1',
          imei1: IMEI_1,
          imei2: IMEI_2,
          enrolledAt: new Date().toISOString(),
        }),
      );
      await startFromFile();
    },
    stop: async () => {
      await agent?.stop();
    },
    restart: startFromFile,
    setSims: async (sims: TSimSlot[]) => {
      if (!agent) throw new Error('setSims before start()');
      await agent.setSims(sims);
    },
    offlineChallenge: async () => {
      if (!agent) throw new Error('offlineChallenge before start()');
      return agent.offlineChallenge;
    },
    enterOfflineCode: async (code, action) => {
      if (!agent) throw new Error('enterOfflineCode before start()');
      return (await agent.enterOfflineCode(code, action)).result;
    },
    checkDevicePin: async (pin) => {
      if (!agent) throw new Error('checkDevicePin before start()');
      return agent.checkDevicePin(pin);
    },
    lockScreen: async () => {
      if (!agent) throw new Error('lockScreen before start()');
      const shown = agent.lockScreen;
      return shown
        ? { text: shown.lines.join('\n'), isEmergencyCallAllowed: shown.emergencyCalls === 'allowed' }
        : null;
    },
    dispose: async () => {
      await agent?.stop();
      if (createdDir) await rm(createdDir, { recursive: true, force: true });
    },
  };
};
