import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_WHATSAPP_ACCOUNT, startFakeWhatsApp, type TFakeWhatsApp } from '../../test/fake-whatsapp';
import {
  createCloudWhatsAppTransport,
  createLogWhatsAppTransport,
  type TWhatsAppCloudSettings,
  type TWhatsAppTemplateMessage,
  WhatsAppRejectedError,
} from './whatsapp.transport';

let fake: TFakeWhatsApp | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A fake Cloud API and a transport pointed at it (overrides change what the transport sends). */
const withFake = async (overrides: Partial<TWhatsAppCloudSettings> = {}, account = FAKE_WHATSAPP_ACCOUNT) => {
  fake = await startFakeWhatsApp(account);
  return createCloudWhatsAppTransport({
    apiUrl: fake.url,
    phoneNumberId: account.phoneNumberId,
    accessToken: account.accessToken,
    timeoutMs: 2_000,
    ...overrides,
  });
};

const REMINDER: TWhatsAppTemplateMessage = {
  to: '+919876543210',
  templateName: 'emi_reminder',
  languageCode: 'hi',
  bodyParameters: ['Patil Mobile Point', 'Priya Patel', '₹2,450', 'due on 05-08-2025'],
  reference: 'emi-reminder:4821:2025-08-05',
};

/** What a send came to: 'sent', 'rejected' (WhatsAppRejectedError: never retried) or 'retry' (plain Error). */
const outcomeOf = (sending: Promise<unknown>) =>
  sending.then(
    () => 'sent',
    (error: unknown) => (error instanceof WhatsAppRejectedError ? 'rejected' : 'retry'),
  );

/** The error a send rejected with (fails the test when it resolved). */
const errorOf = (sending: Promise<unknown>) =>
  sending.then(
    () => expect.unreachable('the send resolved'),
    (error: unknown) => error,
  );

