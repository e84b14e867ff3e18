import { createHash } from 'node:crypto';
import { build, type PlistValue } from 'plist';

/** The MIME type Safari on an iPhone installs a configuration profile from (Apple Configuration Profile Reference). */
export const MOBILECONFIG_CONTENT_TYPE = 'application/x-apple-aspen-config';

/** The query parameter of ServerURL/CheckInURL that carries the enrolment token (NanoMDM webhook url_params). */
export const ENROLMENT_TOKEN_PARAM = 'kisht_token';

/** A UUID (RFC 4122 form, uppercase as Apple writes them) derived from `seed`, so one token's profile is stable. */
const uuidFrom = (seed: string): string => {
  const hex = createHash('sha256').update(seed).digest('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    `8${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ]
    .join('-')
    .toUpperCase();
};

/** `url` with the enrolment token added to its query. */
export const withEnrolmentToken = (url: string, token: string): string => {
  const u = new URL(url);
  u.searchParams.set(ENROLMENT_TOKEN_PARAM, token);
  return u.toString();
};

/**
 * The Apple MDM enrolment profile (.mobileconfig) of one customer's iPhone (Apple's Configuration
 * Profile Reference: com.apple.mdm, com.apple.security.scep; NanoMDM docs/enroll.mobileconfig):
 * - a SCEP payload (URL, Challenge) from which the phone gets its MDM identity certificate;
 * - the MDM payload: ServerURL and CheckInURL (NanoMDM's /mdm, with the one-time enrolment token in
 *   the query so NanoMDM's webhook url_params tie the enrolment to the customer), Topic (the push
 *   certificate's topic), IdentityCertificateUUID = the SCEP payload's UUID, every AccessRight
 *   (8191), CheckOutWhenRemoved so the phone says when the profile is removed (status 4), and
 *   SignMessage, so every check-in and command answer carries an `Mdm-Signature` header (a CMS
 *   detached signature by its identity): NanoMDM verifies it by default, which needs no client
 *   certificate through the TLS proxy (NanoMDM's `-cert-header` is the other way; issue 27).
 * Unsigned (the phone shows it "Not Verified"); see docs/apple.md for signing it.
 */
export const buildEnrolmentProfile = (options: {
  token: string;
  identifier: string;
  organisation: string;
  serverUrl: string;
  topic: string;
  scepUrl: string;
  scepChallenge: string;
}): string => {
  const scepUuid = uuidFrom(`scep:${options.token}`);
  const mdmUrl = withEnrolmentToken(options.serverUrl, options.token);
  const profile: PlistValue = {
    PayloadContent: [
      {
        PayloadType: 'com.apple.security.scep',
        PayloadVersion: 1,
        PayloadIdentifier: `${options.identifier}.scep`,
        PayloadUUID: scepUuid,
        PayloadDisplayName: 'MDM identity certificate',
        PayloadContent: {
          URL: options.scepUrl,
          Challenge: options.scepChallenge,
          Keysize: 2048,
          'Key Type': 'RSA',
          'Key Usage': 5,
          Subject: [[['CN', 'Kisht MDM identity']]],
        },
      },
      {
        PayloadType: 'com.apple.mdm',
        PayloadVersion: 1,
        PayloadIdentifier: `${options.identifier}.mdm`,
        PayloadUUID: uuidFrom(`mdm:${options.token}`),
        PayloadDisplayName: 'Device management',
        ServerURL: mdmUrl,
        CheckInURL: mdmUrl,
        Topic: options.topic,
        IdentityCertificateUUID: scepUuid,
        AccessRights: 8191,
        CheckOutWhenRemoved: true,
        SignMessage: true,
        ServerCapabilities: ['com.apple.mdm.per-user-connections'],
      },
    ],
    PayloadType: 'Configuration',
    PayloadVersion: 1,
    PayloadIdentifier: options.identifier,
    PayloadUUID: uuidFrom(`profile:${options.token}`),
    PayloadDisplayName: `${options.organisation} device management`,
    PayloadOrganization: options.organisation,
    PayloadDescription:
      'Lets your retailer manage this iPhone while its EMIs are being paid (lock screen message, lost mode, location).',
  };
  return build(profile);
};
