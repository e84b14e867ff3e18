import type { TConfig } from '../../config';

/**
 * Every SMS Kisht sends, as the DLT content template registered for it (docs/sms.md). Indian
 * operators deliver a business SMS only when its text matches a template registered on a DLT
 * platform, with each `{#var#}` standing for at most 30 characters (MSG91's DLT Content Template
 * FAQs, https://msg91.com/help/dlt-content-template-faqs). So no code builds SMS text by hand: a
 * caller names a kind and gives its variables, and the text is rendered here. This is the one
 * place the texts live; docs/sms.md lists them verbatim (sms-templates.test.ts checks it).
 */

/** Why an SMS is sent: an OTP purpose of spec §4, or a notice. */
export type TSmsPurpose =
  | 'LOGIN'
  | 'FORGOT_PASSWORD'
  | 'UNINSTALL'
  | 'BYPASS_CODE'
  | 'SIM_CHANGE'
  /** The organisation admin's answer to a join request (modules/joining). */
  | 'SIGNUP_DECISION'
  /** An extended warranty ends within 30 days (modules/warranty). */
  | 'WARRANTY_EXPIRY'
  /** An instalment is due soon, today or overdue (modules/reminders, issue 29). */
  | 'EMI_REMINDER';

/** A DLT template's placeholder, as every DLT platform writes it. */
export const DLT_PLACEHOLDER = '{#var#}';

/** The longest value a DLT placeholder may stand for, characters (English and Unicode alike). */
export const DLT_VARIABLE_MAX_LENGTH = 30;

/** The config keys holding each kind's template id at the SMS provider (MSG91). */
export type TSmsTemplateConfigKey = Extract<keyof TConfig, `SMS_TEMPLATE_${string}`>;

type TSmsTemplate = {
  /** The text as registered on the DLT platform, one DLT_PLACEHOLDER per variable. */
  text: string;
  /** The variables' names, in the order of the placeholders (MSG91's template uses ##name##). */
  variables: readonly string[];
  /** Where the provider's id of this template is configured. */
  configKey: TSmsTemplateConfigKey;
};

/** The registered templates, by kind. */
export const SMS_TEMPLATES = {
  /** Every OTP purpose: LOGIN, FORGOT_PASSWORD, UNINSTALL, BYPASS_CODE. */
  OTP: {
    text: '{#var#} is your Kisht OTP. It expires in {#var#} minutes.',
    variables: ['otp', 'minutes'],
    configKey: 'SMS_TEMPLATE_OTP',
  },
  /** To the retailer, when a customer's phone reports other SIMs (modules/devices). */
  SIM_CHANGE: {
    text: "Kisht: SIM changed on {#var#}'s phone. Now {#var#}; before {#var#}.",
    variables: ['customer', 'now', 'before'],
    configKey: 'SMS_TEMPLATE_SIM_CHANGE',
  },
  /** To a buyer whose extended warranty ends within 30 days; `imei` is " (IMEI …)" or empty. */
  WARRANTY_EXPIRY: {
    text: '{#var#}: Dear {#var#}, the extended warranty {#var#} of your phone{#var#} ends on {#var#}. Visit your shop to renew it.',
    variables: ['company', 'name', 'code', 'imei', 'endsOn'],
    configKey: 'SMS_TEMPLATE_WARRANTY',
  },
  /**
   * A payment reminder to the customer (modules/reminders, issue 29); `when` is "is due on
   * DD-MM-YYYY", "is due today" or "was due on DD-MM-YYYY".
   */
  EMI_REMINDER: {
    text: '{#var#}: Dear {#var#}, your EMI of {#var#} {#var#}. Please pay at your shop or with your EMI PIN.',
    variables: ['company', 'name', 'amount', 'when'],
    configKey: 'SMS_TEMPLATE_EMI_REMINDER',
  },
  /** A join request approved (modules/joining). */
  SIGNUP_APPROVED: {
    text: 'Welcome to Kisht: your shop {#var#} can now log in with {#var#}.',
    variables: ['shop', 'mobile'],
    configKey: 'SMS_TEMPLATE_SIGNUP_APPROVED',
  },
  /** A join request declined (modules/joining). */
  SIGNUP_DECLINED: {
    text: 'Thank you for your interest in Kisht. We cannot add {#var#} just now; please contact us for details.',
    variables: ['shop'],
    configKey: 'SMS_TEMPLATE_SIGNUP_DECLINED',
  },
} as const satisfies Record<string, TSmsTemplate>;

