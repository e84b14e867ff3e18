import { z } from 'zod';
import { ZId } from '../common/identifiers';
import { paths } from '../paths';

/**
 * Enrolment of the link-based family (device_type 2, app types 1 and 6; issue 15). The retailer
 * hands the customer a deep link (shown as a QR, or sent as text) and a short enrolment code:
 *
 * - the deep link `${serverUrl}/emm/l?org_id={orgId}&token={token}` is an https page on the server: it
 *   offers the APK download ("Install the Kisht app") and, once the app is installed, the custom-scheme
 *   link `kisht://enrol?server=…&org_id=…&token=…` that hands the token to the app (the app may also
 *   claim the https link itself as an Android App Link);
 * - the enrolment code (8 of Crockford's base-32 letters, `XXXX-XXXX`) is typed into the app, which
 *   exchanges it at `/emm/generate_code` for a token and the server URL.
 *
 * Either way the app ends at the same enrol call as the device policy controller
 * (`/api/device/enrol` with the token and the IMEIs) and then uses Kisht's MQTT device channel.
 */

/** The custom URI scheme the link-based app registers (intent filter `kisht://enrol`). */
export const LINK_APP_SCHEME = 'kisht';

/** Letters of an enrolment code: Crockford's base 32 (digits and capitals without I, L, O, U). */
export const ENROLMENT_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** An enrolment code as the server issues it: two groups of four Crockford letters (40 bits). */
export const ENROLMENT_CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/**
 * An enrolment code as typed on the phone: case, spaces and the dash do not matter, and the
 * look-alikes I, L (→ 1) and O (→ 0) are read as Crockford's base 32 reads them. Parses to the
 * canonical `XXXX-XXXX`.
 */
export const ZEnrolmentCodeInput = z
  .string()
  .trim()
  .max(20)
  .transform((value, ctx) => {
    const compact = value.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
    const code = compact.length === 8 ? `${compact.slice(0, 4)}-${compact.slice(4)}` : '';
    if (!ENROLMENT_CODE_PATTERN.test(code)) {
      ctx.addIssue({ code: 'custom', message: 'Enter the 8-character enrolment code' });
      return z.NEVER;
    }
    return code;
  });

/** A one-time enrolment token as it travels in links: base64url, 16–128 characters. */
export const ZEnrolmentTokenText = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,128}$/, 'Not an enrolment token (base64url, 16 to 128 characters)');

/** The retailer asks for a fresh link-based enrolment (generate_code_linkfl, generate_emm_code). */
export const ZGenerateLinkCodeRequest = z.object({ customer_id: ZId });
export type TGenerateLinkCodeRequest = z.infer<typeof ZGenerateLinkCodeRequest>;

/** The link-based app exchanges a typed code (public /emm/generate_code). */
export const ZExchangeEnrolmentCodeRequest = z.object({
  /** The organisation whose app this is (white-label build). */
  orgId: ZId,
  code: ZEnrolmentCodeInput,
});
export type TExchangeEnrolmentCodeRequest = z.input<typeof ZExchangeEnrolmentCodeRequest>;

/**
 * What the app gets for a right code: a one-time enrolment token (it replaces the deep link's) and
 * the server to enrol with; the app then enrols as from the deep link.
 */
export const ZExchangeEnrolmentCodeResponse = z.object({
  token: z.string(),
  serverUrl: z.string(),
  /** When the token (and the code) expire, ISO 8601 UTC. */
  expiresAt: z.string(),
});
export type TExchangeEnrolmentCodeResponse = z.infer<typeof ZExchangeEnrolmentCodeResponse>;

/** A fresh enrolment code (generate_emm_code): valid until the enrolment token it stands for expires. */
export const ZEnrolmentCode = z.object({
  customerId: ZId,
  /** `XXXX-XXXX`, Crockford's base 32. */
  enrolmentCode: z.string(),
  /** ISO 8601 UTC. */
  expiresAt: z.string(),
});
export type TEnrolmentCode = z.infer<typeof ZEnrolmentCode>;

