import { AppErrorCode, type TAppErrorCode } from '@kisht/domain/common/errors';
import type { TErrorWords } from './http/envelope';
import { FALLBACK_LANGUAGE, type TLanguage } from './languages';

// Error codes and their messages without i18next: the sign-in screens word failures before the
// i18n runtime loads (issue 28); lib/error-messages.ts does the same with i18next.

/** Whether a server's `code` is one of the domain's error codes (packages/domain common/errors). */
export const isAppErrorCode = (code: string): code is TAppErrorCode =>
  Object.values(AppErrorCode).some((known) => known === code);

/** The translation key of a domain error code's message (`errors.code.<CODE>`, every language). */
export const errorCodeKey = (code: TAppErrorCode) => `errors.code.${code}` as const;

/**
 * The message of a failed call in `language` (issue 28): for a domain error code, its translation
 * by `translate` (`errors.code.<CODE>`); null in English, where the server's own message stands
 * (it is English and names specifics, such as the app type of the keys that ran out), and for a
 * code the app does not know, whose server message is then shown as it came.
 */
export const errorCodeMessageIn = (
  code: string,
  language: TLanguage,
  translate: (key: ReturnType<typeof errorCodeKey>) => string,
): string | null => {
  if (!isAppErrorCode(code) || language === FALLBACK_LANGUAGE) return null;
  return translate(errorCodeKey(code));
};

/**
 * How a failed call is worded in `language` by `t` (lib/http/envelope TErrorWords): the generic
 * and the offline message, and the domain codes' translations (errorCodeMessageIn).
 */
export const errorWordsIn = (t: (key: string) => string, language: TLanguage): TErrorWords => ({
  fallbackMessage: () => t('errors.somethingWentWrong'),
  offlineMessage: () => t('errors.offline'),
  codeMessage: (code) => errorCodeMessageIn(code, language, t),
});
