import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { paths } from '@kisht/domain/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createTestApp, type TestApp } from '../test/harness';

/** Keeps this thread busy for `ms`, as a burst of synchronous database work on PGlite would. */
const blockEventLoop = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('load shedding (issue 12)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '100',
      // The sample is the mean delay of the loop's 10 ms ticks since the last one: the blocked tick
      // (1.5 s) among at most ten others stays well over 100 ms wherever in the window it falls
      // (at 250 ms it could sink to ~60 ms and the test failed now and then).
      LOAD_SHED_SAMPLE_INTERVAL_MS: '100',
    });
  });
  afterAll(() => t.close());

  const appConfig = () => t.app.inject({ method: 'GET', url: `${paths.orgs.appConfig}?org_id=41` });
  /** Asks until the server answers other than 503 (the loop settles within a few samples). */
  const untilServed = async () => {
    let status = 503;
    for (let i = 0; i < 100 && status === 503; i += 1) {
      status = (await appConfig()).statusCode;
      if (status === 503) await sleep(50);
    }
    return status;
  };

  it('answers 503 with the envelope and Retry-After at once while the event loop is saturated, then serves again', async () => {
    // Opening the app kept the loop busy too: start from a settled server.
    expect(await untilServed()).toBe(200);

    // The overdue sample usually runs first and sees the delay, which stands until the next one
    // 100 ms on. The loop's delay histogram is fed by its own timer, though, and when the sample
    // runs before that timer records the blocked tick it sees a calm loop (CI saw this once): a
    // saturated server blocks again, so block again, up to three times.
    let shed = await appConfig();
    for (let i = 0; i < 3 && shed.statusCode !== 503; i += 1) {
      blockEventLoop(1500);
      await sleep(5);
      shed = await appConfig();
    }
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('5');
    expect(shed.json()).toEqual({
      response: 'failure',
      message: 'The server is busy. Please try again in 5 seconds',
      code: 'SERVICE_UNAVAILABLE',
      data: null,
    });

    expect(await untilServed()).toBe(200);
  });

  it('is on by default outside tests and off under NODE_ENV=test unless asked', () => {
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: 1000,
      LOAD_SHED_MAX_IN_FLIGHT: 64,
    });
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: 0,
      LOAD_SHED_MAX_IN_FLIGHT: 0,
    });
  });
});

describe('load shedding by requests in hand (issue 12)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOAD_SHED_MAX_IN_FLIGHT: '4', LOAD_SHED_SAMPLE_INTERVAL_MS: '100' });
  });
  afterAll(() => t.close());

  it('sheds new requests while more than the limit are in hand, and counts each out once, answered or hung up', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const call = () => fetch(`http://127.0.0.1:${port}${paths.orgs.appConfig}?org_id=41`);
    expect((await call()).status).toBe(200);
    // Five clients send a request's head but not all of its body: each is in hand until it ends.
    const slow = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const socket = connect(port, '127.0.0.1');
        await once(socket, 'connect');
        socket.write(
          `POST ${paths.auth.loginWithOtp} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`,
        );
        return socket;
      }),
    );
    await sleep(100); // the in-hand check runs every 10 ms
    const shed = await call();
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('5');
    expect(((await shed.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');

    for (const socket of slow) socket.destroy(); // the clients hang up
    await sleep(100);
    for (let i = 0; i < 10; i += 1) expect((await call()).status).toBe(200);
  });
});
