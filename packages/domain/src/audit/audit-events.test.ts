import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../common/enums';
import {
  CONTROL_COMMAND_NAMES,
  isControlCommandName,
  MESSAGE_COMMAND_NAMES,
  ZAuditEvent,
} from './audit-events';

const DEVICE = '0190f3c2-7d1a-7000-8000-000000000001';
const COMMAND = '0190f3c2-7d1a-7000-8000-0000000000aa';

/** Entries as the server writes them (apps/server insertAudit call sites). */
const DESCRIBED: [string, unknown][] = [
  [
    'a status change',
    {
      action: 'customer.status',
      entity: 'customer',
      entityId: '7',
      details: { from: 1, to: 2, event: 'deactivate', reason: 'Customer asked to pause' },
    },
  ],
  [
    'a lock sent now, with its reason',
    {
      action: 'device.lock',
      entity: 'customer',
      entityId: '7',
      details: {
        deviceId: DEVICE,
        commandId: COMMAND,
        args: {},
        superseded: ['0190f3c2-7d1a-7000-8000-0000000000ab'],
        reasonCategory: 'fraud_or_theft',
        reason: 'reported stolen at the shop',
      },
    },
  ],
  [
    'an unlock scheduled, without a reason',
    {
      action: 'device.schedule_unlock',
      entity: 'customer',
      entityId: '7',
      details: { deviceId: DEVICE, commandId: COMMAND, args: {}, runAt: '2026-03-01T10:00:00.000Z' },
    },
  ],
  [
    'a SIM-tracking toggle (a spec §7 name)',
    {
      action: 'device.SIMTRACKINGON',
      entity: 'customer',
      entityId: '7',
      details: { deviceId: DEVICE, commandId: COMMAND, args: {}, superseded: [] },
    },
  ],
  [
    'an auto-lock ladder lock',
    {
      action: 'device.auto_lock',
      entity: 'customer',
      entityId: '7',
      details: { deviceId: DEVICE, commandId: COMMAND, args: {}, reasonCategory: 'overdue_emi' },
    },
  ],
  [
    'a message to one phone',
    {
      action: 'device.show_message',
      entity: 'customer',
      entityId: '7',
      details: { deviceId: DEVICE, commandId: COMMAND, args: { title: 'Hello', text: 'EMI due soon' } },
    },
  ],
  [
    'a bulk lock that skipped a customer',
    {
      action: 'device.bulk_lock',
      entity: 'batch',
      entityId: COMMAND,
      details: { total: 3, skipped: [{ customerId: 9, reason: 'nothing overdue' }], filter: 'overdue' },
    },
  ],
  [
    'a cancel by the scheduler',
    {
      action: 'device.cancel',
      entity: 'customer',
      entityId: '7',
      details: { deviceId: DEVICE, commandId: COMMAND, name: 'lock', why: 'not sent: EMIs completed' },
    },
  ],
  [
    'an offline lock by the offline limit',
    {
      action: 'device.offline_lock',
      entity: 'customer',
      entityId: '7',
      details: {
        deviceId: DEVICE,
        source: 'offline_limit',
        action: 'lock',
        lastCheckInAt: '2026-03-01T09:00:00.000Z',
        at: '2026-03-04T09:00:00.000Z',
      },
    },
  ],
  [
    'an Apple enrolment',
    {
      action: 'device.enrol',
      entity: 'customer',
      entityId: '7',
      details: { deviceId: DEVICE, channel: 'apple_mdm', udid: '00008110-000A' },
    },
  ],
  [
    'a payment allocated to two instalments',
    {
      action: 'emi.payment',
      entity: 'customer',
      entityId: '7',
      details: {
        paymentId: 4,
        receiptNo: 'KR-1-000004',
        amountPaise: 150_000,
        mode: 'upi',
        allocations: [
          { instalmentId: 11, amountPaise: 100_000 },
          { instalmentId: 12, amountPaise: 50_000 },
        ],
        isPaidOff: false,
      },
    },
  ],
  [
    'a settled key order',
    {
      action: 'payments.paid',
      entity: 'payment_order',
      entityId: 'order-1',
      details: {
        purpose: 'keys',
        amountPaise: 50_000,
        gatewayOrderId: 'order_N1',
        gatewayPaymentId: 'pay_N1',
        source: 'webhook',
        appType: 0,
        quantity: 5,
        isCredited: true,
      },
    },
  ],
  [
    'a declined join request',
    {
      action: 'signup.decline',
      entity: 'signup_request',
      entityId: '3',
      details: { mobile: '+919812345678', shopName: 'Shree Mobiles', userId: null },
    },
  ],
  ['a rotated EMI PIN', { action: 'emi.pin_rotated', entity: 'customer', entityId: '7', details: {} }],
  [
    'a push token FCM refused (issue 27)',
    {
      action: 'device.push_token_refused',
      entity: 'customer',
      entityId: '7',
      details: {
        deviceId: DEVICE,
        reason: 'rejected',
        fcmError: 'SENDER_ID_MISMATCH',
        tokenFingerprint: '0123456789abcdef',
      },
    },
  ],
];

