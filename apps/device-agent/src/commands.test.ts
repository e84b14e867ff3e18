import { COMMAND_CATALOGUE } from '@kisht/domain/devices/command-catalogue';
import { describe, expect, it } from 'vitest';
import { applyCommand, locationFixOf, normaliseSims, reportedStateOf, UNSUPPORTED_COMMAND } from './commands';
import { SAMPLE_ARGS } from './conformance/checks';
import { createAgentState, type TAgentStateFile } from './state';
import { TEST_IMEI_1, TEST_IMEI_2 } from './test-support';

const STATE = createAgentState({
  deviceId: '0190f000-0000-7000-8000-000000000001',
  deviceSecret: 'secret',
  mqttUrl: 'mqtt://127.0.0.1:1',
  cmdTopic: 'kisht/v1/d/0190f000-0000-7000-8000-000000000001/cmd',
  evtTopic: 'kisht/v1/d/0190f000-0000-7000-8000-000000000001/evt',
  serverUrl: 'http://127.0.0.1:8080',
  imei1: TEST_IMEI_1,
  imei2: TEST_IMEI_2,
  enrolledAt: '2026-01-01T00:00:00.000Z',
});
const NOW = new Date('2026-03-01T10:00:00.000Z');

const applied = (state: TAgentStateFile, name: string, args: Record<string, unknown> = {}) => {
  const outcome = applyCommand(state, { name, args }, NOW);
  if ('error' in outcome) throw new Error(outcome.error);
  return outcome;
};

describe('applyCommand', () => {
  it('applies every command of the catalogue, toggles setting their control on then off', () => {
    for (const spec of COMMAND_CATALOGUE) {
      const on = applied(STATE, spec.on, SAMPLE_ARGS[spec.feature] ?? {});
      if (spec.kind === 'toggle') {
        expect(on.state.controls[spec.feature], spec.on).toBe(true);
        expect(applied(on.state, spec.off!).state.controls[spec.feature], spec.off).toBe(false);
      } else {
        expect(on.state.actionsAppliedAt[spec.on], spec.on).toBe(NOW.toISOString());
        expect(on.state.controls).toEqual({});
      }
    }
  });

  it('answers unknown names and invalid args with an error, leaving the state alone', () => {
    expect(applyCommand(STATE, { name: 'reformat', args: {} })).toEqual({ error: UNSUPPORTED_COMMAND });
    expect(applyCommand(STATE, { name: 'lost_mode_on', args: { message: ' ' } })).toEqual({
      error: 'invalid args: message: Say what the lock screen shows',
    });
    // The off half takes no args: whatever comes is ignored.
    expect('error' in applyCommand(STATE, { name: 'lost_mode_off', args: { message: 1 } })).toBe(false);
  });

  it('gives location and sim_info results and does not modify the state it is given', () => {
    const before = structuredClone(STATE);

    expect(applied(STATE, 'location').result).toEqual(locationFixOf(STATE.position, NOW));
    expect(applied(STATE, 'sim_info').result).toEqual({ sims: STATE.sims });
    expect(applied(STATE, 'reboot').state.bootCount).toBe(1);
    expect(applied(STATE, 'uninstall')).toMatchObject({
      state: { uninstalled: true },
      result: { location: locationFixOf(STATE.position, NOW) },
    });
    expect(applied(STATE, 'reboot').result).toBeUndefined();
    expect(applied(STATE, 'lock').state.isLocked).toBe(true);
    expect(STATE).toEqual(before);
  });
});

describe('reportedStateOf', () => {
  it('reports lock, the policy version, controls with lock mirrored, SIMs and the version', () => {
    const state = { ...STATE, isLocked: true, controls: { camera_lock: true } };
    expect(reportedStateOf(state, '9.9.9')).toEqual({
      isLocked: true,
      policyVersion: 0,
      agentVersion: '9.9.9',
      controls: { camera_lock: true, lock: true },
      sims: STATE.sims,
    });
  });
});

describe('normaliseSims', () => {
  it('sorts by slot and refuses a repeated slot', () => {
    const one = { slot: 1, iccid: null, operator: null };
    const two = { slot: 2, iccid: null, operator: null };
    expect(normaliseSims([two, one])).toEqual([one, two]);
    expect(() => normaliseSims([two, two])).toThrow(/slot 2 is given twice/);
  });
});
