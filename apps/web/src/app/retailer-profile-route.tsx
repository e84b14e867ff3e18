import { useSearchParams } from 'react-router';
import { KeyBalancesCard } from '../features/ledger/components/key-balances-card';
import { TransferKeysButton } from '../features/ledger/components/transfer-keys-dialog';
import { RetailerProfilePage } from '../features/retailers/pages/retailer-profile-page';
import { useGetRetailerQuery } from '../features/retailers/retailers-api';

/** "Transfer keys" for the mini-retailer shown, named as its profile names it (the same cached query). */
const MiniRetailerTransfer = ({ userId }: { userId: number }) => {
  const { data } = useGetRetailerQuery(userId);
  return data ? <TransferKeysButton userId={userId} name={data.shopName ?? data.name} /> : null;
};

/**
 * retailer_profile composed by the app: the retailers feature's page with the ledger feature's
 * slots filled: the keys per app_type of the retailer shown (own, or the mini-retailer's of
 * `user_id`) and, on a mini-retailer's profile, the parent's "Transfer keys".
 */
export const RetailerProfileRoute = () => {
  const [params] = useSearchParams();
  const raw = params.get('user_id');
  const userId = raw && /^\d+$/.test(raw) ? Number(raw) : undefined;
  return (
    <RetailerProfilePage
      balances={<KeyBalancesCard userId={userId} />}
      actions={userId === undefined ? null : <MiniRetailerTransfer userId={userId} />}
    />
  );
};
