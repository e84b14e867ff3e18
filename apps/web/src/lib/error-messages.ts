import { AppErrorCode, type TAppErrorCode } from '@kisht/domain/common/errors';
import { currentLanguage, FALLBACK_LANGUAGE, i18n } from './i18n';

/** Whether a server's `code` is one of the domain's error codes (packages/domain common/errors). */
export const isAppErrorCode = (code: string): code is TAppErrorCode =>
  Object.values(AppErrorCode).some((known) => known === code);

/** The translation key of a domain error code's message (`errors.code.<CODE>`, every language). */
export const errorCodeKey = (code: TAppErrorCode) => `errors.code.${code}` as const;

/**
 * The message of a failed call in the user's language (issue 28): for a domain error code, its
 * translation (`errors.code.<CODE>`); null in English, where the server's own message stands (it is
 * English and names specifics, such as the app type of the keys that ran out), and for a code the
 * app does not know, whose server message is then shown as it came. `instance`: the app's i18next
 * by default.
 */
export const errorCodeMessage = (code: string, instance: typeof i18n = i18n): string | null => {
  if (!isAppErrorCode(code) || currentLanguage(instance) === FALLBACK_LANGUAGE) return null;
  return instance.t(errorCodeKey(code));
};
