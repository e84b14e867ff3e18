import { z } from 'zod';
import { ZAppleCustomerUpdateRequest, ZAppleDetails } from '../apple/apple.schema';
import { ZCustomerDetails, ZCustomerIdQuery, ZEnrolmentQr } from '../customers/customers.schema';
import { ZDeviceCommand, ZDeviceCommandRequest } from '../devices/devices.schema';
import { paths } from '../paths';
import { defineRoutes, routeGroup } from './define';

/** The enrolment profile's path parameter: `{token}.mobileconfig`. */
export const ZAppleEnrolmentProfileParams = z.object({ profile: z.string().max(200) });

/** What the server made of a NanoMDM webhook event (unknown phones and commands: ignored). */
export const ZNanoMdmWebhookAnswer = z.object({
  outcome: z.enum(['bound', 'enrolled', 'checked_out', 'recorded', 'ignored']),
});
export type TNanoMdmWebhookAnswer = z.infer<typeof ZNanoMdmWebhookAnswer>;

/** The Apple commands a person sends from apple_details and apple_sync, one route each (paths.apple). */
export const APPLE_COMMAND_ROUTES = ['requestSync', 'disableActivationLock', 'installOneModeApp'] as const;
export type TAppleCommandRoute = (typeof APPLE_COMMAND_ROUTES)[number];

/**
 * The apple-mdm routes of the wire contract (contract/define.ts): iPhones through NanoMDM (issue
 * 15; spec §7 /micromdm, /country). A session is needed unless the comment names the caller; a
 * customer outside the actor's scope answers 404, one of another device family 409.
 */
export const appleMdmContract = defineRoutes({
  /**
   * The enrolment profile (.mobileconfig) by the one-time token of its QR. Opened by Safari on the
   * iPhone (no session, kept out of /docs); an unknown, expired or spent token answers 404.
   */
  enrolmentProfile: {
    method: 'GET',
    path: `${paths.apple.enrolmentProfilePrefix}:profile`,
    params: ZAppleEnrolmentProfileParams,
    response: 'file',
  },
  /**
   * NanoMDM's webhook: check-ins and command reports, the raw JSON body signed in X-Hmac-Signature.
   * Called by NanoMDM, not the app (no session).
   */
  webhook: { method: 'POST', path: paths.apple.webhook, response: ZNanoMdmWebhookAnswer },
  /** apple_qr: the URL of an inactive Apple customer's enrolment profile as a QR (one-time token). */
  qr: { method: 'GET', path: paths.apple.qr, query: ZCustomerIdQuery, response: ZEnrolmentQr },
  /** apple_details: what the customer's iPhone reported through NanoMDM. */
  details: { method: 'GET', path: paths.apple.details, query: ZCustomerIdQuery, response: ZAppleDetails },
  /**
   * An Apple command to the customer's iPhone: DeviceInformation (requestSync), the Activation Lock
   * bypass code (disableActivationLock), the one-mode app (installOneModeApp).
   */
  command: routeGroup(APPLE_COMMAND_ROUTES, (key) => ({
    method: 'POST',
    path: paths.apple[key],
    body: ZDeviceCommandRequest,
    response: ZDeviceCommand,
  })),
  /** appleCustomerByKegenUpdate: correct an inactive Apple customer's serial number. */
  customerUpdate: {
    method: 'POST',
    path: paths.apple.customerUpdate,
    body: ZAppleCustomerUpdateRequest,
    response: ZCustomerDetails,
  },
  /** unclaim_apple: release the iPhone of a customer whose EMIs are completed (RemoveProfile). */
  unclaim: {
    method: 'POST',
    path: paths.apple.unclaim,
    body: ZDeviceCommandRequest,
    response: ZDeviceCommand,
  },
});
