import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APPLIED_COMMAND_IDS_LIMIT,
  createAgentState,
  readStateFile,
  rememberCommandId,
  StateFileMissingError,
  type TDeviceCredentials,
  writeStateFile,
} from './state';
import { TEST_IMEI_1, TEST_IMEI_2 } from './test-support';

const CREDENTIALS: TDeviceCredentials = {
  deviceId: '0190f000-0000-7000-8000-000000000001',
  deviceSecret: 'secret',
  mqttUrl: 'ws://127.0.0.1:8080/mqtt',
  cmdTopic: 'kisht/v1/d/0190f000-0000-7000-8000-000000000001/cmd',
  evtTopic: 'kisht/v1/d/0190f000-0000-7000-8000-000000000001/evt',
  serverUrl: 'http://127.0.0.1:8080',
  imei1: TEST_IMEI_1,
  imei2: TEST_IMEI_2,
  enrolledAt: '2026-01-01T00:00:00.000Z',
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kisht-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('state file', () => {
  it('round-trips, creating the directory and leaving no temporary file behind', async () => {
    const path = join(dir, 'nested', 'device.json');
    const state = { ...createAgentState(CREDENTIALS), isLocked: true, appliedCommandIds: ['a'] };

    await writeStateFile(path, state);
    await writeStateFile(path, { ...state, appliedCommandIds: ['a', 'b'] });

    expect(await readStateFile(path)).toEqual({ ...state, appliedCommandIds: ['a', 'b'] });
    expect(await readdir(join(dir, 'nested'))).toEqual(['device.json']);
  });

  it('says when there is no state file, or when it is not one', async () => {
    await expect(readStateFile(join(dir, 'none.json'))).rejects.toBeInstanceOf(StateFileMissingError);

    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"version":1,');
    await expect(readStateFile(broken)).rejects.toThrow(/is not valid JSON/);

    const other = join(dir, 'other.json');
    await writeFile(other, JSON.stringify({ version: 1, isLocked: 'yes' }));
    await expect(readStateFile(other)).rejects.toThrow(
      /not a kisht-agent state file \(credentials: .*isLocked/,
    );
  });
});

describe('rememberCommandId', () => {
  it('appends, keeps an id once, and forgets the oldest beyond the limit', () => {
    expect(rememberCommandId(['a', 'b'], 'c')).toEqual(['a', 'b', 'c']);
    expect(rememberCommandId(['a', 'b'], 'a')).toEqual(['b', 'a']);
    expect(rememberCommandId(['a', 'b', 'c'], 'd', 3)).toEqual(['b', 'c', 'd']);

    const full = Array.from({ length: APPLIED_COMMAND_IDS_LIMIT }, (_, index) => `id-${index}`);
    const next = rememberCommandId(full, 'new');
    expect(next).toHaveLength(APPLIED_COMMAND_IDS_LIMIT);
    expect(next[0]).toBe('id-1');
    expect(next.at(-1)).toBe('new');
  });
});
