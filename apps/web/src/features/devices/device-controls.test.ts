import { describe, expect, it } from 'vitest';
import { createBulkProgress, createDeviceCommand, createDeviceSummary } from '../../test/fixtures';
import {
  actionFeaturesOf,
  batchPercent,
  commandFactsOf,
  controlOfferOf,
  deriveToggleDisplay,
  hasPendingDeviceCommand,
  isBatchSettled,
  isWaitingForRunAt,
  mapLinkOf,
  mergeBulkProgress,
  noCommandRefusalOf,
  offeredScheduleOptionsOf,
  pendingByFeature,
  pendingLockCommand,
  scheduleOptionsOf,
  settledCount,
  toggleFeaturesOf,
} from './device-controls';

describe('deriveToggleDisplay (reported state plus pending command)', () => {
  it.each([
    ['reported on, nothing pending', { camera_lock: true }, {}, 'on'],
    ['reported off, nothing pending', { camera_lock: false }, {}, 'off'],
    ['never reported', {}, {}, 'off'],
    [
      'off, turning on',
      { camera_lock: false },
      { camera_lock: createDeviceCommand({ name: 'camera_lock' }) },
      'turningOn',
    ],
    [
      'on, turning off',
      { camera_lock: true },
      { camera_lock: createDeviceCommand({ name: 'camera_unlock', state: 'received' }) },
      'turningOff',
    ],
    [
      'a pending command that has ended shows the reported state',
      { camera_lock: true },
      { camera_lock: createDeviceCommand({ name: 'camera_unlock', state: 'failed' }) },
      'on',
    ],
  ] as const)('%s → %s', (_case, controls, pendingControls, expected) => {
    expect(deriveToggleDisplay(createDeviceSummary({ controls, pendingControls }), 'camera_lock')).toBe(
      expected,
    );
  });

  it('reads SIM-tracking command strings as their toggle', () => {
    const device = createDeviceSummary({
      pendingControls: { sim_tracking_offline: createDeviceCommand({ name: 'SIMTRACKINGOFFLINEOFF' }) },
    });
    expect(deriveToggleDisplay(device, 'sim_tracking_offline')).toBe('turningOff');
  });
});

describe('what the device and actions tabs list', () => {
  it('lists the toggles of availability.controls, less lock (the lock card has it)', () => {
    expect(toggleFeaturesOf({ controls: ['lock', 'camera_lock', 'wallpaper'], actions: ['reboot'] })).toEqual(
      ['camera_lock', 'wallpaper'],
    );
  });

  it('lists availability.actions, then one-shot features the availability lists as controls', () => {
    const availability = {
      controls: ['lock', 'uninstall_antitheft', 'install_apple_onemodapp'] as const,
      actions: ['fetch_location', 'reboot'] as const,
    };
    expect(toggleFeaturesOf({ controls: [...availability.controls], actions: [] })).toEqual([]);
    expect(
      actionFeaturesOf({ controls: [...availability.controls], actions: [...availability.actions] }),
    ).toEqual(['fetch_location', 'reboot', 'uninstall_antitheft', 'install_apple_onemodapp']);
  });
});

describe('pending commands', () => {
  it('sees a pending command in the summary, its toggles or the history', () => {
    const idle = createDeviceSummary();
    expect(hasPendingDeviceCommand(idle, [])).toBe(false);
    expect(hasPendingDeviceCommand(idle, [{ state: 'done' }, { state: 'failed' }])).toBe(false);
    expect(hasPendingDeviceCommand(idle, [{ state: 'sent' }])).toBe(true);
    expect(hasPendingDeviceCommand({ ...idle, pendingCommand: createDeviceCommand() }, undefined)).toBe(true);
    expect(
      hasPendingDeviceCommand(
        { ...idle, pendingControls: { wifi_on_off: createDeviceCommand({ name: 'wifi_on' }) } },
        [],
      ),
    ).toBe(true);
  });

  it('does not count a command scheduled for later as on its way', () => {
    const now = Date.parse('2026-01-15T09:00:00Z');
    const idle = createDeviceSummary();
    expect(hasPendingDeviceCommand(idle, [{ state: 'queued', runAt: '2026-01-15T10:00:00Z' }], now)).toBe(
      false,
    );
    expect(hasPendingDeviceCommand(idle, [{ state: 'queued', runAt: '2026-01-15T08:59:00Z' }], now)).toBe(
      true,
    );
    expect(hasPendingDeviceCommand(idle, [{ state: 'queued', runAt: null }], now)).toBe(true);
  });

  it('takes only a lock or unlock as the lock card’s pending command', () => {
    const lock = createDeviceCommand({ name: 'lock' });
    expect(pendingLockCommand(createDeviceSummary({ pendingCommand: lock }))).toBe(lock);
    expect(
      pendingLockCommand(
        createDeviceSummary({ pendingCommand: createDeviceCommand({ name: 'camera_lock' }) }),
      ),
    ).toBeNull();
    const unlock = createDeviceCommand({ name: 'unlock', state: 'sent' });
    expect(
      pendingLockCommand(
        createDeviceSummary({
          pendingCommand: createDeviceCommand({ name: 'reboot' }),
          pendingControls: { lock: unlock },
        }),
      ),
    ).toBe(unlock);
  });
});

