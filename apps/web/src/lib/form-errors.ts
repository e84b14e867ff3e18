/**
 * How every form shows a field's error: the server's own words for an error the server sent (a
 * 400's `fields`), else the translated message of the domain schema's issue. Shared by the forms
 * of every feature (add customer, the edit dialogs, device settings, the phone PIN, waivers).
 */
import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { TApiError } from './http/base-query';

/** The error type of a field error the server sent; shown in the server's own words. */
export const SERVER_ERROR_TYPE = 'server';

/** Translation keys of the messages forms show for the domain schemas' issues. */
export type TValidationKey =
  | 'validation.required'
  | 'validation.invalidMobile'
  | 'validation.invalidEmail'
  | 'validation.invalidImei'
  | 'validation.sameImei'
  | 'validation.invalidAmount'
  | 'validation.downPaymentTooHigh'
  | 'validation.loanNotPositive'
  | 'validation.invalidRate'
  | 'validation.invalidTenure'
  | 'validation.invalidDate'
  | 'validation.dateOfBirthInPast'
  | 'validation.chooseCountry'
  | 'validation.chooseState'
  | 'validation.chooseCity'
  | 'validation.invalidPincode'
  | 'validation.tooLong'
  | 'validation.reasonTooShort'
  | 'validation.invalidValue';

/** The domain schema's own messages (customers.schema, identifiers), by what they say. */
const DOMAIN_MESSAGE_KEYS: ReadonlyMap<string, TValidationKey> = new Map<string, TValidationKey>([
  ['This is a required field', 'validation.required'],
  ['Enter a 10-digit mobile number starting with 6, 7, 8 or 9', 'validation.invalidMobile'],
  ['Enter a valid email', 'validation.invalidEmail'],
  ['IMEI must be 15 digits with a valid check digit', 'validation.invalidImei'],
  ['IMEI 2 must differ from IMEI 1', 'validation.sameImei'],
  ['Amount must be whole paise', 'validation.invalidAmount'],
  ['Amount cannot be negative', 'validation.invalidAmount'],
  ['Down payment cannot exceed the price', 'validation.downPaymentTooHigh'],
  ['Loan amount must be more than zero', 'validation.loanNotPositive'],
  ['Tenure must be 1 to 120 months', 'validation.invalidTenure'],
  ['Date must be YYYY-MM-DD', 'validation.invalidDate'],
  ['Date of birth must be in the past', 'validation.dateOfBirthInPast'],
  ['Choose a country', 'validation.chooseCountry'],
  ['Choose a state', 'validation.chooseState'],
  ['Choose a city', 'validation.chooseCity'],
  ['PIN code is 6 digits', 'validation.invalidPincode'],
  ['Say why, in a few words', 'validation.reasonTooShort'],
]);

/** The translation key of one of the domain schemas' own messages, or undefined for zod's generic ones. */
export const domainMessageKey = (message: string | undefined): TValidationKey | undefined =>
  message ? DOMAIN_MESSAGE_KEYS.get(message) : undefined;

const isEmptyValue = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The translated message for a domain-schema issue on any form's field: 'This is a required
 * field' when it is empty, else the schema's own message, else `fallback` (what that field's
 * problem must be).
 */
export const fieldMessageKey = (
  error: Pick<FieldError, 'message'>,
  value: unknown,
  fallback: TValidationKey,
): TValidationKey => {
  if (isEmptyValue(value)) return 'validation.required';
  return domainMessageKey(error.message) ?? fallback;
};

/**
 * The text under a form field: null without an error, the server's own words for an error the
 * server sent (SERVER_ERROR_TYPE, with a message), else `own(error)`, the app's translated words.
 */
export const fieldErrorText = (
  error: FieldError | undefined,
  own: (error: FieldError) => string,
): string | null =>
  !error ? null : error.type === SERVER_ERROR_TYPE && error.message ? error.message : own(error);

/**
 * Puts the server's field errors (a 400's `fields`) under the form's fields, in the server's
 * words. `fieldOf` names the form field of a request field, or null for one the form does not
 * show. Returns whether any error landed on a field.
 */
export const applyServerFieldErrors = <TValues extends FieldValues>(
  error: TApiError,
  setError: UseFormSetError<TValues>,
  fieldOf: (requestField: string) => Path<TValues> | null,
): boolean => {
  let hasApplied = false;
  for (const { field, message } of error.fields) {
    const path = fieldOf(field);
    if (!path) continue;
    setError(path, { type: SERVER_ERROR_TYPE, message }, { shouldFocus: !hasApplied });
    hasApplied = true;
  }
  return hasApplied;
};
