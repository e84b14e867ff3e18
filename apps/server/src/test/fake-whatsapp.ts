import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The Graph API version the fake answers under (its `url` ends with it). */
export const FAKE_WHATSAPP_API_VERSION = 'v21.0';

/** An approved template: the language codes it is approved in and how many body variables it has. */
export type TFakeWhatsAppTemplate = { languages: string[]; parameterCount: number };

/** What the fake WhatsApp Business Account holds: its phone number id, access token and templates by name. */
export type TFakeWhatsAppAccount = {
  phoneNumberId: string;
  accessToken: string;
  templates: Record<string, TFakeWhatsAppTemplate>;
};

/** An account with ids shaped like Meta's and the EMI reminder in every language Kisht uses (docs/whatsapp.md). */
export const FAKE_WHATSAPP_ACCOUNT: TFakeWhatsAppAccount = {
  phoneNumberId: '106540352242922',
  accessToken: 'EAAGm0PX4ZCpsBAFakeSystemUserTokenForTests',
  templates: {
    emi_reminder: {
      languages: ['en', 'hi', 'mr', 'gu', 'es', 'bn', 'kn', 'te', 'ta', 'pa'],
      parameterCount: 4,
    },
  },
};

/** The WhatsApp Business Account id and display number the fake's webhooks name in entry[].id and metadata. */
const FAKE_WABA_ID = '102290129340398';
const FAKE_DISPLAY_PHONE_NUMBER = '919988776655';

/** One template message the fake accepted: `to` as sent (digits, no "+"), reference = biz_opaque_callback_data. */
export type TFakeWhatsAppMessage = {
  messageId: string;
  to: string;
  templateName: string;
  languageCode: string;
  bodyParameters: string[];
  reference: string | null;
};

/**
 * One status for a webhook: the message id, the status, our reference (biz_opaque_callback_data),
 * WhatsApp's error code for 'failed' (default 131026), the recipient's WhatsApp id (digits; default
 * the number the message went to, else 919876543210) and when (default now).
 */
export type TFakeWhatsAppStatus = {
  messageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  reference?: string;
  errorCode?: number;
  recipientId?: string;
  at?: Date;
};

/** Titles WhatsApp gives delivery errors (error-codes page); others get a generic one. */
const STATUS_ERROR_TITLES: Record<number, string> = {
  131000: 'Something went wrong',
  131026: 'Message undeliverable',
  131047: 'Re-engagement message',
};

/** JSON with every non-ASCII character escaped as \uXXXX (lowercase hex), as Meta sends and signs it. */
const toEscapedJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/**
 * A statuses webhook as the Cloud API posts it (whatsapp-webhook.ts cites the shape): { object:
 * 'whatsapp_business_account', entry: [{ id, changes: [{ value: { messaging_product, metadata:
 * { display_phone_number, phone_number_id }, statuses: [{ id, status, timestamp (unix seconds,
 * string), recipient_id, biz_opaque_callback_data?, pricing? | errors? }] }, field: 'messages' }] }] },
 * serialised with non-ASCII escaped, and its X-Hub-Signature-256 value: "sha256=" + hex
 * HMAC-SHA256(appSecret, the body's exact bytes). A 'failed' status carries errors [{ code, title,
 * message, error_data: { details } }].
 */
export const signedStatusesPayload = (
  appSecret: string,
  statuses: TFakeWhatsAppStatus[],
  phoneNumberId: string = FAKE_WHATSAPP_ACCOUNT.phoneNumberId,
): { body: string; signature: string } => {
  const payload = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: FAKE_WABA_ID,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: FAKE_DISPLAY_PHONE_NUMBER, phone_number_id: phoneNumberId },
              statuses: statuses.map((status) => {
                const code = status.errorCode ?? 131026;
                const title = STATUS_ERROR_TITLES[code] ?? 'Message failed to send';
                return {
                  id: status.messageId,
                  status: status.status,
                  timestamp: String(Math.floor((status.at ?? new Date()).getTime() / 1000)),
                  recipient_id: status.recipientId ?? '919876543210',
                  ...(status.reference === undefined ? {} : { biz_opaque_callback_data: status.reference }),
                  ...(status.status === 'failed'
                    ? {
                        errors: [
                          {
                            code,
                            title,
                            message: title,
                            error_data: { details: `${title} (the fake WhatsApp's error ${code})` },
                          },
                        ],
                      }
                    : { pricing: { billable: true, pricing_model: 'PMP', category: 'utility' } }),
                };
              }),
            },
            field: 'messages',
          },
        ],
      },
    ],
  };
  const body = toEscapedJson(payload);
  return { body, signature: `sha256=${createHmac('sha256', appSecret).update(body, 'utf8').digest('hex')}` };
};