describe('bulk progress', () => {
  it('keeps the known items and replaces those a changes-only poll returns, by command', () => {
    const known = createBulkProgress();
    const [anita, vikram] = known.items;
    const counts = { queued: 1, sent: 0, received: 0, done: 1, failed: 0, cancelled: 0, expired: 0 };
    const poll = createBulkProgress({
      counts,
      items: [{ ...vikram!, state: 'done' }],
      isChangesOnly: true,
      cursor: '2026-03-01T10:00:05.000Z',
    });
    expect(mergeBulkProgress(known, poll)).toEqual({
      ...poll,
      items: [anita, { ...vikram!, state: 'done' }],
    });
    const quiet = createBulkProgress({ counts, items: [], isChangesOnly: true });
    expect(mergeBulkProgress(known, quiet).items).toBe(known.items);
    // A whole answer (or none known) replaces everything; a new item takes its customer's place.
    expect(mergeBulkProgress(known, createBulkProgress({ items: [vikram!] })).items).toEqual([vikram]);
    const first = { ...anita!, customerId: 1, commandId: '0193a5a4-7e0e-7c55-8f00-000000000200' };
    expect(
      mergeBulkProgress(known, createBulkProgress({ items: [first], isChangesOnly: true })).items,
    ).toEqual([first, anita, vikram]);
  });

  it('counts done, failed, cancelled and expired as ended', () => {
    const progress = createBulkProgress({
      total: 10,
      counts: { queued: 1, sent: 2, received: 1, done: 3, failed: 1, cancelled: 1, expired: 1 },
    });
    expect(settledCount(progress)).toBe(6);
    expect(batchPercent(progress)).toBe(60);
    expect(isBatchSettled(progress)).toBe(false);
  });

  it('is complete when every command has ended, and for a batch of none', () => {
    const done = createBulkProgress({
      total: 2,
      counts: { queued: 0, sent: 0, received: 0, done: 1, failed: 1, cancelled: 0, expired: 0 },
    });
    expect(isBatchSettled(done)).toBe(true);
    expect(batchPercent(done)).toBe(100);
    const empty = createBulkProgress({
      total: 0,
      counts: { queued: 0, sent: 0, received: 0, done: 0, failed: 0, cancelled: 0, expired: 0 },
      items: [],
    });
    expect(isBatchSettled(empty)).toBe(true);
    expect(batchPercent(empty)).toBe(100);
  });
});

describe('mapLinkOf', () => {
  it('links coordinates to OpenStreetMap', () => {
    expect(mapLinkOf({ latitude: '18.5204', longitude: '73.8567' })).toBe(
      'https://www.openstreetmap.org/?mlat=18.5204&mlon=73.8567',
    );
  });

  it.each([
    ['Bypassed', 'Bypassed'],
    ['', ''],
    ['91.5', '73.8'],
    ['18.5', '73.8; x'],
  ])('gives no link for %s, %s', (latitude, longitude) => {
    expect(mapLinkOf({ latitude, longitude })).toBeNull();
  });
});