/** A kind of SMS: one registered DLT template. */
export type TSmsKind = keyof typeof SMS_TEMPLATES;

/** The variables of a kind, by name; every one is required. */
export type TSmsVariables<K extends TSmsKind> = Record<
  (typeof SMS_TEMPLATES)[K]['variables'][number],
  string
>;

/** One SMS as its template kind and the values of its variables. */
export type TSmsContent = { [K in TSmsKind]: { kind: K; variables: TSmsVariables<K> } }[TSmsKind];

/**
 * The kinds each purpose may send. A purpose missing here sends no SMS at all: retailer free text
 * and advertisements have no registered template, so they go to the phone (modules/devices), never
 * by SMS.
 */
export const SMS_KINDS_BY_PURPOSE: Readonly<Record<TSmsPurpose, readonly TSmsKind[]>> = {
  LOGIN: ['OTP'],
  FORGOT_PASSWORD: ['OTP'],
  UNINSTALL: ['OTP'],
  BYPASS_CODE: ['OTP'],
  SIM_CHANGE: ['SIM_CHANGE'],
  SIGNUP_DECISION: ['SIGNUP_APPROVED', 'SIGNUP_DECLINED'],
  WARRANTY_EXPIRY: ['WARRANTY_EXPIRY'],
  EMI_REMINDER: ['EMI_REMINDER'],
};

const isSmsKind = (kind: unknown): kind is TSmsKind =>
  typeof kind === 'string' && Object.hasOwn(SMS_TEMPLATES, kind);

/**
 * Checks that `purpose` may send an SMS of `content`'s kind with every variable given as a string,
 * and renders its text (placeholders filled in order). Throws a plain Error, a programming error,
 * when the purpose has no registered template, the kind is not one of the purpose's, or a variable
 * is missing.
 */
export const renderSmsFor = (purpose: TSmsPurpose, content: TSmsContent): string => {
  const kinds: readonly TSmsKind[] | undefined = Object.hasOwn(SMS_KINDS_BY_PURPOSE, purpose)
    ? SMS_KINDS_BY_PURPOSE[purpose]
    : undefined;
  if (!kinds) {
    throw new Error(`SMS purpose ${String(purpose)} has no registered DLT template; it cannot go by SMS`);
  }
  if (!kinds.includes(content.kind)) {
    throw new Error(`SMS purpose ${purpose} does not send the ${String(content.kind)} template`);
  }
  return renderSms(content);
};

/** Renders a kind's text with its variables; throws when the kind is unknown or a variable missing. */
export const renderSms = (content: TSmsContent): string => {
  if (!isSmsKind(content.kind)) throw new Error(`Unknown SMS template ${String(content.kind)}`);
  const template: TSmsTemplate = SMS_TEMPLATES[content.kind];
  const values: Record<string, unknown> = content.variables;
  const missing = template.variables.filter((name) => typeof values[name] !== 'string');
  if (missing.length > 0) {
    throw new Error(`SMS template ${content.kind} is missing ${missing.join(', ')}`);
  }
  let index = 0;
  return template.text.replaceAll(DLT_PLACEHOLDER, () => values[template.variables[index++]!] as string);
};

/**
 * Reads a stored kind and variables back (sms_outbox.template_kind, template_vars): the content, or
 * null when the row has none (queued before templates, or cleared) or they do not fit the template.
 */
export const parseSmsContent = (kind: unknown, variables: unknown): TSmsContent | null => {
  if (!isSmsKind(kind) || typeof variables !== 'object' || variables === null) return null;
  const values = variables as Record<string, unknown>;
  const names: readonly string[] = SMS_TEMPLATES[kind].variables;
  if (!names.every((name) => typeof values[name] === 'string')) return null;
  return { kind, variables: Object.fromEntries(names.map((name) => [name, values[name]])) } as TSmsContent;
};

/**
 * A variable's value as a DLT placeholder may carry it: at most DLT_VARIABLE_MAX_LENGTH characters
 * (code points), cut at the end. A longer value would make the operator drop the whole SMS.
 */
export const toDltValue = (value: string): string =>
  Array.from(value).slice(0, DLT_VARIABLE_MAX_LENGTH).join('');
