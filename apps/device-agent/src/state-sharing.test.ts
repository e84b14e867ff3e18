import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAgentState,
  readStateFile,
  type TAgentStateFile,
  type TOfflineEvent,
  writeStateFile,
} from './state';
import { mergeOfflineEvents, saveSharedState } from './state-sharing';
import { TEST_IMEI_1, TEST_IMEI_2 } from './test-support';

const event = (id: string, at: string, isReportPending: boolean): TOfflineEvent => ({
  id,
  at,
  isReportPending,
  source: 'offline_code',
  action: 'unlock',
  challenge: '123456',
});

const SENT = event('e1', '2026-03-01T10:00:00.000Z', false);
const PENDING = { ...SENT, isReportPending: true };

let dir: string;
let path: string;
let base: TAgentStateFile;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kisht-shared-'));
  path = join(dir, 'phone.json');
  base = {
    ...createAgentState({
      deviceId: '0190f000-0000-7000-8000-000000000001',
      deviceSecret: 'secret',
      mqttUrl: 'ws://127.0.0.1:8080/mqtt',
      cmdTopic: 'c',
      evtTopic: 'e',
      serverUrl: 'http://127.0.0.1:8080',
      imei1: TEST_IMEI_1,
      imei2: TEST_IMEI_2,
      enrolledAt: '2026-01-01T00:00:00.000Z',
    }),
    offlineEvents: [PENDING],
    revision: 4,
  };
  await writeStateFile(path, base);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a state file with two writers', () => {
  it('saves with the next revision when nobody else wrote, leaving no lock behind', async () => {
    const saved = await saveSharedState(path, base, { ...base, isLocked: true });
    expect(saved).toEqual({ ...base, isLocked: true, revision: 5 });
    expect(await readStateFile(path)).toEqual(saved);
    expect(await readdir(dir)).toEqual(['phone.json']);
  });

  it('keeps the report the agent marked sent when an offline-code screen that read before saves after', async () => {
    // The running agent sends the report and saves; the CLI had read the file before that.
    const agent = await saveSharedState(path, base, { ...base, offlineEvents: [SENT] });
    const cli = await saveSharedState(path, base, { ...base, offlineWrongTries: 1 });

    expect(await readStateFile(path)).toEqual({
      ...base,
      offlineEvents: [SENT],
      offlineWrongTries: 1,
      revision: 6,
    });
    // The CLI's own view lags the file, so a watcher of its would still adopt the agent's change.
    expect(cli).toEqual({ ...base, offlineWrongTries: 1, revision: agent.revision });
  });

  it('joins offline events both sides added, a sent report staying sent, oldest first', () => {
    const later = event('e2', '2026-03-02T10:00:00.000Z', true);
    const earlier = event('e0', '2026-02-28T10:00:00.000Z', true);
    expect(mergeOfflineEvents([SENT, later], [earlier, PENDING])).toEqual([earlier, SENT, later]);
  });

  it('lets two writers that save at the same moment each keep their change', async () => {
    await Promise.all([
      saveSharedState(path, base, { ...base, sims: [] }),
      saveSharedState(path, base, { ...base, isLocked: true }),
      saveSharedState(path, base, { ...base, offlineWrongTries: 2 }),
    ]);
    expect(await readStateFile(path)).toMatchObject({
      sims: [],
      isLocked: true,
      offlineWrongTries: 2,
      revision: 7,
    });
  });
});
