import { ZCustomerIdQuery, ZEnrolmentQr } from '../customers/customers.schema';
import {
  ZDeepLinkQuery,
  ZEnrolmentCode,
  ZEnrolmentCodeState,
  ZExchangeEnrolmentCodeRequest,
  ZExchangeEnrolmentCodeResponse,
  ZGenerateLinkCodeRequest,
} from '../devices/link-enrolment';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The emm routes of the wire contract (contract/define.ts): the enrolment flows' downloads and
 * the link-based family (issue 15). The public ones are called by a phone, not the app; the others
 * need a session and answer 404 for a customer outside the actor's scope, 409
 * NOT_FOR_THIS_DEVICE_FAMILY for one of another family.
 */
export const emmContract = defineRoutes({
  /** The device policy controller's APK (public; a named placeholder on a demo server). */
  dpcApk: { method: 'GET', path: paths.emm.dpcApk, response: 'file' },
  /** The link-based app's APK (public): the configured file, a redirect, or a named placeholder. */
  linkApk: { method: 'GET', path: paths.emm.linkApk, response: 'file' },
  /**
   * The deep link's landing page (public, rate-limited): an HTML page with the APK download, the
   * steps and the kisht://enrol link; 410 once expired or used.
   */
  deepLinkLanding: {
    method: 'GET',
    path: paths.emm.deepLinkLanding,
    query: ZDeepLinkQuery,
    response: 'file',
  },
  /**
   * The link-based app exchanges a typed enrolment code for a one-time token and the server URL
   * (public, rate-limited; 404 "Code not found").
   */
  exchangeCode: {
    method: 'POST',
    path: paths.emm.exchangeCode,
    body: ZExchangeEnrolmentCodeRequest,
    response: ZExchangeEnrolmentCodeResponse,
  },
  /** generate_code_linkfl: a fresh link-based enrolment (deep link, APK location, code, one-time token). */
  generateCodeLinkfl: {
    method: 'POST',
    path: paths.emm.generateCodeLinkfl,
    body: ZGenerateLinkCodeRequest,
    response: ZEnrolmentQr,
  },
  /** get_deep_link: the link-based customer's deep link, with a fresh one-time token and code. */
  deepLink: {
    method: 'GET',
    path: paths.customers.deepLink,
    query: ZCustomerIdQuery,
    response: ZEnrolmentQr,
  },
  /** generate_emm_code: a fresh enrolment code for a link-based customer. */
  generateEmmCode: {
    method: 'POST',
    path: paths.customers.generateEmmCode,
    body: ZGenerateLinkCodeRequest,
    response: ZEnrolmentCode,
  },
  /** get_customers_keygen: the link-based enrolment's state (code issued, expires, used). */
  keygen: {
    method: 'GET',
    path: paths.customers.keygen,
    query: ZCustomerIdQuery,
    response: ZEnrolmentCodeState,
  },
});
