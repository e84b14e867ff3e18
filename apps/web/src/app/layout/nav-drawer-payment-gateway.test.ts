import { DEFAULT_USER_ACCESS } from '@kisht/domain/devices/devices.schema';
import { describe, expect, it } from 'vitest';
import { drawerItemsFor } from './nav-drawer';

const routesFor = (isPaymentGatewayOn: boolean | undefined, userType: 'retailer' | 'customer' = 'retailer') =>
  drawerItemsFor({ userType, userAccess: DEFAULT_USER_ACCESS, isPaymentGatewayOn }).map((item) => item.route);

describe('drawer: payment_gateway', () => {
  it('lists "Buy keys" only when the organisation has the payment gateway on (spec §1, off by default)', () => {
    expect(routesFor(true)).toContain('paymentGateway');
    expect(routesFor(false)).not.toContain('paymentGateway');
    expect(routesFor(undefined)).not.toContain('paymentGateway');
    expect(routesFor(true, 'customer')).not.toContain('paymentGateway');
  });
});
