import { randomBytes, randomUUID } from 'node:crypto';
import mqtt from 'mqtt';

/** How long one probe connect may take before it counts as refused (a silent broker), ms. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Whether the broker at `url` takes a connect with these credentials (none: anonymous). Resolves
 * true on a CONNACK that accepts it; false when the broker refuses it, closes the connection, or
 * says nothing within PROBE_TIMEOUT_MS. Never retries; always closes what it opened.
 */
const isAccepted = async (url: string, credentials?: { username: string; password: string }) => {
  const client = mqtt.connect(url, {
    clientId: credentials?.username ?? `kisht-probe-${randomUUID()}`,
    ...(credentials ?? {}),
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: PROBE_TIMEOUT_MS,
  });
  try {
    return await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS + 500);
      const settle = (accepted: boolean) => {
        clearTimeout(timer);
        resolve(accepted);
      };
      client.once('connect', () => settle(true));
      client.once('error', () => settle(false));
      client.once('close', () => settle(false));
    });
  } finally {
    client.end(true);
  }
};

/**
 * Checks that a broker the server was told authenticates devices itself (MQTT_BROKER_AUTH=external)
 * really does (issue 27): an anonymous connect, and a connect as a device that does not exist
 * (a random id and secret), must both be refused. Returns what it found open (empty when both were
 * refused). A broker that lets either in lets anyone read every phone's commands and forge acks.
 */
export const probeBrokerLockdown = async (url: string): Promise<string[]> => {
  const unknownDevice = randomUUID();
  const [anonymous, stranger] = await Promise.all([
    isAccepted(url),
    isAccepted(url, { username: unknownDevice, password: randomBytes(24).toString('base64url') }),
  ]);
  return [
    ...(anonymous ? ['it accepts an anonymous connect'] : []),
    ...(stranger ? ['it accepts a device id and secret Kisht never issued'] : []),
  ];
};
