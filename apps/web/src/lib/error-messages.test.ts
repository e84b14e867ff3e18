import { AppErrorCode } from '@kisht/domain/common/errors';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { errorCodeKey, errorCodeMessage, isAppErrorCode } from './error-messages';
import { SUPPORTED_LANGUAGES } from './i18n';

type TTree = { [key: string]: string | TTree };
const files = import.meta.glob<TTree>('../../public/locales/*.json', { eager: true, import: 'default' });

const CODES = Object.values(AppErrorCode);

describe('error messages in the user’s language (issue 28)', () => {
  it('has a message for every domain error code in every language', () => {
    expect(CODES.length).toBeGreaterThan(60);
    expect(SUPPORTED_LANGUAGES).toHaveLength(10);
    for (const language of SUPPORTED_LANGUAGES) {
      const codes = ((files[`../../public/locales/${language}.json`]?.errors as TTree | undefined)?.code ??
        {}) as TTree;
      for (const code of CODES) {
        const text = codes[code];
        expect(typeof text === 'string' && text.trim() !== '', `${language}: ${errorCodeKey(code)}`).toBe(
          true,
        );
      }
      // And no message for a code the domain no longer has.
      expect(
        Object.keys(codes).filter((code) => !isAppErrorCode(code)),
        language,
      ).toEqual([]);
    }
  });

  it('translates a known code outside English, and leaves English and unknown codes to the server', async () => {
    const instance = createInstance();
    await instance.init({
      lng: 'en',
      fallbackLng: 'en',
      resources: {
        en: { translation: files['../../public/locales/en.json']! },
        hn: { translation: files['../../public/locales/hn.json']! },
      },
    });
    expect(errorCodeMessage('NO_KEYS', instance)).toBeNull();
    await instance.changeLanguage('hn');
    const hindi = (files['../../public/locales/hn.json']!.errors as TTree).code as TTree;
    expect(errorCodeMessage('NO_KEYS', instance)).toBe(hindi.NO_KEYS);
    expect(errorCodeMessage('NOT_A_CODE', instance)).toBeNull();
  });
});
