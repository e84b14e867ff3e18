import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZSimSlot } from '@kisht/domain/devices/protocol.schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APPLIED_COMMAND_IDS_LIMIT,
  createAgentState,
  DEFAULT_POSITION,
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

describe('state file versions', () => {
  it('creates version 2 with an unlocked phone, no controls, two SIM slots and a position in Mumbai', () => {
    const state = createAgentState(CREDENTIALS);

    expect(state).toMatchObject({
      version: 2,
      isLocked: false,
      controls: {},
      isSimReportPending: false,
      position: DEFAULT_POSITION,
      wallpaper: null,
      lostMode: null,
      lockedApps: [],
      hiddenApps: [],
      lastAlert: null,
      bootCount: 0,
      uninstalled: false,
      appliedCommandIds: [],
    });
    expect(state.sims.map((sim) => ZSimSlot.parse(sim))).toEqual([
      { slot: 1, iccid: expect.stringMatching(/^8991\d{15}$/), operator: 'Jio' },
      { slot: 2, iccid: null, operator: null },
    ]);
    // The ICCID is stable for a device, and differs between devices.
    expect(createAgentState(CREDENTIALS).sims).toEqual(state.sims);
    expect(createAgentState({ ...CREDENTIALS, deviceId: 'another' }).sims[0]?.iccid).not.toBe(
      state.sims[0]?.iccid,
    );
  });

  it('migrates a version-1 file on read, keeping lock state and applied ids', async () => {
    const path = join(dir, 'old.json');
    const v1 = { version: 1, credentials: CREDENTIALS, isLocked: true, appliedCommandIds: ['a', 'b'] };
    await writeFile(path, JSON.stringify(v1));

    const migrated = await readStateFile(path);

    expect(migrated).toEqual({
      ...createAgentState(CREDENTIALS),
      isLocked: true,
      controls: { lock: true },
      appliedCommandIds: ['a', 'b'],
    });
    // Saved again, it is a version-2 file.
    await writeStateFile(path, migrated);
    expect(JSON.parse(await readFile(path, 'utf8')).version).toBe(2);
    expect(await readStateFile(path)).toEqual(migrated);
  });

  it('refuses a version it does not know, and a version-2 file missing fields', async () => {
    const future = join(dir, 'future.json');
    await writeFile(future, JSON.stringify({ ...createAgentState(CREDENTIALS), version: 3 }));
    await expect(readStateFile(future)).rejects.toThrow(/not a kisht-agent state file \(version: /);

    const partial = join(dir, 'partial.json');
    const { sims: _sims, ...withoutSims } = createAgentState(CREDENTIALS);
    await writeFile(partial, JSON.stringify(withoutSims));
    await expect(readStateFile(partial)).rejects.toThrow(/sims: /);
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
