import { MOBILE_PREFIX, normaliseIndianMobile } from '@kisht/domain/common/identifier-rules';

/** Digits in a local Indian mobile number (spec §9: entered without +91, sent with it). */
export const LOCAL_MOBILE_LENGTH = 10;

/**
 * Keeps what was typed or pasted into a mobile field as at most 10 local digits; a pasted
 * `+91 98765 43210` is unwrapped to `9876543210`. Fields using this must not set maxLength, which
 * would cut a pasted number before this sees it.
 */
export const toLocalMobileDigits = (raw: string): string => {
  const normalised = normaliseIndianMobile(raw);
  if (normalised) return normalised.slice(MOBILE_PREFIX.length);
  return raw.replace(/\D/g, '').slice(0, LOCAL_MOBILE_LENGTH);
};
