import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import type { TPlan, TPlanActivation } from '@kisht/domain/plans/plans.schema';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { AddCustomerPlanStep } from './add-customer-plan-step';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const CUSTOMER = {
  id: 42,
  firstName: 'Meera',
  lastName: 'Nair',
  mobile: '+919123456780',
  email: 'meera@example.in',
  productId: 3,
} as TCustomerDetails;
const PLANS: TPlan[] = [
  {
    id: 5,
    name: 'Anti-Hacking Pro',
    appType: 12,
    pricePaise: 49_900,
    durationMonths: 12,
    description: '',
    isActive: true,
    productIds: [],
  },
  {
    id: 6,
    name: 'Family Care',
    appType: 7,
    pricePaise: 39_900,
    durationMonths: 24,
    description: '',
    isActive: true,
    productIds: [3],
  },
];

const render = (sell: () => unknown) => {
  const api = stubApi({
    [paths.customers.details]: () => CUSTOMER,
    [paths.plans.list]: () => PLANS,
    [paths.plans.sell]: sell,
  });
  renderRoutes({
    routes: [{ path: '/add_customer', element: <AddCustomerPlanStep customerId={42} /> }],
    url: '/add_customer?customer_id=42',
    i18n,
  });
  return api;
};

describe('add_customer: Add a protection plan', () => {
  it("offers the plans for the customer's product and sells the chosen one with the customer's details, showing the code", async () => {
    const api = render(() => [
      { antihacking_code: 'AB12-CD34-EF56', activation: { planName: 'Family Care' } as TPlanActivation },
    ]);
    const option = await screen.findByTestId('add-customer-plan-6');
    expect(option.textContent).toBe('Family Care · ₹399.00 · 24 months');
    expect(screen.getByTestId('add-customer-plan-5').textContent).toBe(
      'Anti-Hacking Pro · ₹499.00 · 12 months',
    );
    expect(new URL(api.requestsTo(paths.plans.list)[0]!.url).searchParams.get('product_id')).toBe('3');
    const sell = screen.getByTestId('add-customer-plan-sell') as HTMLButtonElement;
    // Nothing chosen: nothing to sell (skipping is continuing).
    expect(sell.disabled).toBe(true);

    fireEvent.click(option.querySelector('input')!);
    fireEvent.click(sell);
    expect((await screen.findByTestId('add-customer-plan-code')).textContent).toBe('AB12-CD34-EF56');
    expect(screen.getByTestId('add-customer-plan-sold').textContent).toContain(
      'Activation code for Family Care',
    );
    expect(await api.bodiesTo(paths.plans.sell)).toEqual([
      {
        customer_id: 42,
        plan_id: 6,
        firstName: 'Meera',
        lastName: 'Nair',
        mobile: '+919123456780',
        email: 'meera@example.in',
      },
    ]);
  });

  it('keeps the choice after a refusal (NO_KEYS), showing no code', async () => {
    const api = render(() => failureResponse(409, 'No Family care keys left', { code: 'NO_KEYS' }));
    fireEvent.click((await screen.findByTestId('add-customer-plan-6')).querySelector('input')!);
    fireEvent.click(screen.getByTestId('add-customer-plan-sell'));
    await waitFor(() => expect(api.requestsTo(paths.plans.sell)).toHaveLength(1));
    await waitFor(() =>
      expect((screen.getByTestId('add-customer-plan-sell') as HTMLButtonElement).disabled).toBe(false),
    );
    expect(screen.queryByTestId('add-customer-plan-code')).toBeNull();
  });
});