/** A Graph API refusal: HTTP status, error code (and subcode), message and error_data.details. */
type TRefusal = { status: number; code: number; message: string; subcode?: number; details?: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A malformed request body: 400, code 131009 "Parameter value is not valid", naming what is wrong. */
const malformed = (details: string): TRefusal => ({
  status: 400,
  code: 131009,
  message: '(#131009) Parameter value is not valid',
  details,
});

/**
 * A fake WhatsApp Cloud API on an ephemeral port that speaks the "messages" endpoint as
 * whatsapp.transport.ts cites it, and checks each request as the real API would: POST
 * /v21.0/<phoneNumberId>/messages (another path: 400 code 2500; another phone number id: 400 code
 * 100 subcode 33), `Authorization: Bearer <accessToken>` (else 401 code 190), a JSON body with
 * messaging_product 'whatsapp', recipient_type 'individual' if present, `to` in digits only, type
 * 'template', biz_opaque_callback_data a string of at most 512 characters, template { name,
 * language: { code }, components? } with text body parameters (else 400 code 131009), a known
 * template name approved in that language (else 400 code 132001), exactly the template's number of
 * body parameters (else 400 code 132000), and no newline, tab or 5 spaces in a row in a parameter
 * (else 400 code 100). Refusals are Graph errors { error: { message, type, code, error_data,
 * fbtrace_id } }. An accepted message answers { messaging_product, contacts: [{ input, wa_id }],
 * messages: [{ id: 'wamid.…', message_status: 'accepted' }] } and is recorded in `sent`; every
 * parsed body is kept in `received`. `failNext`, `answerNext` and `hangNext` script the next answers
 * (before any check). `webhook` posts signed statuses to our webhook URL.
 */
export const startFakeWhatsApp = async (account: TFakeWhatsAppAccount = FAKE_WHATSAPP_ACCOUNT) => {
  const sent: TFakeWhatsAppMessage[] = [];
  const received: unknown[] = [];
  const scripted: ({ status: number; body: string } | 'hang')[] = [];
  const hanging: ServerResponse[] = [];
  let requests = 0;

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.statusCode = status;
    response.setHeader('content-type', 'application/json; charset=UTF-8');
    response.end(JSON.stringify(body));
  };
  const graphError = ({ code, message, subcode, details }: Omit<TRefusal, 'status'>) => ({
    error: {
      message,
      type: 'OAuthException',
      code,
      ...(subcode === undefined ? {} : { error_subcode: subcode }),
      ...(details === undefined ? {} : { error_data: { messaging_product: 'whatsapp', details } }),
      fbtrace_id: randomBytes(9).toString('base64url'),
    },
  });

  /** The message a body asks for, or the refusal the real API would answer. */
  const checkBody = (raw: string): TRefusal | Omit<TFakeWhatsAppMessage, 'messageId'> => {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return malformed('The request body is not valid JSON');
    }
    received.push(body);
    if (!isRecord(body)) return malformed('The request body must be a JSON object');
    if (body.messaging_product !== 'whatsapp') return malformed("messaging_product must be 'whatsapp'");
    if (body.recipient_type !== undefined && body.recipient_type !== 'individual') {
      return malformed("recipient_type must be 'individual'");
    }
    if (typeof body.to !== 'string' || !/^\d{8,15}$/.test(body.to)) {
      return malformed('to must be the phone number with its country code, digits only');
    }
    if (body.type !== 'template') return malformed("type must be 'template'");
    const reference = body.biz_opaque_callback_data;
    if (reference !== undefined && (typeof reference !== 'string' || reference.length > 512)) {
      return malformed('biz_opaque_callback_data must be a string of at most 512 characters');
    }
    const template = body.template;
    if (!isRecord(template) || typeof template.name !== 'string' || !isRecord(template.language)) {
      return malformed('template must have a name and a language');
    }
    const languageCode = template.language.code;
    if (typeof languageCode !== 'string') return malformed('template.language.code is required');
    const components = template.components ?? [];
    if (!Array.isArray(components) || !components.every(isRecord)) {
      return malformed('template.components must be an array of components');
    }
    const bodyComponents = components.filter((component) => component.type === 'body');
    if (bodyComponents.length > 1) return malformed('template.components has more than one body');
    const parameters = bodyComponents[0]?.parameters ?? [];
    if (
      !Array.isArray(parameters) ||
      !parameters.every((p) => isRecord(p) && p.type === 'text' && typeof p.text === 'string')
    ) {
      return malformed("each body parameter must be { type: 'text', text: string }");
    }
    const bodyParameters = (parameters as { text: string }[]).map((p) => p.text);
    const approved = account.templates[template.name];
    if (!approved?.languages.includes(languageCode)) {
      return {
        status: 400,
        code: 132001,
        message: '(#132001) Template name does not exist in the translation',
        details: `template name (${template.name}) does not exist in ${languageCode}`,
      };
    }
    if (bodyParameters.length !== approved.parameterCount) {
      return {
        status: 400,
        code: 132000,
        message: '(#132000) Number of parameters does not match the expected number of params',
        details: `body: number of localizable_params (${bodyParameters.length}) does not match the expected number of params (${approved.parameterCount})`,
      };
    }
    if (bodyParameters.some((text) => /[\n\t]| {5}/.test(text))) {
      return {
        status: 400,
        code: 100,
        message: '(#100) Invalid parameter',
        details: 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
      };
    }
    return {
      to: body.to,
      templateName: template.name,
      languageCode,
      bodyParameters,
      reference: typeof reference === 'string' ? reference : null,
    };
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
      response.setHeader('content-type', 'application/json; charset=UTF-8');
      response.end(next.body);
      return;
    }
    const path = (request.url ?? '').split('?')[0] ?? '';
    const target = new RegExp(`^/${FAKE_WHATSAPP_API_VERSION.replace('.', '\\.')}/([^/]+)/messages$`).exec(
      path,
    );
    const refuse = (refusal: TRefusal) => answer(response, refusal.status, graphError(refusal));
    if (request.method !== 'POST' || !target) {
      return refuse({ status: 400, code: 2500, message: `Unknown path components: ${path}` });
    }
    if (request.headers.authorization !== `Bearer ${account.accessToken}`) {
      return refuse({
        status: 401,
        code: 190,
        message: 'Invalid OAuth access token - Cannot parse access token',
      });
    }
    if (decodeURIComponent(target[1]!) !== account.phoneNumberId) {
      return refuse({
        status: 400,
        code: 100,
        subcode: 33,
        message: `Unsupported post request. Object with ID '${target[1]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      });
    }
    if (!request.headers['content-type']?.startsWith('application/json')) {
      return refuse(malformed('The request body must be application/json'));
    }
    const checked = checkBody(raw);
    if ('code' in checked) return refuse(checked);
    const messageId = `wamid.${Buffer.from(`${checked.to}${randomBytes(12).toString('hex')}`).toString('base64')}`;
    sent.push({ messageId, ...checked });
    return answer(response, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: checked.to, wa_id: checked.to }],
      messages: [{ id: messageId, message_status: 'accepted' }],
    });
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** The Graph error a scripted failure answers when the test gives none. */
  const defaultError = (status: number) => {
    if (status === 429) return { message: '(#130429) Rate limit hit', code: 130429 };
    if (status === 503) return { message: '(#2) Service temporarily unavailable', code: 2 };
    if (status >= 500) return { message: '(#131000) Something went wrong', code: 131000 };
    if (status === 401)
      return { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 };
    return { message: '(#1) An unknown error occurred', code: 1 };
  };

  return {
    /** The API base with its version (WHATSAPP_API_URL); messages go to {url}/{phoneNumberId}/messages. */
    url: `http://127.0.0.1:${port}/${FAKE_WHATSAPP_API_VERSION}`,
    account,
    /** The messages accepted so far, oldest first. */
    sent,
    /** Every request body that parsed as JSON, accepted or not, oldest first. */
    received,
    /** How many requests arrived, accepted or not. */
    requests: () => requests,
    /** The next request answers `status` with a Graph error (by default one fitting the status). */
    failNext: (status: number, error?: { message: string; code: number }) => {
      scripted.push({ status, body: JSON.stringify(graphError(error ?? defaultError(status))) });
    },
    /** The next request gets exactly this answer (a raw body: JSON or not). */
    answerNext: (status: number, body: string) => {
      scripted.push({ status, body });
    },
    /** The next request is never answered (until close). */
    hangNext: () => {
      scripted.push('hang');
    },
    /**
     * POSTs a signed statuses webhook (signedStatusesPayload) to `target`, our webhook URL, as Meta
     * does: JSON with X-Hub-Signature-256. A status for a message in `sent` names its number as
     * recipient_id and, unless given, its reference. Answers our route's response.
     */
    webhook: async (options: { target: string; appSecret: string; statuses: TFakeWhatsAppStatus[] }) => {
      const statuses = options.statuses.map((status) => {
        const message = sent.find((m) => m.messageId === status.messageId);
        return {
          ...status,
          recipientId: status.recipientId ?? message?.to,
          reference: status.reference ?? message?.reference ?? undefined,
        };
      });
      const { body, signature } = signedStatusesPayload(options.appSecret, statuses, account.phoneNumberId);
      return fetch(options.target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'facebookexternalua',
          'x-hub-signature-256': signature,
        },
        body,
      });
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** A running fake WhatsApp Cloud API. */
export type TFakeWhatsApp = Awaited<ReturnType<typeof startFakeWhatsApp>>;
