import type { TUserType } from '@kisht/domain/common/enums';
import { DEFAULT_USER_ACCESS } from '@kisht/domain/devices/devices.schema';
import { describe, expect, it } from 'vitest';
import { drawerItemsFor } from './nav-drawer';

const routesFor = (userType: TUserType) =>
  drawerItemsFor({ userType, userAccess: DEFAULT_USER_ACCESS }).map((item) => item.route);

describe('drawer: key_requests (issue 30)', () => {
  it('lists "Key requests" for retailers and mini-retailers only (the admin has its tab)', () => {
    expect(routesFor('retailer')).toContain('keyRequests');
    expect(routesFor('miniretailer')).toContain('keyRequests');
    expect(routesFor('customer')).not.toContain('keyRequests');
    expect(routesFor('admin')).not.toContain('keyRequests');
  });
});
