import { AdminHomePage } from '../features/admin/pages/admin-home-page';
import { OrgPagesEditor } from '../features/org-pages/components/org-pages-editor';

/** The admin home with the org-pages feature's editor as its pages tab (features do not import each other). */
export const AdminRoute = () => <AdminHomePage pagesPanel={<OrgPagesEditor />} />;
