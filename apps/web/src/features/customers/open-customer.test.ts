import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import { describe, expect, it } from 'vitest';
import { openCustomerTarget } from './open-customer';

/** A fake organisation config: only the page choices matter here. */
const orgConfig = (
  inactiveCustomer: TOrgAppConfig['pages']['inactiveCustomer'],
): Pick<TOrgAppConfig, 'pages'> => ({
  pages: { dashboard: 'cards', inactiveCustomer },
});

describe('openCustomerTarget (spec §2 opening a customer)', () => {
  it("opens an inactive customer on customer_navigate when the org says 'navigate'", () => {
    expect(openCustomerTarget({ id: 9, status: 0 }, orgConfig('navigate'))).toEqual({
      kind: 'navigate',
      href: '/customer_navigate?customer_id=9',
    });
  });

  it("warns and stays for an inactive customer when the org says 'warn'", () => {
    expect(openCustomerTarget({ id: 9, status: 0 }, orgConfig('warn'))).toEqual({ kind: 'inactive-warning' });
  });

  it('navigates an inactive customer when no org config could be loaded', () => {
    expect(openCustomerTarget({ id: 9, status: 0 }, null)).toEqual({
      kind: 'navigate',
      href: '/customer_navigate?customer_id=9',
    });
  });

  it.each([1, 2, 3, 4, 5, 6] as const)(
    'opens status %i on customer_details, whatever the org says',
    (status) => {
      for (const config of [orgConfig('warn'), orgConfig('navigate'), null]) {
        expect(openCustomerTarget({ id: 9, status }, config)).toEqual({
          kind: 'navigate',
          href: '/customer_details/9',
        });
      }
    },
  );
});
