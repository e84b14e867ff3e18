import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../common/enums';
import { COMMAND_CATALOGUE } from './command-catalogue';
import {
  COMMAND_RULES,
  commandOfferFor,
  GATE_ONLY_INTENTS,
  isRestrictingCommand,
  judgeCommand,
  locksScreen,
  RESTRICTING_COMMANDS,
  statusesAllowing,
  type TCommandFacts,
} from './command-rules';
import {
  LOCK_REASON_CATEGORIES,
  LOCK_SCREEN_HEADLINES,
  lockScreenLines,
  lostModeMessage,
} from './lock-reasons';

const INSTALLED_OVERDUE: TCommandFacts = { status: 1, deviceType: 0, overduePaise: 250_000 };
const INSTALLED_PAID_UP: TCommandFacts = { status: 1, deviceType: 0, overduePaise: 0 };

describe('what each command does to the phone (issue 25)', () => {
  it('has a rule for every command name and gate-only intent', () => {
    expect(COMMAND_NAMES.length).toBeGreaterThan(0);
    for (const name of [...COMMAND_NAMES, ...GATE_ONLY_INTENTS]) expect(COMMAND_RULES[name]).toBeDefined();
  });

  it('restricts with every "block"/"lock" toggle on, frees with it off; tracking only watches', () => {
    const toggles = COMMAND_CATALOGUE.filter((spec) => spec.kind === 'toggle');
    expect(toggles.length).toBeGreaterThan(10);
    const watching = ['tracking', 'sim_tracking_online', 'sim_tracking_offline'];
    for (const spec of toggles) {
      const expected = watching.includes(spec.feature) ? ['neutral', 'neutral'] : ['restricts', 'frees'];
      expect([COMMAND_RULES[spec.on].effect, COMMAND_RULES[spec.off!].effect], spec.feature).toEqual(
        expected,
      );
    }
  });

  it.each([
    ['lock', true],
    ['lost_mode_on', true],
    ['antitheft_lost_mode_on', true],
    ['change_pin', true],
    ['offline_code_lock', true],
    ['offline_limit_set', false],
    ['camera_lock', false],
    ['set_wallpaper', false],
  ])('%s restricts; leaves only a lock screen: %s', (name, isScreenLock) => {
    expect(isRestrictingCommand(name)).toBe(true);
    expect(locksScreen(name)).toBe(isScreenLock);
    expect(RESTRICTING_COMMANDS).toContain(name);
  });

  it.each(['unlock', 'camera_unlock', 'offline_code_unlock', 'offline_limit_clear', 'location', 'show_ad'])(
    '%s does not restrict',
    (name) => {
      expect(isRestrictingCommand(name)).toBe(false);
    },
  );

  it('treats an unknown command as a restriction (never waved through)', () => {
    expect(isRestrictingCommand('brick_phone')).toBe(true);
  });
});

