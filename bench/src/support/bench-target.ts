/**
 * The device-channel benchmarks' server side, one shape for both deployments (design §7): the
 * embedded server in this process (PGlite, embedded broker: startEmbeddedTarget) or two server
 * processes on PostgreSQL and Mosquitto (scale-out.ts). bulk-lock.ts and command-latency.ts run the
 * same measurement against either.
 */
import type { Db } from '@kisht/server/db/client';
import { DEMO_ORG_ID } from '@kisht/server/db/seed/seed';
import type { StatementCounter } from '@kisht/server/db/statement-counter';
import type { DeviceBus } from '@kisht/server/device-channel/bus';
import type { TSigningKey } from '@kisht/server/modules/devices/server-keys.service';
import type { TSimulatedDevice } from '../bulk-lock-devices';
import {
  embeddedPhoneTarget,
  instrumentRecorder,
  loginDemoRetailer,
  startBenchServer,
  type TPhoneTarget,
} from './bench-server';

/** What the server recorded of device events while measured (embedded only). */
export type TRecording = { batches: number; events: number; largest: number; busyMs: number };

export type TBenchTarget = {
  mode: 'embedded' | 'scale-out';
  /** The database the server processes use (the bench seeds and reads it). */
  db: Db;
  /** The enrolled customers' phones, in seeding order. */
  simulated: TSimulatedDevice[];
  /** How long seeding the data took, ms. */
  seededMs: number;
  /** Base URLs of the server processes (one embedded, two in scale-out); changes after resumeServer. */
  bases: () => string[];
  /** Where the phones connect and whom they trust. */
  phoneTarget: TPhoneTarget;
  /** The external broker's URL whose persistent sessions the phones leave behind; null embedded. */
  externalBrokerUrl: string | null;
  /** The demo organisation's signing key, for the baseline's policies. */
  signingKey: TSigningKey;
  /** The broker as the bench sees it: raw QoS 1 publishes and every device event. */
  bus: Pick<DeviceBus, 'publish' | 'subscribeEvents'>;
  /**
   * Stops the server's handling of device events for a raw baseline (embedded: the recorder
   * paused; scale-out: both server processes stopped, so the broker drops their shared
   * subscription's events); resumeServer undoes it (scale-out: two fresh processes).
   */
  pauseServer: () => Promise<void>;
  resumeServer: () => Promise<void>;
  /** Logs the demo retailer in by OTP; answers the session token (valid on every process). */
  login: () => Promise<string>;
  /** The recorder's counters (embedded), or null where the server runs in another process. */
  recording: TRecording | null;
  resetRecording: () => void;
  /** MQTT clients on the broker, or null where the bench cannot see it (Mosquitto). */
  mqttClients: () => number | null;
  /** Peak resident memory of the server process(es), as text (MiB). */
  serverMemory: () => Promise<string>;
  /** The embedded server's statement counter (for --sql-stats), or null. */
  statements: StatementCounter | null;
  close: () => Promise<void>;
};

/** The embedded server in this process (startBenchServer) with `phones` enrolled customers. */
export const startEmbeddedTarget = async (phones: number): Promise<TBenchTarget> => {
  const server = await startBenchServer(phones);
  const recorder = instrumentRecorder(server);
  return {
    mode: 'embedded',
    db: server.db,
    simulated: server.simulated,
    seededMs: server.seededMs,
    bases: () => [server.base],
    phoneTarget: await embeddedPhoneTarget(server),
    externalBrokerUrl: null,
    signingKey: await server.app.ctx.dispatcher.serverKeys.forOrg(DEMO_ORG_ID),
    bus: server.broker,
    pauseServer: async () => recorder.pause(),
    resumeServer: async () => recorder.resume(),
    login: () => loginDemoRetailer(server),
    recording: recorder.recording,
    resetRecording: recorder.reset,
    mqttClients: () => server.broker.connectedClients(),
    serverMemory: async () => `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
    statements: server.app.statements,
    close: () => server.app.close(),
  };
};
