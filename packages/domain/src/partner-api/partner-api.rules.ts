/*
 * The partner API (issue 30, docs/partner-api.md): a lender's loan-management system calls Kisht
 * from its own servers with an API key the organisation admin made. These are its rules as data:
 * the scopes a key may hold, which scope each kind of call needs, the key's text form, and the
 * request rate a key is allowed.
 */

/**
 * What a key may do: `read` customers, loans, instalments and device state; `devices` create loans
 * (with the customer's consent), make the enrolment QR and send lock, unlock and release through
 * the command gate; `payments` record payments.
 */
export const PARTNER_KEY_SCOPES = ['read', 'devices', 'payments'] as const;
export type TPartnerKeyScope = (typeof PARTNER_KEY_SCOPES)[number];

/** The commands a key with scope `devices` may send; each goes through the same command gate as a person's. */
export const PARTNER_COMMANDS = ['lock', 'unlock', 'release'] as const;
export type TPartnerCommand = (typeof PARTNER_COMMANDS)[number];

/** The spec §6 control feature each partner command is (release is the phone's uninstall). */
export const PARTNER_COMMAND_FEATURE = {
  lock: { feature: 'lock', enable: true },
  unlock: { feature: 'lock', enable: false },
  release: { feature: 'uninstall', enable: undefined },
} as const satisfies Record<TPartnerCommand, { feature: string; enable: boolean | undefined }>;

/** What every API key's text starts with, so a leaked one is recognised by secret scanners. */
export const PARTNER_KEY_PREFIX = 'kisht_pk_';

/**
 * A key's text: `kisht_pk_<public id>_<secret>`. The public id (12 lowercase letters and digits)
 * finds the key; the secret (43 base64url characters, 32 random bytes) proves it and is stored
 * only as its SHA-256.
 */
const KEY_PATTERN = /^kisht_pk_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

/** The public id and secret of a key's text, or null when it is not one. */
export const parsePartnerKey = (text: string): { publicId: string; secret: string } | null => {
  const match = KEY_PATTERN.exec(text);
  return match ? { publicId: match[1]!, secret: match[2]! } : null;
};

/** A key's text from its public id and secret (the inverse of parsePartnerKey). */
export const formatPartnerKey = (publicId: string, secret: string): string =>
  `${PARTNER_KEY_PREFIX}${publicId}_${secret}`;

/** Requests one key may make per minute on one server process before it is answered 429. */
export const PARTNER_RATE_LIMIT_PER_MINUTE = 300;
