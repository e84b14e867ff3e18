import { describe, expect, it } from 'vitest';
import { ZRecordConsentRequest } from './consent.schema';
import {
  CONSENT_LANGUAGES,
  CONSENT_PLACEHOLDERS,
  CONSENT_TEXT_VERSION,
  consentTemplate,
  EMERGENCY_NUMBER,
  renderConsentText,
} from './consent-texts';

const VALUES = {
  customerName: 'Anita Rao',
  productName: 'Redmi Note 14 5G',
  retailerName: 'Ravi Mobiles',
  retailerPhone: '+91 98765 43210',
  orgName: 'Kisht Demo Finance Pvt. Ltd.',
};

describe('consent texts (one per spec §1 language)', () => {
  it('puts one full stop after a name that ends with its own', () => {
    const english = renderConsentText('en', VALUES);
    expect(english).toContain('with a loan from Kisht Demo Finance Pvt. Ltd. Until');
    expect(english).not.toContain('Ltd..');
    expect(renderConsentText('en', { ...VALUES, orgName: 'Kisht Finance' })).toContain(
      'with a loan from Kisht Finance. Until',
    );
  });

  it('exist for exactly the ten interface languages', () => {
    expect([...CONSENT_LANGUAGES].sort()).toEqual([
      'bd',
      'en',
      'gj',
      'hn',
      'kn',
      'mr',
      'pp',
      'sp',
      'tg',
      'tm',
    ]);
  });

  it.each(CONSENT_LANGUAGES)('%s names every party, the emergency number and how to pay', (language) => {
    const template = consentTemplate(language);
    for (const name of CONSENT_PLACEHOLDERS) expect(template).toContain(`{{${name}}}`);
    const text = renderConsentText(language, VALUES);
    expect(text).not.toMatch(/\{\{|\}\}/);
    for (const value of Object.values(VALUES)) expect(text).toContain(value);
    expect(text).toContain(`(${EMERGENCY_NUMBER})`);
    // Six things the retailer may do, one bullet each, in every language.
    expect(text.split('\n').filter((line) => line.startsWith('• '))).toHaveLength(6);
  });

  it('are each in their own script, not English copies', () => {
    const english = renderConsentText('en', VALUES);
    for (const language of CONSENT_LANGUAGES.filter((l) => l !== 'en')) {
      expect(renderConsentText(language, VALUES)).not.toBe(english);
    }
    expect(renderConsentText('hn', VALUES)).toMatch(/[\u0900-\u097F]/); // Devanagari
    expect(renderConsentText('tm', VALUES)).toMatch(/[\u0B80-\u0BFF]/); // Tamil
    expect(renderConsentText('pp', VALUES)).toMatch(/[\u0A00-\u0A7F]/); // Gurmukhi
    expect(renderConsentText('sp', VALUES)).toContain('emergencia');
  });

  it('fills values once: a name that looks like a placeholder stays as typed', () => {
    const text = renderConsentText('en', { ...VALUES, customerName: '{{retailerPhone}}' });
    expect(text).toContain('I, {{retailerPhone}}, am buying');
  });

  it('has a version the recording request accepts', () => {
    const parsed = ZRecordConsentRequest.safeParse({
      customer_id: 1,
      language: 'tm',
      textVersion: CONSENT_TEXT_VERSION,
      signature_media_id: 2,
    });
    expect(parsed.success).toBe(true);
    const wrongLanguage = ZRecordConsentRequest.safeParse({
      customer_id: 1,
      language: 'ta',
      textVersion: CONSENT_TEXT_VERSION,
      signature_media_id: 2,
    });
    expect(wrongLanguage.error?.issues[0]?.path).toEqual(['language']);
  });
});
