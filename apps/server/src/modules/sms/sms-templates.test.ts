import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ZConfig } from '../../config';
import {
  DLT_PLACEHOLDER,
  parseSmsContent,
  renderSms,
  renderSmsFor,
  SMS_KINDS_BY_PURPOSE,
  SMS_TEMPLATES,
  type TSmsContent,
  type TSmsPurpose,
  toDltValue,
} from './sms-templates';

describe('SMS as DLT templates (issue 27)', () => {
  it.each<{ content: TSmsContent; text: string }>([
    {
      content: { kind: 'OTP', variables: { otp: '482913', minutes: '5' } },
      text: '482913 is your Kisht OTP. It expires in 5 minutes.',
    },
    {
      content: {
        kind: 'SIM_CHANGE',
        variables: { customer: 'Priya Patel', now: 'slot 1: Airtel …0123', before: 'slot 1: Jio …0999' },
      },
      text: "Kisht: SIM changed on Priya Patel's phone. Now slot 1: Airtel …0123; before slot 1: Jio …0999.",
    },
    {
      content: {
        kind: 'WARRANTY_EXPIRY',
        variables: {
          company: 'Kisht Demo',
          name: 'Ravi',
          code: 'EW-1042',
          imei: ' (IMEI 356938035643809)',
          endsOn: '12-08-2026',
        },
      },
      text: 'Kisht Demo: Dear Ravi, the extended warranty EW-1042 of your phone (IMEI 356938035643809) ends on 12-08-2026. Visit your shop to renew it.',
    },
    {
      content: {
        kind: 'SIGNUP_APPROVED',
        variables: { shop: 'Patil Mobile Point', mobile: '+919822001122' },
      },
      text: 'Welcome to Kisht: your shop Patil Mobile Point can now log in with +919822001122.',
    },
    {
      content: { kind: 'SIGNUP_DECLINED', variables: { shop: 'Patil Mobile Point' } },
      text: 'Thank you for your interest in Kisht. We cannot add Patil Mobile Point just now; please contact us for details.',
    },
  ])('renders $content.kind as the text sent before templates', ({ content, text }) => {
    expect(renderSms(content)).toBe(text);
  });

  it('has one placeholder per variable, and no variable as the last word (DLT refuses that)', () => {
    for (const template of Object.values(SMS_TEMPLATES)) {
      expect(template.text.split(DLT_PLACEHOLDER).length - 1, template.text).toBe(template.variables.length);
      expect(template.text.trimEnd().endsWith(DLT_PLACEHOLDER), template.text).toBe(false);
    }
  });

  it('gives every template its own SMS_TEMPLATE_* setting, and every setting a template', () => {
    const settings = Object.keys(ZConfig.in.shape).filter((key) => key.startsWith('SMS_TEMPLATE_'));
    const used = Object.values(SMS_TEMPLATES).map((template) => template.configKey);
    expect([...used].sort()).toEqual(settings.sort());
  });

  it('refuses an SMS whose purpose has no registered template, or a kind not its own, or a missing variable', () => {
    const otp: TSmsContent = { kind: 'OTP', variables: { otp: '123456', minutes: '5' } };
    expect(() => renderSmsFor('ADVERTISEMENT' as TSmsPurpose, otp)).toThrow(/no registered DLT template/);
    expect(() => renderSmsFor('__proto__' as TSmsPurpose, otp)).toThrow(/no registered DLT template/);
    expect(() => renderSmsFor('LOGIN', { kind: 'SIGNUP_DECLINED', variables: { shop: 'Any shop' } })).toThrow(
      /does not send the SIGNUP_DECLINED template/,
    );
    expect(() =>
      renderSmsFor('LOGIN', { kind: 'OTP', variables: { otp: '123456' } } as unknown as TSmsContent),
    ).toThrow(/missing minutes/);
    expect(() =>
      renderSmsFor('LOGIN', { kind: 'FREE_TEXT', variables: {} } as unknown as TSmsContent),
    ).toThrow(/does not send the FREE_TEXT template/);
    expect(renderSmsFor('BYPASS_CODE', otp)).toBe('123456 is your Kisht OTP. It expires in 5 minutes.');
  });

  it('maps every purpose to kinds that exist', () => {
    for (const [purpose, kinds] of Object.entries(SMS_KINDS_BY_PURPOSE)) {
      expect(kinds.length, purpose).toBeGreaterThan(0);
      for (const kind of kinds) expect(Object.keys(SMS_TEMPLATES), purpose).toContain(kind);
    }
  });

  it('reads stored variables back only when they fit the template', () => {
    expect(parseSmsContent('OTP', { otp: '1', minutes: '5', extra: 'x' })).toEqual({
      kind: 'OTP',
      variables: { otp: '1', minutes: '5' },
    });
    expect(parseSmsContent('OTP', { otp: '1' })).toBeNull();
    expect(parseSmsContent('OTP', null)).toBeNull();
    expect(parseSmsContent(null, { otp: '1', minutes: '5' })).toBeNull();
    expect(parseSmsContent('toString', {})).toBeNull();
  });

  it('cuts a value to the 30 characters a DLT placeholder carries, by code point', () => {
    expect(toDltValue('slot 1: Airtel …0123, slot 2: Jio …4567')).toBe('slot 1: Airtel …0123, slot 2: ');
    expect(toDltValue('😀'.repeat(31))).toBe('😀'.repeat(30));
    expect(toDltValue('short')).toBe('short');
  });

  it('lists every template verbatim in docs/sms.md, so the registration guide matches the code', () => {
    const docs = readFileSync(new URL('../../../../../docs/sms.md', import.meta.url), 'utf8');
    for (const [kind, template] of Object.entries(SMS_TEMPLATES)) {
      expect(docs, kind).toContain(template.text);
      expect(docs, kind).toContain(template.configKey);
    }
  });
});
