import { errorCodeMessageIn } from './error-codes';
import { currentLanguage, i18n } from './i18n';

export { errorCodeKey, isAppErrorCode } from './error-codes';

/**
 * The message of a failed call in the user's language (issue 28, errorCodeMessageIn) with the
 * app's i18next (`instance` by default): a domain code's translation, or null for the server's own
 * English message.
 */
export const errorCodeMessage = (code: string, instance: typeof i18n = i18n): string | null =>
  errorCodeMessageIn(code, currentLanguage(instance), (key) => instance.t(key));
