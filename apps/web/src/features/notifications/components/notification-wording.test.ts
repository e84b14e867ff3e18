import { createInstance, type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../../../public/locales/en.json';
import hn from '../../../../public/locales/hn.json';
import { notificationWording } from './notification-wording';

const tFor = async (lng: 'en' | 'hn'): Promise<TFunction> => {
  const instance = createInstance();
  await instance.init({
    lng,
    fallbackLng: 'en',
    resources: { en: { translation: en }, hn: { translation: hn } },
    interpolation: { escapeValue: false },
  });
  return instance.t;
};

const about = { customerName: 'Priya Patel' };

describe('notificationWording: each kind in the reader’s language, from its params', () => {
  it.each([
    [
      'sim_changed',
      { customerName: 'Priya Patel', operator: 'Airtel' },
      false,
      'SIM changed',
      "Priya Patel's phone has a new SIM: Airtel.",
    ],
    [
      'phone_offline',
      { customerName: 'Priya Patel', days: 3, lastSeenAt: '2026-11-20T04:30:00.000Z' },
      false,
      'Phone offline',
      "Priya Patel's phone has been offline for 3 days (last seen 20-11-2026 10:00 AM).",
    ],
    [
      'lock_failed',
      { customerName: 'Priya Patel', reason: 'device admin missing' },
      false,
      'Lock failed',
      "The lock of Priya Patel's phone did not go through: device admin missing.",
    ],
    [
      'payment_received',
      { customerName: 'Priya Patel', amountPaise: 250_050, receiptNo: 'KR-41-000007' },
      false,
      'Payment received',
      '₹2,500.50 received from Priya Patel (receipt KR-41-000007).',
    ],
    [
      'payment_received',
      { customerName: 'Priya Patel', amountPaise: 250_050, receiptNo: 'KR-41-000007' },
      true,
      'Payment received',
      'Your payment of ₹2,500.50 was received (receipt KR-41-000007).',
    ],
    [
      'plan_expiring',
      { customerName: 'Priya Patel', planName: 'Anti-Hacking Pro', endsOn: '2026-12-03' },
      true,
      'Plan ending soon',
      'Your Anti-Hacking Pro plan ends on 03-12-2026. Renew it at your shop.',
    ],
    [
      'keys_low',
      { appType: 0, balance: 4 },
      false,
      'Keys running low',
      'Only 4 Device policy controller keys left. Top up to keep enrolling phones.',
    ],
    [
      'webhook_disabled',
      { url: 'https://lender.example/kisht' },
      false,
      'Webhook stopped',
      'Webhooks to https://lender.example/kisht stopped: it did not answer for over a day. Fix it and enable it again.',
    ],
  ] as const)('%s (customer reader: %s)', async (kind, params, isCustomer, title, text) => {
    const t = await tFor('en');
    expect(notificationWording(t, { kind, params, customerName: null }, isCustomer)).toEqual({ title, text });
  });

  it('speaks Hindi, and an empty slot as “no SIM”', async () => {
    const t = await tFor('hn');
    expect(
      notificationWording(
        t,
        { kind: 'sim_changed', params: { ...about, operator: '' }, customerName: null },
        false,
      ),
    ).toEqual({ title: 'SIM बदला गया', text: 'Priya Patel के फ़ोन में नया SIM है: कोई SIM नहीं।' });
    expect(
      notificationWording(
        t,
        {
          kind: 'payment_received',
          params: { ...about, amountPaise: 100_000, receiptNo: 'KR-41-000001' },
          customerName: null,
        },
        false,
      ).text,
    ).toBe('Priya Patel से ₹1,000.00 प्राप्त हुए (रसीद KR-41-000001)।');
  });
});
