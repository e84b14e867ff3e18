import { JoinRequestsPanel } from '../features/admin/components/join-requests-panel';
import { KeyBalancesCard } from '../features/ledger/components/key-balances-card';
import { NetworkPage } from '../features/network/pages/network-page';

/**
 * A distributor's home (issue 30) with the ledger feature's key balances card and the admin
 * feature's join requests list, which serves whichever parent is signed in (features do not import
 * each other).
 */
export const NetworkRoute = () => (
  <NetworkPage keyBalances={<KeyBalancesCard />} joinRequests={<JoinRequestsPanel />} />
);
