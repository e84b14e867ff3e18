import { paths } from '@kisht/domain/paths';
import type { TPlan, TPlanActivation } from '@kisht/domain/plans/plans.schema';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCustomerDetails } from '../test/fixtures';
import { createTestI18n } from '../test/test-i18n';
import { renderCustomerDetails, stubCustomerDetailsApi } from './customer-details-test-support';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => localStorage.setItem('token', 'jwt-123'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const PLAN: TPlan = {
  id: 6,
  name: 'Family Care',
  appType: 7,
  pricePaise: 39_900,
  durationMonths: 12,
  description: '',
  isActive: true,
  productIds: [],
};

describe('customer_details: a plan sold to an existing customer (issue 14)', () => {
  it("sells a plan for the customer's phone from their page, without add_customer's skip hint, and shows the code", async () => {
    let sold: TPlanActivation[] = [];
    const api = stubCustomerDetailsApi({
      customer: createCustomerDetails(),
      handlers: {
        [paths.plans.list]: () => [PLAN],
        [paths.plans.activations]: () => sold,
        [paths.plans.sell]: () => {
          const activation = { id: 9, planName: 'Family Care', code: 'AB12-CD34-EF56' } as TPlanActivation;
          sold = [activation];
          return [{ antihacking_code: activation.code, activation }];
        },
      },
    });
    renderCustomerDetails(i18n);
    const option = await screen.findByTestId('add-customer-plan-6');
    expect(new URL(api.requestsTo(paths.plans.list)[0]!.url).searchParams.get('product_id')).toBe('1');
    expect(screen.queryByText('To skip, just continue.')).toBeNull();

    fireEvent.click(option.querySelector('input')!);
    fireEvent.click(screen.getByTestId('add-customer-plan-sell'));
    expect((await screen.findByTestId('add-customer-plan-code')).textContent).toBe('AB12-CD34-EF56');
    expect(await api.bodiesTo(paths.plans.sell)).toEqual([
      {
        customer_id: 5,
        plan_id: 6,
        firstName: 'Anita',
        lastName: 'Rao',
        mobile: '+919876543210',
        email: '',
      },
    ]);
    // The customer's plans are read again after the sale.
    await waitFor(() => expect(api.requestsTo(paths.plans.activations).length).toBeGreaterThanOrEqual(2));
  });
});
