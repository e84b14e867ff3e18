import type { TProduct } from '@kisht/domain/catalogue/catalogue.schema';
import { paths } from '@kisht/domain/paths';
import type { TPlan } from '@kisht/domain/plans/plans.schema';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { ZPlanForm } from '../plan-form';
import { PlansPanel } from './plans-panel';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PRODUCTS: TProduct[] = [
  { id: 1, brand: 'Xiaomi', name: 'Redmi Note 14 5G', pricePaise: 1_899_900, platform: 'android' },
  { id: 2, brand: 'Apple', name: 'iPhone 16', pricePaise: 7_990_000, platform: 'ios' },
];
const plan = (overrides: Partial<TPlan>): TPlan => ({
  id: 1,
  name: 'Anti-Hacking',
  appType: 8,
  pricePaise: 29_900,
  durationMonths: 12,
  description: '',
  isActive: true,
  productIds: [],
  ...overrides,
});

const render = (plans: TPlan[], save: (body: Record<string, unknown>) => unknown) => {
  const api = stubApi({
    [paths.plans.list]: (request) =>
      request.method === 'PUT' ? request.json().then((body) => save(body as Record<string, unknown>)) : plans,
    [paths.catalogue.products]: () => PRODUCTS,
  });
  renderRoutes({ routes: [{ path: '/admin', element: <PlansPanel /> }], url: '/admin', i18n });
  return api;
};

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('ZPlanForm (rupees → paise)', () => {
  it.each([
    ['199.99', 19_999],
    ['0.07', 7],
    ['1,299.5', 129_950],
    ['4999', 499_900],
  ])('reads ₹%s as %i paise, exactly', (rupees, paise) => {
    const parsed = ZPlanForm.parse({
      name: 'X',
      appType: 8,
      rupees,
      durationMonths: 12,
      description: '',
      isActive: true,
      productIds: [],
    });
    expect(parsed.pricePaise).toBe(paise);
  });

  it.each(['1.005', 'abc', '', '-5', '10000001'])('refuses ₹%s under the price', (rupees) => {
    const result = ZPlanForm.safeParse({
      name: 'X',
      appType: 8,
      rupees,
      durationMonths: 12,
      description: '',
      isActive: true,
      productIds: [],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      rupees === '10000001' ? 'pricePaise' : 'rupees',
    ]);
  });
});

describe('Plans (organisation admin)', () => {
  it('lists plans by type with price, term and status, and edits one: price in rupees sent as paise, deactivated', async () => {
    const saved: Record<string, unknown>[] = [];
    render(
      [
        plan({}),
        plan({
          id: 2,
          name: 'Family Care',
          appType: 7,
          pricePaise: 39_900,
          isActive: false,
          productIds: [2],
        }),
      ],
      (body) => {
        saved.push(body);
        return plan({ id: 1, name: 'Anti-Hacking', pricePaise: 34_950, isActive: false });
      },
    );
    const group = await screen.findByTestId('plan-group-8');
    expect(group.textContent).toContain('Anti-hacking');
    expect(screen.getByTestId('plan-terms-1').textContent).toBe('₹299.00 · 12 months · All products');
    expect(screen.getByTestId('plan-status-1').textContent).toBe('Active');
    expect(screen.getByTestId('plan-group-7').textContent).toContain('Family care');
    expect(screen.getByTestId('plan-status-2').textContent).toBe('Inactive');
    expect(screen.getByTestId('plan-terms-2').textContent).toContain('1 product');

    fireEvent.click(screen.getByTestId('plan-edit-1'));
    const dialog = await screen.findByTestId('plan-dialog');
    expect((screen.getByTestId('plan-price') as HTMLInputElement).value).toBe('299');
    type('plan-price', '349.50');
    fireEvent.click(screen.getByTestId('plan-active'));
    fireEvent.click(within(dialog).getByTestId('plan-save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      plan_id: 1,
      name: 'Anti-Hacking',
      appType: 8,
      pricePaise: 34_950,
      durationMonths: 12,
      description: '',
      isActive: false,
      productIds: [],
    });
    await waitFor(() => expect(screen.queryByTestId('plan-dialog')).toBeNull());
    await waitFor(() => expect(screen.getByTestId('plan-status-1').textContent).toBe('Inactive'));
    expect(screen.getByTestId('plan-terms-1').textContent).toContain('₹349.50');
  });

  it('checks the form before sending and puts the server’s field errors under their fields', async () => {
    const saved: Record<string, unknown>[] = [];
    render([], (body) => {
      saved.push(body);
      return failureResponse(404, 'Product not found', {
        code: 'PRODUCT_NOT_FOUND',
        fields: [{ field: 'productIds', message: 'No product 9 in your catalogue' }],
      });
    });
    expect(await screen.findByText('No plans yet.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('plan-add'));
    const dialog = await screen.findByTestId('plan-dialog');
    type('plan-price', '12.345');
    fireEvent.click(within(dialog).getByTestId('plan-save'));
    expect(await within(dialog).findByText('This is a required field')).toBeTruthy();
    expect(within(dialog).getByText(/Enter a price from ₹0 to ₹10,00,000/)).toBeTruthy();
    expect(saved).toHaveLength(0);

    type('plan-name', 'Screen Guard');
    type('plan-price', '99');
    fireEvent.click(within(dialog).getByTestId('plan-save'));
    expect(await within(dialog).findByText('No product 9 in your catalogue')).toBeTruthy();
    expect(saved[0]).toMatchObject({ name: 'Screen Guard', appType: 4, pricePaise: 9_900, isActive: true });
    expect(saved[0]).not.toHaveProperty('plan_id');
  });
});