describe('Cloud API WhatsApp transport against the fake Cloud API', () => {
  it('sends the template to the number without "+", with its language, parameters and reference, and answers the wamid', async () => {
    const transport = await withFake();
    const { messageId } = await transport.sendTemplate(REMINDER);
    expect(messageId).toMatch(/^wamid\./);
    expect(fake!.sent).toEqual([
      {
        messageId,
        to: '919876543210',
        templateName: 'emi_reminder',
        languageCode: 'hi',
        bodyParameters: ['Patil Mobile Point', 'Priya Patel', '₹2,450', 'due on 05-08-2025'],
        reference: 'emi-reminder:4821:2025-08-05',
      },
    ]);
    expect(fake!.received).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '919876543210',
        type: 'template',
        biz_opaque_callback_data: 'emi-reminder:4821:2025-08-05',
        template: {
          name: 'emi_reminder',
          language: { code: 'hi' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Patil Mobile Point' },
                { type: 'text', text: 'Priya Patel' },
                { type: 'text', text: '₹2,450' },
                { type: 'text', text: 'due on 05-08-2025' },
              ],
            },
          ],
        },
      },
    ]);
  });

  it('gives each message its own id, so statuses can be told apart', async () => {
    const transport = await withFake();
    const first = await transport.sendTemplate(REMINDER);
    const second = await transport.sendTemplate({ ...REMINDER, languageCode: 'ta', reference: 'other' });
    expect(first.messageId).not.toBe(second.messageId);
    expect(fake!.sent.map((m) => [m.messageId, m.languageCode])).toEqual([
      [first.messageId, 'hi'],
      [second.messageId, 'ta'],
    ]);
  });

  it('folds newlines, tabs and space runs in a parameter, which WhatsApp refuses', async () => {
    const transport = await withFake();
    const shop = 'Patil Mobile\nPoint,\tStation Road      Pune';
    await transport.sendTemplate({
      ...REMINDER,
      bodyParameters: [shop, ...REMINDER.bodyParameters.slice(1)],
    });
    expect(fake!.sent[0]!.bodyParameters[0]).toBe('Patil Mobile Point, Station Road Pune');
  });

  it('sends a template without variables with no components at all', async () => {
    const account = {
      ...FAKE_WHATSAPP_ACCOUNT,
      templates: { hello_world: { languages: ['en'], parameterCount: 0 } },
    };
    const transport = await withFake({}, account);
    await transport.sendTemplate({
      ...REMINDER,
      templateName: 'hello_world',
      languageCode: 'en',
      bodyParameters: [],
    });
    expect(fake!.received).toEqual([
      expect.objectContaining({ template: { name: 'hello_world', language: { code: 'en' } } }),
    ]);
    expect(fake!.sent).toHaveLength(1);
  });

  it.each<{
    name: string;
    settings?: Partial<TWhatsAppCloudSettings>;
    message?: Partial<TWhatsAppTemplateMessage>;
    code: number;
    said: RegExp;
  }>([
    {
      name: 'a wrong access token (401)',
      settings: { accessToken: 'EAA-revoked' },
      code: 190,
      said: /401.*access token/,
    },
    {
      name: 'a parameter count the template does not have',
      message: { bodyParameters: ['Patil Mobile Point', 'Priya Patel', '₹2,450'] },
      code: 132000,
      said: /localizable_params \(3\) does not match the expected number of params \(4\)/,
    },
    {
      name: 'a template WhatsApp does not know',
      message: { templateName: 'emi_reminder_v2' },
      code: 132001,
      said: /emi_reminder_v2/,
    },
    {
      name: 'a language the template is not approved in',
      message: { languageCode: 'ur' },
      code: 132001,
      said: /does not exist in ur/,
    },
    {
      name: 'another phone number id',
      settings: { phoneNumberId: '999999999999999' },
      code: 100,
      said: /999999999999999/,
    },
  ])(
    'takes $name as a refusal for good (WhatsAppRejectedError with the API code)',
    async ({ settings, message, code, said }) => {
      const transport = await withFake(settings);
      const error = await errorOf(transport.sendTemplate({ ...REMINDER, ...message }));
      expect(error).toBeInstanceOf(WhatsAppRejectedError);
      expect(error).toMatchObject({ code, message: expect.stringMatching(said) });
      expect(fake!.requests()).toBe(1);
      expect(fake!.sent).toEqual([]);
    },
  );

  it.each([
    '9876543210',
    '919876543210',
    '+91 98765 43210',
    '+0919876543210',
    '+1234567',
    '+1234567890123456',
    '',
  ])('refuses %j (not E.164) without asking WhatsApp', async (to) => {
    const transport = await withFake();
    expect(await outcomeOf(transport.sendTemplate({ ...REMINDER, to }))).toBe('rejected');
    expect(fake!.requests()).toBe(0);
  });

  it.each([500, 503, 429, 408])(
    'takes a %i from the Cloud API as worth another try (a plain Error)',
    async (status) => {
      const transport = await withFake();
      fake!.failNext(status);
      const error = await errorOf(transport.sendTemplate(REMINDER));
      expect(error).not.toBeInstanceOf(WhatsAppRejectedError);
      expect(error).toMatchObject({ message: expect.stringContaining(`answered ${status}`) });
      // The next try goes through.
      expect(await outcomeOf(transport.sendTemplate(REMINDER))).toBe('sent');
    },
  );

  it.each([130429, 131048, 131056])(
    'takes rate limit %i, sent as a 400, as worth another try',
    async (code) => {
      const transport = await withFake();
      fake!.failNext(400, { message: 'Rate limit hit', code });
      expect(await outcomeOf(transport.sendTemplate(REMINDER))).toBe('retry');
    },
  );

  it.each<[number, string]>([
    [200, '{"messaging_product":"whatsapp","contacts":[],"messages":[]}'],
    [200, '<html>a proxy page</html>'],
    [502, '<html>Bad Gateway</html>'],
  ])('takes %i %j as worth another try', async (status, body) => {
    const transport = await withFake();
    fake!.answerNext(status, body);
    expect(await outcomeOf(transport.sendTemplate(REMINDER))).toBe('retry');
  });

  it('takes a 400 that is not Graph JSON as a refusal, without a code', async () => {
    const transport = await withFake();
    fake!.answerNext(400, '<html>Bad Request</html>');
    expect(await errorOf(transport.sendTemplate(REMINDER))).toMatchObject({
      name: 'WhatsAppRejectedError',
      code: null,
    });
  });

  it('keeps the access token out of its errors', async () => {
    const transport = await withFake({ accessToken: 'EAA-secret-token-value' });
    const error = (await errorOf(transport.sendTemplate(REMINDER))) as Error;
    expect(error.message).not.toContain('EAA-secret-token-value');
  });

  it('abandons a try after its timeout, or when the caller aborts', async () => {
    const transport = await withFake({ timeoutMs: 200 });
    fake!.hangNext();
    const startedAt = Date.now();
    expect(await outcomeOf(transport.sendTemplate(REMINDER))).toBe('retry');
    expect(Date.now() - startedAt).toBeLessThan(2_000);

    const patient = createCloudWhatsAppTransport({
      apiUrl: fake!.url,
      phoneNumberId: FAKE_WHATSAPP_ACCOUNT.phoneNumberId,
      accessToken: FAKE_WHATSAPP_ACCOUNT.accessToken,
      timeoutMs: 30_000,
    });
    fake!.hangNext();
    const caller = new AbortController();
    const abortedAt = Date.now();
    setTimeout(() => caller.abort(), 100);
    await expect(patient.sendTemplate(REMINDER, { signal: caller.signal })).rejects.toThrow(/abort/i);
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
  });

  it('takes an unreachable Cloud API as worth another try', async () => {
    await withFake();
    const { url } = fake!;
    await fake!.close();
    fake = undefined;
    const transport = createCloudWhatsAppTransport({
      apiUrl: url,
      phoneNumberId: FAKE_WHATSAPP_ACCOUNT.phoneNumberId,
      accessToken: FAKE_WHATSAPP_ACCOUNT.accessToken,
      timeoutMs: 2_000,
    });
    expect(await outcomeOf(transport.sendTemplate(REMINDER))).toBe('retry');
  });
});

describe('log WhatsApp transport (development)', () => {
  const collectingLog = () => {
    const lines: { obj: object; msg: string }[] = [];
    return { lines, log: { info: (obj: object, msg: string) => lines.push({ obj, msg }) } };
  };

  it('logs the message instead of sending it and answers a made-up wamid each time', async () => {
    const { lines, log } = collectingLog();
    const transport = createLogWhatsAppTransport(log);
    const first = await transport.sendTemplate(REMINDER);
    const second = await transport.sendTemplate(REMINDER);
    expect(first.messageId).toMatch(/^wamid\.log-[0-9a-f-]{36}$/);
    expect(second.messageId).not.toBe(first.messageId);
    expect(lines[0]).toEqual({
      obj: {
        to: '+919876543210',
        templateName: 'emi_reminder',
        languageCode: 'hi',
        reference: 'emi-reminder:4821:2025-08-05',
        messageId: first.messageId,
      },
      msg: '[dev WhatsApp] emi_reminder (hi): Patil Mobile Point | Priya Patel | ₹2,450 | due on 05-08-2025',
    });
  });

  it('refuses a number that is not E.164, as the Cloud API transport does', async () => {
    const { lines, log } = collectingLog();
    expect(
      await outcomeOf(createLogWhatsAppTransport(log).sendTemplate({ ...REMINDER, to: '98765 43210' })),
    ).toBe('rejected');
    expect(lines).toEqual([]);
  });
});
