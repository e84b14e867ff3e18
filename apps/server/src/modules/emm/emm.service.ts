import { CustomerStatus, DeviceType } from '@kisht/domain/common/enums';
import { formatIstDateTime } from '@kisht/domain/common/time';
import type { TEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import {
  appEnrolUri,
  type TEnrolmentCode,
  type TEnrolmentCodeState,
} from '@kisht/domain/devices/link-enrolment';
import { ZAppRemovedData } from '@kisht/domain/devices/protocol.schema';
import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import type { TActor } from '../../lib/actor';
import type { AppContext } from '../../lib/context';
import { sha256Hex } from '../../lib/crypto';
import { insertAudit } from '../audit/audit.repository';
import { recordStatusChange } from '../customers/customers.service';
import { endCommandsOfGoneDevice } from '../devices/control-commands.service';
import { issueEnrolmentQr, linkApkUrl } from '../devices/enrolment.service';
import { enrolmentCodeStateOf, issueEnrolmentCode } from '../devices/enrolment-code.service';
import { findCustomerOfFamily } from '../scope/scope.service';
import * as repo from './emm.repository';

/**
 * The link-based family (device_type 2, app types 1 and 6; issue 15): the retailer's deep link and
 * enrolment code, the public landing page the link opens, and the app's removal (spec §3 uninstall
 * location, §4 status 3). Link-based phones then use Kisht's own MQTT device channel with the
 * weaker control set of spec §6 (control-availability.ts).
 */

/**
 * The actor's customer (404 CUSTOMER_NOT_FOUND outside the actor's scope) when it is link-based;
 * 409 NOT_FOR_THIS_DEVICE_FAMILY (field customer_id) for another device family.
 */
const findLinkCustomer = (db: Db, actor: TActor, customerId: number) =>
  findCustomerOfFamily(db, actor, customerId, {
    deviceType: DeviceType.LINK_BASED,
    message: 'This customer is not on the link-based app: use the enrolment QR of their device type',
    fieldMessage: 'Not a link-based customer',
  });

/**
 * A fresh link-based enrolment for the actor's customer (generate_code_linkfl, get_deep_link): a new
 * one-time token, its deep link, the APK location and a new enrolment code (TEnrolmentQr kind
 * link). Same rules as the enrolment QR (issueEnrolmentQr): ALREADY_ENROLLED, CONSENT_REQUIRED,
 * NO_KEYS (one key of the customer's app_type, free on a re-issue); 404 for another tenant's
 * customer, 409 NOT_FOR_THIS_DEVICE_FAMILY for a customer of another family.
 */
export const issueLinkEnrolment = async (
  ctx: Pick<AppContext, 'db' | 'config' | 'dispatcher'>,
  options: { actor: TActor; customerId: number; baseUrl: string },
): Promise<TEnrolmentQr> => {
  const { customer, device } = await findLinkCustomer(ctx.db, options.actor, options.customerId);
  return issueEnrolmentQr(ctx, {
    actor: options.actor,
    device,
    customer,
    baseUrl: options.baseUrl,
  });
};

/**
 * A fresh enrolment code for the actor's link-based customer (generate_emm_code). While the
 * customer's enrolment token stands (issued, not expired, not used) only the code is replaced, so
 * the deep link already sent keeps working and no key is reserved; otherwise a whole new enrolment is
 * issued as issueLinkEnrolment does (its rules and errors). Audited.
 */
export const generateEmmCode = async (
  ctx: Pick<AppContext, 'db' | 'config' | 'dispatcher'>,
  options: { actor: TActor; customerId: number; baseUrl: string },
): Promise<TEnrolmentCode> => {
  const { customer, device } = await findLinkCustomer(ctx.db, options.actor, options.customerId);
  const expiresAt = device.enrolmentExpiresAt;
  const isTokenLive =
    customer.status === CustomerStatus.INACTIVE &&
    device.enrolmentTokenHash !== null &&
    device.enrolledAt === null &&
    expiresAt !== null &&
    expiresAt.getTime() > Date.now();
  if (!isTokenLive) {
    const qr = await issueLinkEnrolment(ctx, options);
    return { customerId: customer.id, enrolmentCode: qr.enrolmentCode!, expiresAt: qr.expiresAt };
  }
  const enrolmentCode = await ctx.db.transaction(async (tx) => {
    const code = await issueEnrolmentCode(tx, device);
    await insertAudit(tx, {
      orgId: device.orgId,
      actorUserId: options.actor.userId,
      action: 'device.enrolment_code',
      entity: 'customer',
      entityId: String(customer.id),
      details: { deviceId: device.id, expiresAt: expiresAt.toISOString() },
    });
    return code;
  });
  return { customerId: customer.id, enrolmentCode, expiresAt: expiresAt.toISOString() };
};

/** get_customers_keygen: the actor's link-based customer's enrolment state (see enrolmentCodeStateOf). */
export const getEnrolmentCodeState = async (
  db: Db,
  actor: TActor,
  customerId: number,
): Promise<TEnrolmentCodeState> => {
  const { customer, device } = await findLinkCustomer(db, actor, customerId);
  return enrolmentCodeStateOf(customer.id, device);
};

/** Escapes text for HTML element content and double-quoted attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"'`=]/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;', '=': '&#61;' })[
        char
      ]!,
  );

/**
 * The deep link's landing page (public GET /emm/l?org_id=&token=): plain HTML, no scripts. For a
 * token that can still enrol (the organisation's, not expired, not used) it offers "Install the
 * Kisht app" (the APK), the steps, and "Open in the Kisht app" (kisht://enrol…, which hands the
 * token to the installed app); status 200. Otherwise it says the link has expired, with status 410.
 * Everything shown is escaped.
 */
export const deepLinkLandingPage = async (
  deps: { db: Db; config: TConfig },
  options: { orgId: number; token: string; baseUrl: string },
): Promise<{ status: 200 | 410; html: string }> => {
  const device = await repo.findDeviceByTokenHash(deps.db, options.orgId, sha256Hex(options.token));
  const expiresAt = device?.enrolmentExpiresAt;
  const isUsable = Boolean(device && !device.enrolledAt && expiresAt && expiresAt.getTime() > Date.now());
  const apk = escapeHtml(linkApkUrl(deps.config, options.baseUrl));
  const head =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="robots" content="noindex">' +
    '<title>Kisht: set up your phone</title>' +
    '<style>body{font-family:sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5}' +
    'a.button{display:inline-block;padding:.75rem 1.25rem;margin:.5rem 0;border-radius:.5rem;' +
    'background:#1565c0;color:#fff;text-decoration:none;font-weight:bold}</style></head><body>';
  if (!isUsable || !expiresAt) {
    return {
      status: 410,
      html:
        `${head}<h1>This link has expired</h1>` +
        '<p>This set-up link has expired or was already used. Ask the shop for a new link or enrolment code.</p>' +
        `<p>Already asked? You can still <a href="${apk}">download the Kisht app</a> and type the new code in it.</p>` +
        '</body></html>',
    };
  }
  const open = escapeHtml(
    appEnrolUri({ serverUrl: options.baseUrl, orgId: options.orgId, token: options.token }),
  );
  const until = escapeHtml(formatIstDateTime(expiresAt));
  return {
    status: 200,
    html:
      `${head}<h1>Set up the Kisht app</h1>` +
      '<p>Your phone was bought on EMI. The Kisht app lets the shop look after it until the loan is paid.</p>' +
      `<p><a class="button" href="${apk}">Install the Kisht app</a></p>` +
      '<ol>' +
      '<li>Tap <b>Install the Kisht app</b> and open the downloaded file. If Android asks, allow this browser to install apps.</li>' +
      '<li>Open the app and give it the permissions it asks for (device admin, location, notifications).</li>' +
      '<li>Come back to this page and tap <b>Open in the Kisht app</b>, or type the 8-character code the shop gave you in the app.</li>' +
      '</ol>' +
      `<p><a class="button" href="${open}">Open in the Kisht app</a></p>` +
      `<p>This link works until ${until} (IST) and only once. Emergency calls always work on this phone.</p>` +
      '</body></html>',
  };
};

/** The reason a removal is recorded with (audit, status history, cancelled commands). */
const APP_REMOVED_REASON = 'The link-based app was removed from the phone';

/**
 * The link-based app reported its own removal (device event report kind 'app_removed', data
 * TAppRemovedData; spec §3 uninstall latitude/longitude, §4 status 3): in one transaction the
 * device keeps where it was (devices.uninstall_location; 'Bypassed' for both coordinates when the
 * report carries no valid fix, spec §5), its credentials are revoked (it can no longer connect),
 * its pending commands are cancelled, and the customer moves to uninstall (3), audited.
 * A repeated report records the newer location and changes nothing else.
 */
export const recordAppRemoved = async (
  db: Db,
  report: { device: { id: string; orgId: number; customerId: number }; data: Record<string, unknown> },
): Promise<void> => {
  const parsed = ZAppRemovedData.safeParse(report.data);
  const location = parsed.success
    ? { latitude: parsed.data.latitude, longitude: parsed.data.longitude, at: validIso(parsed.data.at) }
    : { latitude: 'Bypassed', longitude: 'Bypassed', at: new Date().toISOString() };
  const { device } = report;
  await db.transaction(async (tx) => {
    await repo.recordAppRemoval(tx, device.id, location);
    const cancelled = await endCommandsOfGoneDevice(tx, device.id, APP_REMOVED_REASON);
    await insertAudit(tx, {
      orgId: device.orgId,
      action: 'device.app_removed',
      entity: 'customer',
      entityId: String(device.customerId),
      details: { deviceId: device.id, location, cancelledCommands: cancelled.length },
    });
    await recordStatusChange(tx, {
      orgId: device.orgId,
      customerId: device.customerId,
      event: 'release',
      actorUserId: null,
      reason: APP_REMOVED_REASON,
    });
  });
};

/** The device's timestamp when it is a valid date, else now (a device clock is not trusted blindly). */
const validIso = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? new Date().toISOString() : date.toISOString();
};