describe('judgeCommand: status, family and reason (issue 25)', () => {
  it.each([
    // [what, facts, command, reason given, expected]
    [
      'paid-up loan (5): lock refused',
      { status: 5, deviceType: 0, overduePaise: 0 },
      'lock',
      {},
      'LOAN_COMPLETED',
    ],
    [
      'paid-up loan (5): lock with a reason still refused',
      { status: 5, deviceType: 0, overduePaise: 0 },
      'lock',
      { category: 'customer_request' },
      'LOAN_COMPLETED',
    ],
    [
      'paid-up loan: camera lock refused',
      { status: 5, deviceType: 0, overduePaise: 0 },
      'camera_lock',
      {},
      'LOAN_COMPLETED',
    ],
    [
      'paid-up loan: PIN change refused',
      { status: 5, deviceType: 0, overduePaise: 0 },
      'change_pin',
      {},
      'LOAN_COMPLETED',
    ],
    [
      'paid-up loan: offline lock code refused',
      { status: 5, deviceType: 0, overduePaise: 0 },
      'offline_code_lock',
      {},
      'LOAN_COMPLETED',
    ],
    [
      'paid-up loan: offline limit refused',
      { status: 5, deviceType: 0, overduePaise: 0 },
      'offline_limit_set',
      {},
      'LOAN_COMPLETED',
    ],
    [
      'released (3): lock refused',
      { status: 3, deviceType: 0, overduePaise: 900 },
      'lock',
      {},
      'DEVICE_RELEASED',
    ],
    [
      'released (3): even unlock',
      { status: 3, deviceType: 0, overduePaise: 0 },
      'unlock',
      {},
      'DEVICE_RELEASED',
    ],
    [
      'Apple removed (4): lost mode refused',
      { status: 4, deviceType: 3, overduePaise: 0 },
      'lost_mode_on',
      {},
      'DEVICE_RELEASED',
    ],
    [
      'Apple removed (4): reboot refused',
      { status: 4, deviceType: 3, overduePaise: 0 },
      'reboot',
      {},
      'DEVICE_RELEASED',
    ],
    [
      'managed Android, overdue, no reason: a payment lock',
      { status: 1, deviceType: 1, overduePaise: 5_000 },
      'lock',
      {},
      'PAYMENT_LOCK_NOT_ALLOWED',
    ],
    [
      'managed Android: overdue EMI named',
      { status: 1, deviceType: 1, overduePaise: 5_000 },
      'lock',
      { category: 'overdue_emi' },
      'PAYMENT_LOCK_NOT_ALLOWED',
    ],
    [
      'managed Android: camera lock over an overdue EMI',
      { status: 1, deviceType: 1, overduePaise: 5_000 },
      'camera_lock',
      {},
      'PAYMENT_LOCK_NOT_ALLOWED',
    ],
    ['nothing overdue, lock without a category', INSTALLED_PAID_UP, 'lock', {}, 'VALIDATION_FAILED'],
    [
      'nothing overdue, overdue EMI named',
      INSTALLED_PAID_UP,
      'lock',
      { category: 'overdue_emi' },
      'VALIDATION_FAILED',
    ],
    ['other without a note', INSTALLED_OVERDUE, 'lock', { category: 'other' }, 'VALIDATION_FAILED'],
  ] as const)('%s → %s', (_what, facts, name, given, code) => {
    const verdict = judgeCommand(facts, name, given);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.refusal.code).toBe(code);
  });

  it.each([
    [
      'overdue: a lock is for the overdue EMI',
      INSTALLED_OVERDUE,
      'lock',
      {},
      { category: 'overdue_emi', note: null },
    ],
    [
      'nothing overdue: customer request',
      INSTALLED_PAID_UP,
      'lock',
      { category: 'customer_request' },
      { category: 'customer_request', note: null },
    ],
    [
      'other with a note',
      INSTALLED_PAID_UP,
      'lost_mode_on',
      { category: 'other', note: '  Shop closed for audit ' },
      { category: 'other', note: 'Shop closed for audit' },
    ],
    [
      'managed Android: customer request',
      { status: 1, deviceType: 1, overduePaise: 5_000 },
      'lock',
      { category: 'customer_request' },
      { category: 'customer_request', note: null },
    ],
    ['nothing overdue: camera lock needs no reason', INSTALLED_PAID_UP, 'camera_lock', {}, null],
    ['paid-up loan: unlock', { status: 5, deviceType: 0, overduePaise: 0 }, 'unlock', {}, null],
    ['paid-up loan: camera unlock', { status: 5, deviceType: 0, overduePaise: 0 }, 'camera_unlock', {}, null],
    ['paid-up loan: release', { status: 5, deviceType: 0, overduePaise: 0 }, 'uninstall', {}, null],
    ['paid-up loan: locate', { status: 5, deviceType: 0, overduePaise: 0 }, 'location', {}, null],
    ['a reason on an unlock is not kept', INSTALLED_OVERDUE, 'unlock', { category: 'fraud_or_theft' }, null],
  ] as const)('%s', (_what, facts, name, given, reason) => {
    expect(judgeCommand(facts, name, given)).toEqual({ ok: true, reason });
  });

  it('lists the statuses that take a restriction, and those that take anything freeing', () => {
    expect(statusesAllowing('restricts')).toEqual([0, 1, 2, 6]);
    expect(statusesAllowing('frees')).toEqual([0, 1, 2, 5, 6]);
  });
});