describe('scheduled commands', () => {
  const NOW = Date.parse('2026-01-15T09:00:00Z');

  it('tells a command waiting for its run_at from one on its way', () => {
    expect(isWaitingForRunAt({ state: 'queued', runAt: '2026-01-15T10:00:00Z' }, NOW)).toBe(true);
    expect(isWaitingForRunAt({ state: 'queued', runAt: '2026-01-15T08:00:00Z' }, NOW)).toBe(false);
    expect(isWaitingForRunAt({ state: 'queued', runAt: null }, NOW)).toBe(false);
    expect(isWaitingForRunAt({ state: 'cancelled', runAt: '2026-01-15T10:00:00Z' }, NOW)).toBe(false);
  });

  it('keeps an action scheduled for later from showing as on its way', () => {
    const pending = pendingByFeature(
      [
        { feature: 'reboot', state: 'queued', runAt: '2026-01-16T09:00:00Z' },
        { feature: 'fetch_location', state: 'sent', runAt: null },
        { feature: 'sim_info', state: 'done', runAt: null },
      ],
      NOW,
    );
    expect([...pending]).toEqual(['fetch_location']);
  });

  it('offers lock and unlock, each toggle on and off, and each action but uninstall', () => {
    const options = scheduleOptionsOf({
      controls: ['lock', 'wallpaper', 'camera_lock'],
      actions: ['fetch_location', 'uninstall', 'reboot'],
    });
    expect(options.map((option) => [option.group, option.name, option.enable])).toEqual([
      ['lock', 'lock', true],
      ['lock', 'unlock', false],
      ['controls', 'set_wallpaper', true],
      ['controls', 'remove_wallpaper', false],
      ['controls', 'camera_lock', true],
      ['controls', 'camera_unlock', false],
      ['actions', 'location', undefined],
      ['actions', 'reboot', undefined],
    ]);
    expect(scheduleOptionsOf({ controls: [], actions: ['uninstall'] })).toEqual([]);
  });
});

describe('the command gate’s facts and offers (issue 25)', () => {
  const EMIS = [
    { dueDate: '2026-01-10', amountPaise: 500_000, paidPaise: 200_000 },
    { dueDate: '2026-02-10', amountPaise: 500_000, paidPaise: 0 },
  ];

  it('reads status, family and the unpaid part of the instalments due before today (+05:30)', () => {
    expect(commandFactsOf({ status: 1, deviceType: 1, emis: EMIS }, '2026-01-20')).toEqual({
      status: 1,
      deviceType: 1,
      overduePaise: 300_000,
    });
    // Due today is not overdue yet.
    expect(commandFactsOf({ status: 1, deviceType: 0, emis: EMIS }, '2026-01-10').overduePaise).toBe(0);
    expect(commandFactsOf({ status: 1, deviceType: 0, emis: EMIS }, '2026-03-01').overduePaise).toBe(800_000);
  });

  it('refuses everything only for a released phone (status 3 or 4)', () => {
    expect(noCommandRefusalOf({ status: 3 })?.code).toBe('DEVICE_RELEASED');
    expect(noCommandRefusalOf({ status: 4 })?.code).toBe('DEVICE_RELEASED');
    for (const status of [0, 1, 2, 5, 6]) expect(noCommandRefusalOf({ status })).toBeNull();
  });

  it('takes a toggle’s halves apart: a paid-up loan may turn a restriction off, not on', () => {
    const paidUp = { status: 5, deviceType: 0, overduePaise: 0 };
    expect(controlOfferOf(paidUp, 'camera_lock', true)?.kind).toBe('refused');
    expect(controlOfferOf(paidUp, 'camera_lock', false)).toEqual({ kind: 'allowed', reason: null });
    expect(controlOfferOf(paidUp, 'tracking', true)).toEqual({ kind: 'allowed', reason: null });
    expect(controlOfferOf(paidUp, 'reboot')).toEqual({ kind: 'allowed', reason: null });
  });

  it('leaves out of the schedule what the rules refuse, and says what reason the rest ask', () => {
    const availability = { controls: ['lock', 'camera_lock'] as const, actions: ['reboot'] as const };
    const names = (status: number) =>
      offeredScheduleOptionsOf(
        { controls: [...availability.controls], actions: [...availability.actions] },
        { status, deviceType: 0, overduePaise: 0 },
      ).map((option) => option.name);
    expect(names(1)).toEqual(['lock', 'unlock', 'camera_lock', 'camera_unlock', 'reboot']);
    expect(names(5)).toEqual(['unlock', 'camera_unlock', 'reboot']);
    expect(names(3)).toEqual([]);
    const [lock] = offeredScheduleOptionsOf(
      { controls: ['lock'], actions: [] },
      { status: 1, deviceType: 0, overduePaise: 0 },
    );
    expect(lock?.offer.reason).toMatchObject({ isRequired: true, implied: null });
  });
});
