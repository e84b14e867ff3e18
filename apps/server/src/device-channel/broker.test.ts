import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cmdTopic, evtTopic } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import mqtt from 'mqtt';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import { SILENT_LOG } from '../test/test-env';
import { createEmbeddedBroker, type EmbeddedBroker } from './broker';

let server: Server | undefined;
let broker: EmbeddedBroker | undefined;
let phone: mqtt.MqttClient | undefined;

afterEach(async () => {
  await phone?.endAsync(true);
  await broker?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('embedded broker', () => {
  it('hands thousands of queued device events to the server without overflowing the stack', async () => {
    broker = await createEmbeddedBroker({
      log: SILENT_LOG,
      authenticateDevice: async () => true,
      onPresence: () => {},
    });
    server = createServer();
    broker.attach(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const deviceId = uuidv7();
    // A phone with a QoS 1 subscription: deliveries to it are asynchronous, so a burst of commands
    // fills the broker's in-flight slots and the device events behind them queue up.
    phone = await mqtt.connectAsync(`ws://127.0.0.1:${(server.address() as AddressInfo).port}${paths.mqtt}`, {
      clientId: deviceId,
      username: deviceId,
      password: 'secret',
      clean: false,
    });
    await phone.subscribeAsync(cmdTopic(deviceId), { qos: 1 });
    let handled = 0;
    await broker.subscribeEvents(async () => {
      handled += 1;
    });
    const EVENTS = 5_000;
    const published: Promise<void>[] = [];
    for (let i = 0; i < 200; i += 1) published.push(broker.publish(cmdTopic(deviceId), '{}'));
    for (let i = 0; i < EVENTS; i += 1) published.push(broker.publish(evtTopic(deviceId), '{}'));
    await Promise.all(published);
    expect(handled).toBe(EVENTS);
  });
});
