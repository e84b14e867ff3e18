import { AdminHomePage } from '../features/admin/pages/admin-home-page';
import { ReceivedKeyRequestsPanel } from '../features/key-requests/components/received-key-requests';
import { NetworkPanel } from '../features/network/components/network-panel';
import { OrgPagesEditor } from '../features/org-pages/components/org-pages-editor';
import { PartnerKeysPanel } from '../features/partner-keys/components/partner-keys-panel';
import { WebhooksPanel } from '../features/webhooks/components/webhooks-panel';

/**
 * The admin home with the key-requests feature's received list as its key requests tab, the
 * network feature's panel as its network tab, the
 * org-pages feature's editor as its pages tab, the webhooks feature's panel as its webhooks tab and
 * the partner-keys feature's panel as its partner API tab (features do not import each other).
 */
export const AdminRoute = () => (
  <AdminHomePage
    keyRequestsPanel={<ReceivedKeyRequestsPanel />}
    networkPanel={<NetworkPanel />}
    pagesPanel={<OrgPagesEditor />}
    webhooksPanel={<WebhooksPanel />}
    partnerKeysPanel={<PartnerKeysPanel />}
  />
);
