import { paths } from '@kisht/domain/paths';
import type { TPlanActivation, TSellablePlan } from '@kisht/domain/plans/plans.schema';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { CustomerPlansCard } from '../components/customer-plans-card';
import { AntihackingPage } from './antihacking-page';
import { FamilycarePage } from './familycare-page';

let i18n: TI18n;
let writeText: ReturnType<typeof vi.fn>;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('type', 'retailer');
  writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** A plan as get_plans_antihacking / get_plans_familycare answer it (spec §3 names: app_type). */
const plan = (overrides: Partial<TSellablePlan>): TSellablePlan => ({
  id: 1,
  name: 'Anti-Hacking',
  app_type: 8,
  pricePaise: 29_900,
  durationMonths: 12,
  description: '',
  isActive: true,
  productIds: [],
  ...overrides,
});

const ANTIHACKING_PLANS = [
  plan({ id: 1 }),
  plan({ id: 2, name: 'Anti-Hacking Pro', app_type: 12, pricePaise: 49_900 }),
  plan({
    id: 3,
    name: 'Anti-Hacking Premium',
    app_type: 13,
    pricePaise: 79_900,
    durationMonths: 24,
    productIds: [9],
  }),
];
const FAMILY_PLANS = [
  plan({ id: 4, name: 'Family Care', app_type: 7, pricePaise: 39_900 }),
  plan({ id: 5, name: 'Family Care Plus', app_type: 7, pricePaise: 69_900, durationMonths: 24 }),
];

const activation = (overrides: Partial<TPlanActivation>): TPlanActivation => ({
  id: 11,
  planId: 2,
  planName: 'Anti-Hacking Pro',
  appType: 12,
  retailerId: 1,
  customerId: null,
  productId: null,
  firstName: 'Asha',
  lastName: 'Verma',
  email: null,
  mobile: '+919812300001',
  imei: null,
  code: 'K7QW-4M2P-9XZA',
  pricePaise: 49_900,
  startsOn: '2026-11-27',
  endsOn: '2027-11-26',
  status: 'issued',
  redeemedAt: null,
  // 20:00 UTC is the next day in India.
  createdAt: '2026-11-27T20:00:00.000Z',
  customerStatus: null,
  ...overrides,
});

const routes = [
  { path: appPaths.antihacking.path, element: <AntihackingPage /> },
  { path: appPaths.familycare.path, element: <FamilycarePage /> },
  { path: appPaths.customerList.path, element: <p>customer list</p> },
];

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

const openPlanSelect = () =>
  fireEvent.mouseDown(within(screen.getByTestId('plan-plan_id').parentElement!).getByRole('combobox'));

const planSelectText = () =>
  within(screen.getByTestId('plan-plan_id').parentElement!).getByRole('combobox').textContent;

/** A fake server's plans sold: none until `sell` answers the sale of `sold`, which then joins them. */
const fakeSales = (sold: TPlanActivation) => {
  const sales: TPlanActivation[] = [];
  return {
    activations: () => sales,
    sell: () => {
      sales.unshift(sold);
      return saleAnswer(sold);
    },
  };
};

const saleAnswer = (item: TPlanActivation) =>
  new Response(
    JSON.stringify({
      response: 'success',
      message: 'Plan activated. Share the code with the customer',
      data: [{ antihacking_code: item.code, activation: item }],
    }),
    { headers: { 'Content-Type': 'application/json' } },
  );

