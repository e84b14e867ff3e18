import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FAKE_WHATSAPP_ACCOUNT,
  signedStatusesPayload,
  startFakeWhatsApp,
  type TFakeWhatsApp,
} from '../../test/fake-whatsapp';
import { createCloudWhatsAppTransport } from './whatsapp.transport';
import { isValidWhatsAppSignature, statusesOfWebhook, verificationChallenge } from './whatsapp-webhook';

const APP_SECRET = '3f1c9a0e5b7d4c2a8e6f1b0d9c7a5e3f';

let fake: TFakeWhatsApp | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await fake?.close();
  if (receiver) await new Promise<void>((resolve) => receiver!.close(() => resolve()));
  fake = undefined;
  receiver = undefined;
});

/** A stand-in for our webhook route on an ephemeral port: keeps each POST's raw bytes and headers. */
const startReceiver = async () => {
  const posts: { raw: Buffer; headers: IncomingHttpHeaders }[] = [];
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      posts.push({ raw: Buffer.concat(chunks), headers: request.headers });
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/whatsapp`, posts };
};

const signatureOf = (secret: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('isValidWhatsAppSignature (X-Hub-Signature-256)', () => {
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

  it('accepts the HMAC-SHA256 of the raw body under the app secret', () => {
    expect(isValidWhatsAppSignature(APP_SECRET, body, signatureOf(APP_SECRET, body))).toBe(true);
    const hex = signatureOf(APP_SECRET, body).slice('sha256='.length);
    expect(isValidWhatsAppSignature(APP_SECRET, body, `sha256=${hex.toUpperCase()}`)).toBe(true);
  });

  it('refuses a changed body or another secret', () => {
    const signature = signatureOf(APP_SECRET, body);
    expect(isValidWhatsAppSignature(APP_SECRET, Buffer.from(`${body} `), signature)).toBe(false);
    expect(isValidWhatsAppSignature('another-app-secret', body, signature)).toBe(false);
  });

  it.each<[string, string | undefined]>([
    ['missing', undefined],
    ['empty', ''],
    ['without its prefix', signatureOf(APP_SECRET, body).slice('sha256='.length)],
    ['sha1', signatureOf(APP_SECRET, body).replace('sha256=', 'sha1=')],
    ['too short', signatureOf(APP_SECRET, body).slice(0, -2)],
    ['too long', `${signatureOf(APP_SECRET, body)}00`],
    ['not hex', `sha256=${'zz'.repeat(32)}`],
    ['two signatures', `${signatureOf(APP_SECRET, body)},${signatureOf(APP_SECRET, body)}`],
  ])('refuses a header that is %s', (_, header) => {
    expect(isValidWhatsAppSignature(APP_SECRET, body, header)).toBe(false);
  });

  it('refuses everything when the app secret is not set (anyone can sign with an empty key)', () => {
    expect(isValidWhatsAppSignature('', body, signatureOf('', body))).toBe(false);
  });
});

describe('statuses webhook from the fake Cloud API', () => {
  it('arrives signed over its exact bytes and gives each status with its wamid, time, reference and error', async () => {
    fake = await startFakeWhatsApp();
    const { url, posts } = await startReceiver();
    const transport = createCloudWhatsAppTransport({
      apiUrl: fake.url,
      phoneNumberId: FAKE_WHATSAPP_ACCOUNT.phoneNumberId,
      accessToken: FAKE_WHATSAPP_ACCOUNT.accessToken,
      timeoutMs: 2_000,
    });
    const reminder = {
      to: '+919876543210',
      templateName: 'emi_reminder',
      languageCode: 'mr',
      bodyParameters: ['Patil Mobile Point', 'Priya Patel', '₹2,450', 'was due on 01-08-2025'],
      reference: 'emi-reminder:4821:2025-08-01',
    };
    const delivered = await transport.sendTemplate(reminder);
    const failed = await transport.sendTemplate({
      ...reminder,
      to: '+919822001122',
      reference: 'emi-reminder:77:2025-08-01',
    });
    const sentAt = new Date('2025-08-05T04:00:00Z');
    const readAt = new Date('2025-08-05T04:12:09Z');

    const response = await fake.webhook({
      target: url,
      appSecret: APP_SECRET,
      statuses: [
        { messageId: delivered.messageId, status: 'sent', at: sentAt },
        { messageId: delivered.messageId, status: 'delivered', at: sentAt },
        { messageId: delivered.messageId, status: 'read', at: readAt },
        { messageId: failed.messageId, status: 'failed', errorCode: 131026, at: sentAt },
      ],
    });
    expect(response.status).toBe(200);

    const [post] = posts;
    expect(post!.headers['content-type']).toBe('application/json');
    expect(
      isValidWhatsAppSignature(APP_SECRET, post!.raw, post!.headers['x-hub-signature-256'] as string),
    ).toBe(true);
    expect(
      isValidWhatsAppSignature(
        'another-app-secret',
        post!.raw,
        post!.headers['x-hub-signature-256'] as string,
      ),
    ).toBe(false);

    const payload = JSON.parse(post!.raw.toString('utf8')) as {
      entry: { changes: { value: { statuses: { recipient_id: string }[] } }[] }[];
    };
    expect(payload.entry[0]!.changes[0]!.value.statuses.map((s) => s.recipient_id)).toEqual([
      '919876543210',
      '919876543210',
      '919876543210',
      '919822001122',
    ]);
    expect(statusesOfWebhook(payload)).toEqual([
      {
        messageId: delivered.messageId,
        status: 'sent',
        at: sentAt,
        reference: reminder.reference,
        error: null,
      },
      {
        messageId: delivered.messageId,
        status: 'delivered',
        at: sentAt,
        reference: reminder.reference,
        error: null,
      },
      {
        messageId: delivered.messageId,
        status: 'read',
        at: readAt,
        reference: reminder.reference,
        error: null,
      },
      {
        messageId: failed.messageId,
        status: 'failed',
        at: sentAt,
        reference: 'emi-reminder:77:2025-08-01',
        error: expect.stringMatching(/^131026 Message undeliverable: /),
      },
    ]);
  });

  it('is signed over escaped unicode, so only the raw bytes verify, not re-serialised JSON', () => {
    const { body, signature } = signedStatusesPayload(APP_SECRET, [
      { messageId: 'wamid.HBgMOTE5ODc2NTQzMjEwFQIAERgSQUJD', status: 'delivered', reference: 'किश्त-4821' },
    ]);
    expect(body).toContain('\\u0915');
    expect(/[^\x20-\x7e]/.test(body)).toBe(false);
    expect(isValidWhatsAppSignature(APP_SECRET, Buffer.from(body), signature)).toBe(true);
    const reserialised = JSON.stringify(JSON.parse(body));
    expect(isValidWhatsAppSignature(APP_SECRET, Buffer.from(reserialised), signature)).toBe(false);
    expect(statusesOfWebhook(JSON.parse(body))).toEqual([
      expect.objectContaining({ reference: 'किश्त-4821' }),
    ]);
  });
});

describe('statusesOfWebhook on odd payloads', () => {
  const status = (overrides: Record<string, unknown> = {}) => ({
    id: 'wamid.A',
    status: 'delivered',
    timestamp: '1754366400',
    recipient_id: '919876543210',
    ...overrides,
  });
  const payloadOf = (changes: unknown[], object: unknown = 'whatsapp_business_account') => ({
    object,
    entry: [{ id: '102290129340398', changes }],
  });
  const change = (value: Record<string, unknown>, field = 'messages') => ({
    value: { messaging_product: 'whatsapp', metadata: {}, ...value },
    field,
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'statuses'],
    ['an array', []],
    ['another object', payloadOf([change({ statuses: [status()] })], 'page')],
    ['entry not a list', { object: 'whatsapp_business_account', entry: {} }],
  ])('gives nothing for %s', (_, payload) => {
    expect(statusesOfWebhook(payload)).toEqual([]);
  });

  it('skips unknown statuses and malformed entries, changes and statuses, keeps the rest in order, and ignores inbound messages', () => {
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        'not an entry',
        { id: '1', changes: 'not a list' },
        {
          id: '102290129340398',
          changes: [
            change({
              contacts: [{ profile: { name: 'Priya' }, wa_id: '919876543210' }],
              messages: [
                {
                  from: '919876543210',
                  id: 'wamid.IN',
                  timestamp: '1754366400',
                  type: 'text',
                  text: { body: 'Paid' },
                },
              ],
            }),
            change({
              statuses: [
                status({ id: 'wamid.1', status: 'sent', biz_opaque_callback_data: 'ref-1' }),
                status({ id: 'wamid.2', status: 'played' }),
                status({ id: 'wamid.3', status: 'deleted' }),
                status({ id: 'wamid.4', timestamp: 'yesterday' }),
                status({ id: '' }),
                status({ id: 'wamid.5', timestamp: 1754366400 }),
                'not a status',
                status({ id: 'wamid.6', status: 'read', biz_opaque_callback_data: '' }),
              ],
            }),
            change({ statuses: [status({ id: 'wamid.7' })] }, 'message_template_status_update'),
            { value: 'not a value', field: 'messages' },
          ],
        },
        {
          id: '2',
          changes: [
            change({
              statuses: [
                status({
                  id: 'wamid.8',
                  status: 'failed',
                  errors: [
                    { code: 131047, title: 'Re-engagement message', message: 'Re-engagement message' },
                  ],
                }),
              ],
            }),
          ],
        },
      ],
    };
    expect(statusesOfWebhook(payload)).toEqual([
      { messageId: 'wamid.1', status: 'sent', at: new Date(1754366400_000), reference: 'ref-1', error: null },
      {
        messageId: 'wamid.5',
        status: 'delivered',
        at: new Date(1754366400_000),
        reference: null,
        error: null,
      },
      { messageId: 'wamid.6', status: 'read', at: new Date(1754366400_000), reference: null, error: null },
      {
        messageId: 'wamid.8',
        status: 'failed',
        at: new Date(1754366400_000),
        reference: null,
        error: '131047 Re-engagement message',
      },
    ]);
  });
});

describe("verificationChallenge (Meta's GET on the webhook URL)", () => {
  const TOKEN = 'kisht-whatsapp-verify-7c1e';
  const query = (overrides: Record<string, unknown> = {}) => ({
    'hub.mode': 'subscribe',
    'hub.verify_token': TOKEN,
    'hub.challenge': '1158201444',
    ...overrides,
  });

  it('answers the challenge when the mode is subscribe and the token matches', () => {
    expect(verificationChallenge(query(), TOKEN)).toBe('1158201444');
  });

  it.each<[string, Record<string, unknown>, string?]>([
    ['another token', query({ 'hub.verify_token': 'guess' })],
    ['a token that only starts like ours', query({ 'hub.verify_token': TOKEN.slice(0, -1) })],
    ['no token', query({ 'hub.verify_token': undefined })],
    ['another mode', query({ 'hub.mode': 'unsubscribe' })],
    ['no mode', query({ 'hub.mode': undefined })],
    ['no challenge', query({ 'hub.challenge': undefined })],
    ['a repeated token', query({ 'hub.verify_token': [TOKEN, TOKEN] })],
    ['a challenge that is markup', query({ 'hub.challenge': '<script>alert(1)</script>' })],
    ['our token unset', query({ 'hub.verify_token': '' }), ''],
  ])('answers null for %s', (_, q, verifyToken = TOKEN) => {
    expect(verificationChallenge(q, verifyToken)).toBeNull();
  });
});