/** Entries the union does not describe. */
const REFUSED: [string, unknown][] = [
  ['an unknown action', { action: 'customer.renamed', entity: 'customer', entityId: '7', details: {} }],
  [
    'a status change whose `to` is text',
    {
      action: 'customer.status',
      entity: 'customer',
      entityId: '7',
      details: { from: 1, to: 'deactive', event: 'deactivate', reason: 'x' },
    },
  ],
  [
    'a status change without its event',
    {
      action: 'customer.status',
      entity: 'customer',
      entityId: '7',
      details: { from: 1, to: 2, reason: 'x' },
    },
  ],
  [
    'a lock with a free-text reason category',
    {
      action: 'device.lock',
      entity: 'customer',
      entityId: '7',
      details: { deviceId: DEVICE, commandId: COMMAND, args: {}, superseded: [], reasonCategory: 'late' },
    },
  ],
  [
    'a PIN change that carries the sealed PIN',
    {
      action: 'device.change_pin',
      entity: 'customer',
      entityId: '7',
      details: { deviceId: DEVICE, commandId: COMMAND, superseded: [], args: { sealedPin: 'abc' } },
    },
  ],
  [
    'a status change on the wrong entity',
    {
      action: 'customer.status',
      entity: 'user',
      entityId: '7',
      details: { from: 1, to: 2, event: 'deactivate', reason: 'x' },
    },
  ],
  [
    'a bulk lock whose skipped list holds ids as text',
    {
      action: 'device.bulk_unlock',
      entity: 'batch',
      entityId: COMMAND,
      details: { total: 1, skipped: [{ customerId: '9', reason: 'not enrolled' }], filter: null },
    },
  ],
  [
    'an offline lock by a code without its challenge',
    {
      action: 'device.offline_unlock',
      entity: 'customer',
      entityId: '7',
      details: { deviceId: DEVICE, source: 'offline_code', action: 'unlock', at: '2026-03-04T09:00:00.000Z' },
    },
  ],
  [
    'a refused push token that carries the token itself',
    {
      action: 'device.push_token_refused',
      entity: 'customer',
      entityId: '7',
      details: {
        deviceId: DEVICE,
        reason: 'rejected',
        fcmError: 'SENDER_ID_MISMATCH',
        tokenFingerprint: '0123456789abcdef',
        token: 'fcm-token-1',
      },
    },
  ],
  [
    'a payment with an amount in rupees as text',
    {
      action: 'emi.payment',
      entity: 'customer',
      entityId: '7',
      details: {
        paymentId: 4,
        receiptNo: 'KR-1-000004',
        amountPaise: '1500.00',
        mode: 'upi',
        allocations: [],
        isPaidOff: false,
      },
    },
  ],
];

describe('ZAuditEvent (design §6: typed audit events)', () => {
  it.each(DESCRIBED)('describes %s', (_, entry) => {
    expect(ZAuditEvent.safeParse(entry).error).toBeUndefined();
  });

  it.each(REFUSED)('refuses %s', (_, entry) => {
    expect(ZAuditEvent.safeParse(entry).success).toBe(false);
  });

  it('audits every command name as device.<name> but change_pin and the messages, which have members of their own', () => {
    expect([...CONTROL_COMMAND_NAMES, 'change_pin', ...MESSAGE_COMMAND_NAMES].sort()).toEqual(
      [...COMMAND_NAMES].sort(),
    );
    expect(isControlCommandName('change_pin')).toBe(false);
    expect(isControlCommandName('offline_code_lock')).toBe(false);
    expect(isControlCommandName('usb_on')).toBe(true);
  });
});