/**
 * The state of a link-based customer's enrolment (get_customers_keygen): `none` (no code issued
 * yet), `issued` (a code that still works), `expired` (issued, not used in time), `used` (the
 * phone enrolled).
 */
export const ZEnrolmentCodeState = z.object({
  customerId: ZId,
  state: z.enum(['none', 'issued', 'expired', 'used']),
  /** True while a code was issued for the current enrolment token. */
  isCodeIssued: z.boolean(),
  /** When the current token and code expire (ISO 8601 UTC), or null when none was issued. */
  expiresAt: z.string().nullable(),
  /** When the phone enrolled (ISO 8601 UTC), or null. */
  enrolledAt: z.string().nullable(),
});
export type TEnrolmentCodeState = z.infer<typeof ZEnrolmentCodeState>;

/** The deep link landing's query (public GET /emm/l). */
export const ZDeepLinkQuery = z.object({
  org_id: z.coerce.number().int().positive().max(2_147_483_647),
  token: ZEnrolmentTokenText,
});

/** What a deep link carries: the server to enrol with, the organisation, and the one-time token. */
export type TDeepLink = { serverUrl: string; orgId: number; token: string };

/** The https deep link of a link-based enrolment (opened in the phone's browser, or by the app). */
export const deepLinkUrl = (link: TDeepLink): string => {
  const query = new URLSearchParams({ org_id: String(link.orgId), token: link.token });
  return `${link.serverUrl.replace(/\/+$/, '')}${paths.emm.deepLinkLanding}?${query}`;
};

/** The custom-scheme link that hands the token to the installed app: `kisht://enrol?server=…&org_id=…&token=…`. */
export const appEnrolUri = (link: TDeepLink): string => {
  const query = new URLSearchParams({
    server: link.serverUrl.replace(/\/+$/, ''),
    org_id: String(link.orgId),
    token: link.token,
  });
  return `${LINK_APP_SCHEME}://enrol?${query}`;
};

/** Thrown by parseDeepLink for text that is not a Kisht deep link; the message says why. */
export class DeepLinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeepLinkError';
  }
}

/**
 * Reads a deep link in either form (deepLinkUrl's https page, appEnrolUri's kisht://enrol) into
 * the server URL (no trailing slash; a path prefix before /emm/l is kept), organisation id and token.
 * Throws DeepLinkError for anything else: another scheme or path, a missing or bad org_id or token.
 */
export const parseDeepLink = (text: string): TDeepLink => {
  const trimmed = text.trim();
  if (!URL.canParse(trimmed)) throw new DeepLinkError('not a link: expected the deep link the shop gave you');
  const url = new URL(trimmed);
  let serverUrl: string;
  if (url.protocol === `${LINK_APP_SCHEME}:`) {
    if (url.hostname !== 'enrol') throw new DeepLinkError(`${LINK_APP_SCHEME}:// link is not an enrol link`);
    const server = url.searchParams.get('server') ?? '';
    if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol)) {
      throw new DeepLinkError('the link names no http(s) server');
    }
    serverUrl = server.replace(/\/+$/, '');
  } else if (url.protocol === 'https:' || url.protocol === 'http:') {
    if (!url.pathname.endsWith(paths.emm.deepLinkLanding)) {
      throw new DeepLinkError(`not a Kisht deep link: the path must end with ${paths.emm.deepLinkLanding}`);
    }
    serverUrl = `${url.origin}${url.pathname.slice(0, -paths.emm.deepLinkLanding.length)}`;
  } else {
    throw new DeepLinkError(`not a Kisht deep link: unexpected scheme ${url.protocol}`);
  }
  const orgId = Number(url.searchParams.get('org_id'));
  if (!Number.isInteger(orgId) || orgId <= 0) throw new DeepLinkError('the link has no valid org_id');
  const token = ZEnrolmentTokenText.safeParse(url.searchParams.get('token') ?? '');
  if (!token.success) throw new DeepLinkError('the link has no valid enrolment token');
  return { serverUrl, orgId, token: token.data };
};
