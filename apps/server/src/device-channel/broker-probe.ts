import { randomBytes, randomUUID } from 'node:crypto';
import { cmdTopic } from '@kisht/domain/devices/protocol.schema';
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
 * What the broker does when the phone with these credentials asks for another device's command
 * topic: `refused` (a SUBACK failure code, or the connection closed), `granted`, or `no-connect`
 * when the phone itself is not let in. Never retries; always closes what it opened.
 */
const subscribeElsewhere = async (
  url: string,
  device: { id: string; secret: string },
): Promise<'refused' | 'granted' | 'no-connect'> => {
  const client = mqtt.connect(url, {
    clientId: device.id,
    username: device.id,
    password: device.secret,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: PROBE_TIMEOUT_MS,
  });
  try {
    return await new Promise((resolve) => {
      let isConnected = false;
      const timer = setTimeout(() => resolve(isConnected ? 'refused' : 'no-connect'), PROBE_TIMEOUT_MS + 500);
      const settle = (outcome: 'refused' | 'granted' | 'no-connect') => {
        clearTimeout(timer);
        resolve(outcome);
      };
      client.once('connect', () => {
        isConnected = true;
        client.subscribe(cmdTopic(randomUUID()), { qos: 1 }, (error, granted) => {
          // MQTT 3.1.1 SUBACK 0x80 and MQTT 5 reason codes ≥ 0x80 are refusals.
          const isGranted =
            !error && (granted ?? []).length > 0 && (granted ?? []).every((g) => g.qos < 0x80);
          settle(isGranted ? 'granted' : 'refused');
        });
      });
      client.once('error', () => settle(isConnected ? 'refused' : 'no-connect'));
      client.once('close', () => settle(isConnected ? 'refused' : 'no-connect'));
    });
  } finally {
    client.end(true);
  }
};

/**
 * Checks that a broker the server was told authenticates devices itself (MQTT_BROKER_AUTH=external)
 * really does (issue 27): an anonymous connect, and a connect as a device that does not exist
 * (a random id and secret), must both be refused; and a real phone (`probeDevice`, config
 * MQTT_PROBE_DEVICE_*) must be let in but refused another device's command topic. Returns what it
 * found wrong (empty when all is as it should be). A broker that lets anyone in, or lets one phone
 * read another's commands, lets anyone read every phone's commands and forge acks.
 */
export const probeBrokerLockdown = async (
  url: string,
  probeDevice?: { id: string; secret: string },
): Promise<string[]> => {
  const unknownDevice = randomUUID();
  const [anonymous, stranger, elsewhere] = await Promise.all([
    isAccepted(url),
    isAccepted(url, { username: unknownDevice, password: randomBytes(24).toString('base64url') }),
    probeDevice ? subscribeElsewhere(url, probeDevice) : Promise.resolve(undefined),
  ]);
  return [
    ...(anonymous ? ['it accepts an anonymous connect'] : []),
    ...(stranger ? ['it accepts a device id and secret Kisht never issued'] : []),
    ...(elsewhere === 'granted' ? ["it lets a phone subscribe to another device's command topic"] : []),
    ...(elsewhere === 'no-connect'
      ? [
          'it refuses the probe phone (MQTT_PROBE_DEVICE_ID and MQTT_PROBE_DEVICE_SECRET), so its topic rules cannot be checked',
        ]
      : []),
  ];
};
