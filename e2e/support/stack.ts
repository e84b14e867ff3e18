import { startFakeMdm } from './fake-mdm';
import { startServer } from './server';

/** One worker's Kisht: its server's URL and the MDM fakes' control API URL; `stop` ends both. */
export type TKishtStack = { baseUrl: string; fakeMdmUrl: string; stop: () => void };

/**
 * Starts the MDM fakes (fake NanoMDM, fake Android Management API, and the messaging fakes beside
 * them) and then one Kisht server pointed at them (its own in-memory database with the demo seed;
 * at the messaging fakes too with `messaging`), and tells the fakes where the server is, for
 * NanoMDM's webhook. Each Playwright worker runs its own (fixtures.ts), so journeys
 * in different workers never share a database, an OTP or a key balance. Logs go to
 * e2e/artifacts/server-<label>.log and fake-mdm-<label>.log.
 */
export const startKishtStack = async (
  label: string,
  options: {
    /** Send SMS and WhatsApp through the fakes' MSG91 and WhatsApp Cloud API (else the server log). */
    messaging?: boolean;
    /** More environment for the server (e.g. JOB_CLOCK). */
    env?: Record<string, string>;
  } = {},
): Promise<TKishtStack> => {
  const fakes = await startFakeMdm(`fake-mdm-${label}.log`);
  const env = { ...fakes.info.env, ...(options.messaging ? fakes.info.messagingEnv : {}), ...options.env };
  const server = await startServer(env, `server-${label}.log`).catch((error: unknown) => {
    fakes.process.kill('SIGTERM');
    throw error;
  });
  const stop = () => {
    server.process.kill('SIGTERM');
    fakes.process.kill('SIGTERM');
  };
  const told = await fetch(`${fakes.info.controlUrl}/control/kisht`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: server.baseUrl }),
  });
  if (!told.ok) {
    stop();
    throw new Error(`the MDM fakes refused the server URL: ${await told.text()}`);
  }
  return { baseUrl: server.baseUrl, fakeMdmUrl: fakes.info.controlUrl, stop };
};
