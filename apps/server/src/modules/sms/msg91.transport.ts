import { SmsRejectedError, type SmsTransport } from './sms.transport';
import { SMS_TEMPLATES, type TSmsKind, toDltValue } from './sms-templates';

/*
 * MSG91's Flow API ("OneAPI", Send SMS by template), as its documentation gives it; checked against:
 * - https://docs.msg91.com/sms/send-sms (linked from PipedreamHQ/pipedream
 *   components/msg91/actions/send-sms/send-sms.mjs) and MSG91's older page of the same endpoint,
 *   https://control.msg91.com/apidoc/textsms/send-sms-flow.php: POST {base}/flow with the `authkey`
 *   header and a JSON body { template_id, short_url, recipients: [{ mobiles, <variable>: value }] }
 *   (the older page also has `sender`); `mobiles` in international format without "+"
 *   (919898989898). Success answers { "type": "success", "message": "<request id>" }.
 * - craftsys/msg91-php src/Support/Response.php: MSG91 reports a refusal as { "type": "error",
 *   "message": … }, sometimes with HTTP 200, so the type decides, not only the status.
 * - https://msg91.com/help/template/how-to-create-flow-id-to-send-sms-via-api: the template is made
 *   in MSG91's panel with the DLT template id, the sender id and the exact DLT text, its variables
 *   written ##name## and passed by that name (case-sensitive).
 * - https://msg91.com/help/dlt-key-points-for-b2b-platforms: the PE (entity) id can be passed as
 *   PE_ID in every MSG91 API "apart from OneAPI"; with OneAPI the header, entity and DLT template
 *   are mapped in the panel. So this request carries no PE id and no DLT template id: MSG91 adds
 *   them from the template id.
 * - https://msg91.com/help/dlt-content-template-faqs: a {#var#} carries at most 30 characters.
 */

/** What the MSG91 transport needs (from config: MSG91_*, SMS_SENDER_ID, SMS_TEMPLATE_*). */
export type TMsg91Settings = {
  /** MSG91's API base, e.g. https://control.msg91.com/api/v5 (the request goes to {apiUrl}/flow). */
  apiUrl: string;
  authKey: string;
  /** The 6-letter DLT header. */
  senderId: string;
  /** MSG91's template id for each kind. */
  templateIds: Record<TSmsKind, string>;
  /** How long one try may take, ms. */
  timeoutMs: number;
};

/** MSG91's answer, when it is the JSON it documents. */
type TMsg91Answer = { type?: unknown; message?: unknown };

/** HTTP statuses worth another try: the request timed out, too many requests, or MSG91's side failed. */
const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * SMS through MSG91's Flow API (SMS_PROVIDER=msg91): sends the SMS's DLT template, by MSG91's
 * template id with its variables (each cut to 30 characters, the DLT limit), from the sender id, to
 * the E.164 number without its "+". Each try is abandoned after timeoutMs (AbortSignal.timeout) or
 * when `signal` aborts. A 2xx answer of type "success" is success. A refusal, an answer of type
 * "error" or another 4xx (bad auth key, template, number or variables), throws SmsRejectedError, as
 * does an SMS without a template (MSG91 sends no free text); 408, 429, 5xx and an unreadable 2xx
 * throw a plain Error, worth another try.
 */
export const createMsg91SmsTransport = (settings: TMsg91Settings): SmsTransport => ({
  send: async ({ to }, options = {}) => {
    const { template } = options;
    if (!template) throw new SmsRejectedError('MSG91 sends only DLT templates; this SMS has none');
    const mobile = to.replace(/^\+/, '');
    if (!/^[1-9]\d{7,14}$/.test(mobile)) {
      throw new SmsRejectedError('MSG91 needs a mobile number in international format');
    }
    const values: Record<string, string> = template.variables;
    const recipient: Record<string, string> = { mobiles: mobile };
    for (const name of SMS_TEMPLATES[template.kind].variables) recipient[name] = toDltValue(values[name]!);
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const response = await fetch(`${settings.apiUrl.replace(/\/+$/, '')}/flow`, {
      method: 'POST',
      headers: {
        authkey: settings.authKey,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        template_id: settings.templateIds[template.kind],
        sender: settings.senderId,
        short_url: '0',
        recipients: [recipient],
      }),
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
    });
    const answer = await response
      .json()
      .then((json: unknown) => (typeof json === 'object' && json !== null ? (json as TMsg91Answer) : null))
      .catch(() => null);
    if (response.ok && answer?.type === 'success') return;
    const said = typeof answer?.message === 'string' ? `: ${answer.message.slice(0, 200)}` : '';
    const problem = `MSG91 answered ${response.status}${answer?.type === 'error' ? ' error' : ''}${said}`;
    if (isRetryableStatus(response.status)) throw new Error(problem);
    // A 2xx that is not MSG91's JSON (a proxy's page) says nothing of the SMS: try again.
    if (response.ok && answer?.type !== 'error') throw new Error(problem);
    throw new SmsRejectedError(problem);
  },
});
