import { LoginPage } from '../features/auth/pages/login-page';
import { JoinRequestLink } from '../features/joining/components/join-request-link';
import { useOrgId } from '../lib/http/org-config-api';

/** The login screen with the join request of a shop that is not yet a retailer (issue 13). */
export const LoginRoute = () => {
  const orgId = useOrgId();
  return <LoginPage footer={<JoinRequestLink orgId={orgId} />} />;
};
