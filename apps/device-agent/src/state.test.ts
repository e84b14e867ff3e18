import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZSimSlot } from '@kisht/domain/devices/protocol.schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APPLIED_COMMAND_IDS_LIMIT,
  createAgentState,
  DEFAULT_POSITION,
  newOfflineChallenge,
  offlineReportData,
  readStateFile,
  readStateFileInfo,
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
  it('creates version 3 with an unlocked phone, no controls, two SIM slots, a position in Mumbai and an offline challenge', () => {
    const state = createAgentState(CREDENTIALS);

    expect(state).toMatchObject({
      version: 3,
      revision: 0,
      offlineChallenge: expect.stringMatching(/^\d{6}$/),
      offlineWrongTries: 0,
      lastCheckInAt: CREDENTIALS.enrolledAt,
      offlineEvents: [],
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

    const { state: migrated, isMigrated } = await readStateFileInfo(path);

    expect(isMigrated).toBe(true);
    expect(migrated).toEqual({
      ...createAgentState(CREDENTIALS),
      isLocked: true,
      controls: { lock: true },
      appliedCommandIds: ['a', 'b'],
      offlineChallenge: expect.stringMatching(/^\d{6}$/),
    });
    // Saved again, it is a version-3 file.
    await writeStateFile(path, migrated);
    expect(JSON.parse(await readFile(path, 'utf8')).version).toBe(3);
    expect(await readStateFileInfo(path)).toEqual({ state: migrated, isMigrated: false });
  });

  it('migrates a version-2 file on read, keeping everything and adding the offline fields', async () => {
    const path = join(dir, 'v2.json');
    const {
      revision: _revision,
      offlineChallenge: _challenge,
      offlineWrongTries: _tries,
      lastCheckInAt: _checkIn,
      offlineEvents: _events,
      ...v3Only
    } = createAgentState(CREDENTIALS);
    const v2 = {
      ...v3Only,
      version: 2,
      isLocked: true,
      controls: { lock: true, camera_lock: true },
      bootCount: 3,
    };
    await writeFile(path, JSON.stringify(v2));

    const { state, isMigrated } = await readStateFileInfo(path);

    expect(isMigrated).toBe(true);
    expect(state).toEqual({
      ...v2,
      version: 3,
      revision: 0,
      offlineChallenge: expect.stringMatching(/^\d{6}$/),
      offlineWrongTries: 0,
      lastCheckInAt: CREDENTIALS.enrolledAt,
      offlineEvents: [],
    });
  });

  it('refuses a version it does not know, and a file missing fields', async () => {
    const future = join(dir, 'future.json');
    await writeFile(future, JSON.stringify({ ...createAgentState(CREDENTIALS), version: 4 }));
    await expect(readStateFile(future)).rejects.toThrow(/not a kisht-agent state file \(version: /);

    const partial = join(dir, 'partial.json');
    const { sims: _sims, ...withoutSims } = createAgentState(CREDENTIALS);
    await writeFile(partial, JSON.stringify(withoutSims));
    await expect(readStateFile(partial)).rejects.toThrow(/sims: /);

    const badChallenge = join(dir, 'bad-challenge.json');
    await writeFile(
      badChallenge,
      JSON.stringify({ ...createAgentState(CREDENTIALS), offlineChallenge: '12ab' }),
    );
    await expect(readStateFile(badChallenge)).rejects.toThrow(/offlineChallenge: /);
  });
});

describe('offline state', () => {
  it('makes 6-digit challenges that differ from the one they replace', () => {
    const challenges = Array.from({ length: 200 }, () => newOfflineChallenge());
    expect(challenges.every((challenge) => /^\d{6}$/.test(challenge))).toBe(true);
    // Random: 200 draws of 10^6 values are nearly all distinct.
    expect(new Set(challenges).size).toBeGreaterThan(190);
    for (const previous of ['000000', '123456', challenges[0]!]) {
      expect(newOfflineChallenge(previous)).not.toBe(previous);
    }
  });

  it("gives the offline_lock report's data for a code and for the offline limit", () => {
    const base = { id: 'x', at: '2026-03-01T10:00:00.000Z', isReportPending: true };
    expect(
      offlineReportData({ ...base, source: 'offline_code', action: 'unlock', challenge: '123456' }),
    ).toEqual({ action: 'unlock', challenge: '123456', at: base.at, source: 'offline_code' });
    expect(
      offlineReportData({
        ...base,
        source: 'offline_limit',
        action: 'lock',
        lastCheckInAt: '2026-02-27T10:00:00.000Z',
      }),
    ).toEqual({
      action: 'lock',
      source: 'offline_limit',
      lastCheckInAt: '2026-02-27T10:00:00.000Z',
      at: base.at,
    });
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
