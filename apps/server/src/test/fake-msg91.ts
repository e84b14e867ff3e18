import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DLT_VARIABLE_MAX_LENGTH, SMS_TEMPLATES, type TSmsKind } from '../modules/sms/sms-templates';

/** One SMS the fake accepted: the template's kind and id, the sender, the number and the variables. */
export type TFakeMsg91Sms = {
  kind: TSmsKind;
  templateId: string;
  sender: string;
  mobile: string;
  variables: Record<string, string>;
};

/** What the fake MSG91 account holds: its auth key, its DLT header and a template id per kind. */
export type TFakeMsg91Account = {
  authKey: string;
  senderId: string;
  templateIds: Record<TSmsKind, string>;
};

/** A fake account whose template ids look like MSG91's (24 hex digits). */
export const FAKE_MSG91_ACCOUNT: TFakeMsg91Account = {
  authKey: '412345AbCdEfGhIjKlMnOp1',
  senderId: 'KISHTI',
  templateIds: {
    OTP: '6650a1f0d6fc05123a4b0001',
    SIM_CHANGE: '6650a1f0d6fc05123a4b0002',
    WARRANTY_EXPIRY: '6650a1f0d6fc05123a4b0003',
    SIGNUP_APPROVED: '6650a1f0d6fc05123a4b0004',
    SIGNUP_DECLINED: '6650a1f0d6fc05123a4b0005',
    EMI_REMINDER: '6650a1f0d6fc05123a4b0006',
  },
};

/**
 * The Kisht server's settings for SMS through the fake account: SMS_PROVIDER=msg91, its auth key and
 * sender, and each SMS kind's template id under its config key (SMS_TEMPLATES). Add MSG91_API_URL.
 */
export const FAKE_MSG91_ENV: Record<string, string> = {
  SMS_PROVIDER: 'msg91',
  MSG91_AUTH_KEY: FAKE_MSG91_ACCOUNT.authKey,
  SMS_SENDER_ID: FAKE_MSG91_ACCOUNT.senderId,
  ...Object.fromEntries(
    (Object.keys(SMS_TEMPLATES) as TSmsKind[]).map((kind) => [
      SMS_TEMPLATES[kind].configKey,
      FAKE_MSG91_ACCOUNT.templateIds[kind],
    ]),
  ),
};

type TRecipient = Record<string, unknown>;

/**
 * A fake MSG91 on an ephemeral port that speaks its Flow API as msg91.transport.ts cites it:
 * POST /api/v5/flow with the `authkey` header and { template_id, sender, short_url, recipients:
 * [{ mobiles, <variable>… }] }. Like MSG91 with a DLT template mapped in its panel, it checks the
 * auth key (401), that the template id is one of the account's, the sender id, that each number is
 * an Indian mobile in international format without "+", and that every variable of the template is
 * present and at most 30 characters (what DLT scrubbing drops); a refusal answers 400 with
 * { type: 'error', message }. Accepted SMS answer { type: 'success', message: <request id> } and
 * are recorded in `received`. `failNext`, `answerNext` and `hangNext` script the next answers
 * (MSG91's side failing, an odd answer, no answer). `url` is the API base for MSG91_API_URL.
 */
export const startFakeMsg91 = async (account: TFakeMsg91Account = FAKE_MSG91_ACCOUNT) => {
  const received: TFakeMsg91Sms[] = [];
  /** Answers given before any check, in order: a status and body, or 'hang' (never answer). */
  const scripted: ({ status: number; body: string } | 'hang')[] = [];
  const hanging: ServerResponse[] = [];
  let requests = 0;
  const kindOfTemplate = new Map(
    (Object.entries(account.templateIds) as [TSmsKind, string][]).map(([kind, id]) => [id, kind]),
  );

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.statusCode = status;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(body));
  };
  const refuse = (response: ServerResponse, status: number, message: string) =>
    answer(response, status, { type: 'error', message });

  /** The refusal of one recipient, or null when it fits the template. */
  const checkRecipient = (kind: TSmsKind, recipient: TRecipient): string | null => {
    if (typeof recipient.mobiles !== 'string' || !/^91[6-9]\d{9}$/.test(recipient.mobiles)) {
      return 'Mobile number not valid';
    }
    for (const name of SMS_TEMPLATES[kind].variables) {
      const value = recipient[name];
      if (typeof value !== 'string') return `Variable ${name} missing`;
      if (Array.from(value).length > DLT_VARIABLE_MAX_LENGTH) return `Variable ${name} is too long for DLT`;
    }
    return null;
  };

  const handle = (request: IncomingMessage, response: ServerResponse, raw: string) => {
    requests += 1;
    const next = scripted.shift();
    if (next === 'hang') {
      hanging.push(response);
      return;
    }
    if (next) {
      response.statusCode = next.status;
      response.end(next.body);
      return;
    }
    if (request.method !== 'POST' || request.url?.replace(/\/+$/, '') !== '/api/v5/flow') {
      return refuse(response, 404, 'Not found');
    }
    if (request.headers.authkey !== account.authKey) return refuse(response, 401, 'Authentication failure');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return refuse(response, 400, 'Invalid JSON');
    }
    const templateId = typeof body.template_id === 'string' ? body.template_id : '';
    const kind = kindOfTemplate.get(templateId);
    if (!kind) return refuse(response, 400, 'Template ID is not valid');
    if (body.sender !== account.senderId) return refuse(response, 400, 'Sender ID not approved');
    const recipients = body.recipients;
    if (!Array.isArray(recipients) || recipients.length === 0) {
      return refuse(response, 400, 'Recipients missing');
    }
    for (const recipient of recipients as TRecipient[]) {
      const problem = checkRecipient(kind, recipient);
      if (problem) return refuse(response, 400, problem);
    }
    for (const recipient of recipients as TRecipient[]) {
      const { mobiles, ...variables } = recipient;
      received.push({
        kind,
        templateId,
        sender: account.senderId,
        mobile: mobiles as string,
        variables: variables as Record<string, string>,
      });
    }
    return answer(response, 200, { type: 'success', message: randomBytes(12).toString('hex') });
  };

  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      raw += chunk;
    });
    request.on('end', () => handle(request, response, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** The API base (MSG91_API_URL); the Flow API is {url}/flow. */
    url: `http://127.0.0.1:${port}/api/v5`,
    account,
    /** The SMS accepted so far, oldest first. */
    received,
    /** How many requests arrived, accepted or not. */
    requests: () => requests,
    /** The next `times` requests answer `status` with MSG91's error JSON (e.g. 503). */
    failNext: (status: number, times = 1) => {
      const body = JSON.stringify({ type: 'error', message: 'Service temporarily unavailable' });
      for (let i = 0; i < times; i += 1) scripted.push({ status, body });
    },
    /** The next request gets exactly this answer (a raw body: JSON or not). */
    answerNext: (status: number, body: string) => {
      scripted.push({ status, body });
    },
    /** The next request is never answered (until close). */
    hangNext: () => {
      scripted.push('hang');
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** A running fake MSG91. */
export type TFakeMsg91 = Awaited<ReturnType<typeof startFakeMsg91>>;