describe('the lock screen follows the reason category', () => {
  it('has a headline for every category', () => {
    for (const category of LOCK_REASON_CATEGORIES) expect(LOCK_SCREEN_HEADLINES[category]).toMatch(/locked/);
  });

  it('shows the amount overdue and how to pay only when something is', () => {
    const base = {
      retailerName: 'Ravi Mobiles',
      retailerPhone: '+919876543210',
      howToPay: 'UPI ravi@okaxis\nor cash at the shop',
    };
    expect(lockScreenLines({ ...base, reason: 'customer_request', overduePaise: 0 })).toEqual([
      'This phone is locked at your request.',
      'Call Ravi Mobiles on +919876543210.',
      'Emergency calls: allowed',
    ]);
    expect(
      lockScreenLines({ ...base, reason: 'overdue_emi', overduePaise: 250_050 }, ['Code: 123456']),
    ).toEqual([
      'This phone is locked because an EMI is overdue.',
      'Call Ravi Mobiles on +919876543210.',
      'Overdue: ₹2,500.50',
      'How to pay: UPI ravi@okaxis / or cash at the shop',
      'Code: 123456',
      'Emergency calls: allowed',
    ]);
  });

  it('builds the lost-mode text from the category, never from free text', () => {
    expect(lostModeMessage('fraud_or_theft', { name: 'Ravi Mobiles', phone: '+919876543210' })).toBe(
      'This phone is locked: it was reported stolen or is under a fraud check. Call Ravi Mobiles on +919876543210.',
    );
    expect(lostModeMessage('customer_request', null).length).toBeLessThanOrEqual(160);
  });
});

describe('commandOfferFor: what a screen offers (issue 25)', () => {
  it.each([
    ['paid-up lock', { status: 5, deviceType: 0, overduePaise: 0 }, 'lock', { kind: 'refused' }],
    ['released unlock', { status: 3, deviceType: 0, overduePaise: 0 }, 'unlock', { kind: 'refused' }],
    ['an unlock takes no reason', INSTALLED_OVERDUE, 'unlock', { kind: 'allowed', reason: null }],
    [
      'overdue lock: any category, overdue EMI implied',
      INSTALLED_OVERDUE,
      'lock',
      {
        kind: 'allowed',
        reason: {
          categories: ['overdue_emi', 'customer_request', 'fraud_or_theft', 'device_misuse', 'other'],
          isRequired: false,
          implied: 'overdue_emi',
        },
      },
    ],
    [
      'nothing overdue: a category that is not a payment, required',
      INSTALLED_PAID_UP,
      'lock',
      {
        kind: 'allowed',
        reason: {
          categories: ['customer_request', 'fraud_or_theft', 'device_misuse', 'other'],
          isRequired: true,
          implied: null,
        },
      },
    ],
    [
      'managed Android overdue: never a payment, required',
      { status: 1, deviceType: 1, overduePaise: 9_000 },
      'camera_lock',
      {
        kind: 'allowed',
        reason: {
          categories: ['customer_request', 'fraud_or_theft', 'device_misuse', 'other'],
          isRequired: true,
          implied: null,
        },
      },
    ],
    [
      'nothing overdue: a camera lock may name a reason, needs none',
      INSTALLED_PAID_UP,
      'camera_lock',
      {
        kind: 'allowed',
        reason: {
          categories: ['customer_request', 'fraud_or_theft', 'device_misuse', 'other'],
          isRequired: false,
          implied: null,
        },
      },
    ],
  ] as const)('%s', (_what, facts, name, expected) => {
    expect(commandOfferFor(facts, name)).toMatchObject(expected);
  });
});