describe('/antihacking', () => {
  it("loads the plans on open, says 'This is a required field' and sends nothing when empty", async () => {
    const api = stubApi({
      [paths.plans.antihacking]: () => ANTIHACKING_PLANS,
      [paths.plans.activations]: () => [],
      [paths.plans.sell]: () => [],
    });
    renderRoutes({ i18n, url: appPaths.antihacking.href(), routes });
    fireEvent.click(await screen.findByTestId('plan-submit'));
    await waitFor(() => expect(screen.getAllByText('This is a required field')).toHaveLength(3));
    expect(api.requestsTo(paths.plans.antihacking)).toHaveLength(1);
    expect(api.requestsTo(paths.plans.sell)).toHaveLength(0);
    expect(new URL(api.requestsTo(paths.plans.activations)[0]!.url).searchParams.get('app_type')).toBe(
      '8,12,13',
    );

    openPlanSelect();
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Anti-Hacking₹299.00 · 12 months',
      'Anti-Hacking Pro₹499.00 · 12 months',
      'Anti-Hacking Premium₹799.00 · 24 months',
    ]);
  });

  it('sends the mobile with +91 and the plan’s app_type and name, shows the code in a modal, and its close replaces the entry with customer_list', async () => {
    const sold = activation({});
    const server = fakeSales(sold);
    const api = stubApi({
      [paths.plans.antihacking]: () => ANTIHACKING_PLANS,
      [paths.plans.activations]: server.activations,
      [paths.plans.sell]: server.sell,
    });
    const { router } = renderRoutes({ i18n, url: appPaths.antihacking.href(), routes });
    await screen.findByTestId('plan-sale-form');
    expect(screen.getByText('+91')).toBeTruthy();
    type('plan-firstName', 'Asha');
    type('plan-lastName', 'Verma');
    type('plan-email', 'asha@example.in');
    type('plan-mobile', '+91 98123 00001');
    expect((screen.getByTestId('plan-mobile') as HTMLInputElement).value).toBe('9812300001');
    openPlanSelect();
    fireEvent.click(await screen.findByRole('option', { name: /^Anti-Hacking Pro/ }));
    fireEvent.click(screen.getByTestId('plan-submit'));

    expect((await screen.findByTestId('sold-code')).textContent).toBe('K7QW-4M2P-9XZA');
    expect(await screen.findAllByText('Plan activated. Share the code with the customer')).not.toHaveLength(
      0,
    );
    expect(await api.bodiesTo(paths.plans.sell)).toEqual([
      {
        firstName: 'Asha',
        lastName: 'Verma',
        email: 'asha@example.in',
        mobile: '+919812300001',
        plan_id: 2,
        app_type: 12,
        plan_name: 'Anti-Hacking Pro',
      },
    ]);
    // The sale joins the list under the form (read again after a sale).
    expect((await screen.findByTestId('activation-row-11')).textContent).toContain('Asha Verma');

    fireEvent.click(screen.getByTestId('sold-code-close'));
    await waitFor(() => expect(router.state.location.pathname).toBe(appPaths.customerList.path));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('pre-selects the plan from plan_id or app_type and sends product_id; offers only plans for that product', async () => {
    const api = stubApi({
      [paths.plans.antihacking]: () => ANTIHACKING_PLANS,
      [paths.plans.activations]: () => [],
      [paths.catalogue.products]: () => [
        { id: 7, brand: 'Samsung', name: 'Galaxy A15', pricePaise: 1_500_000 },
      ],
      [paths.plans.sell]: () => saleAnswer(activation({ planId: 2 })),
    });
    renderRoutes({ i18n, url: `${appPaths.antihacking.href()}?app_type=12&product_id=7`, routes });
    await waitFor(() => expect(planSelectText()).toBe('Anti-Hacking Pro'));
    expect((await screen.findByTestId('plan-product')).textContent).toBe('For Samsung Galaxy A15');
    openPlanSelect();
    // Premium covers product 9 only.
    expect((await screen.findAllByRole('option')).map((o) => o.getAttribute('data-value'))).toEqual([
      '1',
      '2',
    ]);
    fireEvent.keyDown(screen.getAllByRole('option')[0]!, { key: 'Escape' });
    type('plan-firstName', 'Asha');
    type('plan-mobile', '9812300001');
    fireEvent.click(screen.getByTestId('plan-submit'));
    await screen.findByTestId('sold-code');
    expect(await api.bodiesTo(paths.plans.sell)).toEqual([
      expect.objectContaining({ plan_id: 2, app_type: 12, plan_name: 'Anti-Hacking Pro', product_id: 7 }),
    ]);
    cleanup();

    stubApi({ [paths.plans.antihacking]: () => ANTIHACKING_PLANS, [paths.plans.activations]: () => [] });
    renderRoutes({ i18n, url: `${appPaths.antihacking.href()}?app_type=12&plan_id=3`, routes });
    await waitFor(() => expect(planSelectText()).toBe('Anti-Hacking Premium'));
  });

  it('toasts the server’s message on a failure and puts a field error under its field', async () => {
    let answer = () =>
      failureResponse(409, 'No keys left for this plan. Buy keys to sell it.', { code: 'NO_KEYS' });
    stubApi({
      [paths.plans.antihacking]: () => ANTIHACKING_PLANS,
      [paths.plans.activations]: () => [],
      [paths.plans.sell]: () => answer(),
    });
    renderRoutes({ i18n, url: `${appPaths.antihacking.href()}?plan_id=1`, routes });
    await waitFor(() => expect(planSelectText()).toBe('Anti-Hacking'));
    type('plan-firstName', 'Asha');
    type('plan-mobile', '9812300001');
    fireEvent.click(screen.getByTestId('plan-submit'));
    expect(await screen.findByText('No keys left for this plan. Buy keys to sell it.')).toBeTruthy();
    expect(screen.queryByTestId('sold-code')).toBeNull();

    answer = () =>
      failureResponse(400, 'Invalid email', {
        fields: [{ field: 'email', message: 'This email is not allowed' }],
      });
    fireEvent.click(screen.getByTestId('plan-submit'));
    const emailHelper = await screen.findAllByText('This email is not allowed');
    expect(
      emailHelper.some(
        (node) => node.id === screen.getByTestId('plan-email').getAttribute('aria-describedby'),
      ),
    ).toBe(true);
  });

  it('lists the plans sold (name, mobile, plan, DD-MM-YYYY +05:30, status); a row opens the code drawer, whose Copy toasts', async () => {
    stubApi({
      [paths.plans.antihacking]: () => ANTIHACKING_PLANS,
      [paths.plans.activations]: () => [
        activation({}),
        activation({ id: 12, planName: 'Anti-Hacking', status: 'redeemed', code: '' }),
      ],
    });
    renderRoutes({ i18n, url: appPaths.antihacking.href(), routes });
    const row = await screen.findByTestId('activation-row-11');
    expect(within(row).getByTestId('activation-name').textContent).toBe('Asha Verma');
    expect(within(row).getByTestId('activation-mobile').textContent).toBe('+91 98123 00001');
    expect(within(row).getByTestId('activation-plan').textContent).toBe('Anti-Hacking Pro');
    expect(within(row).getByTestId('activation-date').textContent).toBe('28-11-2026');
    expect(within(row).getByTestId('activation-status').textContent).toBe('Issued');
    expect(within(screen.getByTestId('activation-row-12')).getByTestId('activation-status').textContent).toBe(
      'Redeemed',
    );

    fireEvent.click(row);
    expect((await screen.findByTestId('code-drawer-code')).textContent).toBe('K7QW-4M2P-9XZA');
    expect(screen.getByRole('dialog', { name: 'Anti-Hacking Pro code' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByTestId('code-drawer-copy'));
    });
    expect(writeText).toHaveBeenCalledWith('K7QW-4M2P-9XZA');
    expect(screen.getByTestId('code-drawer-copy').textContent).toBe('Copied');
    expect(await screen.findByText('Code Copied Successfully.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('code-drawer-cancel'));
    await waitFor(() => expect(screen.queryByTestId('code-drawer')).toBeNull());

    fireEvent.click(screen.getByTestId('activation-row-12'));
    await waitFor(() => expect(screen.getByTestId('code-drawer-code').textContent).toBe('N/A'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('code-drawer-copy'));
    });
    expect(await screen.findByText('Code not found')).toBeTruthy();
    expect(writeText).toHaveBeenCalledTimes(1);
  });
});

describe('/familycare', () => {
  it('sells a family-care plan and opens the code drawer with the new code; Copy falls back to the copy command', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const execCommand = vi.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    const sold = activation({
      id: 21,
      planId: 5,
      planName: 'Family Care Plus',
      appType: 7,
      code: 'FC00-1111-2222',
    });
    const server = fakeSales(sold);
    const api = stubApi({
      [paths.plans.familycare]: () => FAMILY_PLANS,
      [paths.plans.activations]: server.activations,
      [paths.plans.sell]: server.sell,
    });
    renderRoutes({ i18n, url: appPaths.familycare.href(), routes });
    await screen.findByTestId('plan-sale-form');
    expect(new URL(api.requestsTo(paths.plans.activations)[0]!.url).searchParams.get('app_type')).toBe('7');
    type('plan-firstName', 'Asha');
    type('plan-mobile', '9812300001');
    openPlanSelect();
    fireEvent.click(await screen.findByRole('option', { name: /^Family Care Plus/ }));
    fireEvent.click(screen.getByTestId('plan-submit'));
    expect((await screen.findByTestId('code-drawer-code')).textContent).toBe('FC00-1111-2222');
    expect(await api.bodiesTo(paths.plans.sell)).toEqual([
      {
        firstName: 'Asha',
        lastName: '',
        mobile: '+919812300001',
        plan_id: 5,
        app_type: 7,
        plan_name: 'Family Care Plus',
      },
    ]);
    await act(async () => {
      fireEvent.click(screen.getByTestId('code-drawer-copy'));
    });
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(await screen.findByText('Code Copied Successfully.')).toBeTruthy();
    expect(await screen.findByTestId('activation-row-21')).toBeTruthy();
  });
});

describe("customer_details' plans card", () => {
  it("lists the customer's plans and opens each one's code", async () => {
    const api = stubApi({
      [paths.plans.activations]: () => [activation({ customerId: 5, status: 'redeemed' })],
    });
    renderRoutes({
      i18n,
      url: '/c',
      routes: [{ path: '/c', element: <CustomerPlansCard customerId={5} /> }],
    });
    const row = await screen.findByTestId('customer-plan-11');
    expect(row.textContent).toContain('Anti-Hacking Pro');
    expect(row.textContent).toContain('Redeemed');
    expect(new URL(api.requestsTo(paths.plans.activations)[0]!.url).searchParams.get('customer_id')).toBe(
      '5',
    );
    fireEvent.click(screen.getByTestId('customer-plan-code-11'));
    expect((await screen.findByTestId('code-drawer-code')).textContent).toBe('K7QW-4M2P-9XZA');
  });
});
