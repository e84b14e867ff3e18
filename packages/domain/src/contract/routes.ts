import { advertisementsContract } from './advertisements';
import { androidManagementContract } from './android-management';
import { appleMdmContract } from './apple-mdm';
import { authContract } from './auth';
import { autopayContract } from './autopay';
import { catalogueContract } from './catalogue';
import { collectionsContract } from './collections';
import { customerDetailsContract } from './customer-details';
import { customersContract } from './customers';
import { isRouteGroup, type TRouteContract } from './define';
import { devicesContract } from './devices';
import { emiContract } from './emi';
import { emmContract } from './emm';
import { financersContract } from './financers';
import { joiningContract } from './joining';
import { keyRefundContract } from './key-refund';
import { keyRequestsContract } from './key-requests';
import { ledgerContract } from './ledger';
import { mediaContract } from './media';
import { messagesContract } from './messages';
import { networkContract } from './network';
import { notificationsContract } from './notifications';
import { oauthContract } from './oauth';
import { orgPagesContract } from './org-pages';
import { orgsContract } from './orgs';
import { partnerApiContract } from './partner-api';
import { partnerKeysContract } from './partner-keys';
import { paymentQrContract } from './payment-qr';
import { paymentsContract } from './payments';
import { plansContract } from './plans';
import { remindersContract } from './reminders';
import { retailersContract } from './retailers';
import { warrantyContract } from './warranty';
import { webhooksContract } from './webhooks';

/**
 * The wire contract (design §3, issue 28): every route of the API, by the server module that
 * serves it (apps/server/src/modules/<module>). The server registers each
 * route from its entry (apps/server/src/lib/contract-route.ts); the web app types its calls from
 * them (apps/web/src/lib/http/contract-request.ts); contract.test.ts in the server checks that the
 * routes served are exactly these.
 */
export const CONTRACT = {
  advertisements: advertisementsContract,
  androidManagement: androidManagementContract,
  appleMdm: appleMdmContract,
  auth: authContract,
  autopay: autopayContract,
  catalogue: catalogueContract,
  collections: collectionsContract,
  customerDetails: customerDetailsContract,
  customers: customersContract,
  devices: devicesContract,
  emi: emiContract,
  emm: emmContract,
  financers: financersContract,
  joining: joiningContract,
  keyRefund: keyRefundContract,
  keyRequests: keyRequestsContract,
  ledger: ledgerContract,
  media: mediaContract,
  messages: messagesContract,
  network: networkContract,
  notifications: notificationsContract,
  oauth: oauthContract,
  orgs: orgsContract,
  partnerApi: partnerApiContract,
  partnerKeys: partnerKeysContract,
  orgPages: orgPagesContract,
  paymentQr: paymentQrContract,
  payments: paymentsContract,
  plans: plansContract,
  reminders: remindersContract,
  retailers: retailersContract,
  warranty: warrantyContract,
  webhooks: webhooksContract,
} as const;

/** Every route of the contract as a list. */
export const CONTRACT_ROUTES: readonly TRouteContract[] = Object.values(CONTRACT).flatMap(
  (routes): TRouteContract[] =>
    Object.values(routes).flatMap((entry) => (isRouteGroup(entry) ? Object.values(entry.group) : [entry])),
);
