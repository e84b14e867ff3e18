import type { TAdminRetailer } from '@kisht/domain/ledger/ledger.schema';
import type { TCreatePartnerKey, TPartnerKey } from '@kisht/domain/partner-api/partner-api.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { PartnerKeysPanel } from './partner-keys-panel';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const partnerKey = (overrides: Partial<TPartnerKey> = {}): TPartnerKey => ({
  id: 5,
  name: 'HDB loan system',
  keyPrefix: 'kisht_pk_a1b2c3d4e5f6',
  scopes: ['read', 'payments'],
  retailerId: 7,
  retailerName: 'Sharma Mobiles',
  createdAt: '2026-11-29T07:30:00.000Z',
  revokedAt: null,
  ...overrides,
});

const retailer = (overrides: Partial<TAdminRetailer> = {}): TAdminRetailer => ({
  id: 7,
  name: 'Ravi Sharma',
  shopName: 'Sharma Mobiles',
  mobile: '+919876543210',
  isActive: true,
  ...overrides,
});

const API_KEY = 'kisht_pk_a1b2c3d4e5f6_Qm9vdHN0cmFwLXNlY3JldC1ub3QtcmVhbC1rZXktMTIz';

const renderPanel = () =>
  renderRoutes({ i18n, url: '/admin', routes: [{ path: '/admin', element: <PartnerKeysPanel /> }] });

/** Types in the retailer picker as a person does: in the focused field. */
const typeRetailerSearch = async (text: string) => {
  const input = await screen.findByTestId('partner-key-retailer');
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: text } });
};

/** Opens "New API key" and fills the name, ticks the scopes and picks the retailer by typing. */
const fillNewKey = async (options: {
  name: string;
  scopes: string[];
  retailerSearch: string;
  retailer: RegExp;
}) => {
  fireEvent.click(await screen.findByTestId('partner-key-add'));
  fireEvent.change(await screen.findByTestId('partner-key-name'), { target: { value: options.name } });
  for (const scope of options.scopes)
    fireEvent.click(within(screen.getByTestId(`partner-key-scope-${scope}`)).getByRole('checkbox'));
  await typeRetailerSearch(options.retailerSearch);
  fireEvent.click(await screen.findByRole('option', { name: options.retailer }));
};

/** The helper text under a form field (what its aria-describedby points at). */
const helperTextOf = (input: HTMLElement): string | null => {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
};

describe('the partner API keys panel (issue 30)', () => {
  it('lists the keys newest first with their prefix, scopes, retailer and dates', async () => {
    stubApi({
      [paths.partnerKeys.keys]: () => [
        partnerKey({
          id: 4,
          name: 'Old test key',
          keyPrefix: 'kisht_pk_zzzzzzzzzzzz',
          scopes: ['devices'],
          retailerName: 'Gupta Telecom',
          createdAt: '2026-11-01T04:30:00.000Z',
          revokedAt: '2026-11-20T10:00:00.000Z',
        }),
        partnerKey(),
      ],
    });
    renderPanel();
    const live = await screen.findByTestId('partner-key-5');
    const revoked = screen.getByTestId('partner-key-4');
    // Newest first, whatever order the list came in.
    expect(live.compareDocumentPosition(revoked) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    expect(live.textContent).toContain('HDB loan system');
    expect(within(live).getByTestId('partner-key-prefix-5').textContent).toBe('kisht_pk_a1b2c3d4e5f6…');
    expect(within(live).getByText('Read')).toBeTruthy();
    expect(within(live).getByText('Payments')).toBeTruthy();
    expect(within(live).queryByText('Devices')).toBeNull();
    expect(live.textContent).toContain('Loans booked under Sharma Mobiles');
    expect(live.textContent).toContain('Created 29-11-2026 01:00 PM');
    expect(within(live).getByTestId('partner-key-status-5').textContent).toBe('Active');
    expect(within(live).queryByTestId('partner-key-revoked-5')).toBeNull();
    expect(within(live).getByTestId('partner-key-revoke-5')).toBeTruthy();

    expect(within(revoked).getByTestId('partner-key-status-4').textContent).toBe('Revoked');
    expect(within(revoked).getByTestId('partner-key-revoked-4').textContent).toBe(
      'Revoked 20-11-2026 03:30 PM',
    );
    expect(within(revoked).getByText('Devices')).toBeTruthy();
    expect(within(revoked).queryByTestId('partner-key-revoke-4')).toBeNull();

    const docs = screen.getByTestId('partner-keys-docs-link');
    expect(docs.getAttribute('href')).toBe(new URL(paths.partner.openapi, window.location.href).href);
  });

  it('makes a key with its name, scopes and retailer, and shows its text once', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    // jsdom has no clipboard; the rest of navigator (onLine) stays as it is.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    onTestFinished(() => {
      Reflect.deleteProperty(navigator, 'clipboard');
    });
    const api = stubApi({
      [paths.partnerKeys.keys]: async (request) => {
        if (request.method !== 'POST') return [];
        const body = (await request.json()) as TCreatePartnerKey;
        return {
          key: partnerKey({ name: body.name, scopes: body.scopes, retailerId: body.retailer_id }),
          apiKey: API_KEY,
        };
      },
      [paths.admin.retailers]: (_request, url) =>
        url.searchParams.get('search') === 'Sharma'
          ? [
              retailer(),
              retailer({ id: 9, shopName: 'Sharma Old Shop', mobile: '+919812345678', isActive: false }),
            ]
          : [],
    });
    renderPanel();
    expect(await screen.findByTestId('partner-keys-empty')).toBeTruthy();

    // Nothing filled in: nothing is sent, and each field says what it needs.
    fireEvent.click(screen.getByTestId('partner-key-add'));
    fireEvent.click(await screen.findByTestId('partner-key-save'));
    expect(await screen.findByText('Choose at least one scope')).toBeTruthy();
    expect(helperTextOf(screen.getByTestId('partner-key-name'))).toBe('This is a required field');
    expect(helperTextOf(screen.getByTestId('partner-key-retailer'))).toBe('Choose a retailer');
    expect(api.requestsTo(paths.partnerKeys.keys).filter((r) => r.method === 'POST')).toHaveLength(0);
    fireEvent.click(screen.getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('partner-key-add-dialog')).toBeNull());

    fireEvent.click(screen.getByTestId('partner-key-add'));
    await typeRetailerSearch('Sharma');
    // An inactive retailer is offered but cannot be chosen.
    expect(
      (await screen.findByRole('option', { name: /^Sharma Old Shop/ })).getAttribute('aria-disabled'),
    ).toBe('true');
    fireEvent.click(screen.getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('partner-key-add-dialog')).toBeNull());

    await fillNewKey({
      name: 'HDB loan system',
      scopes: ['payments', 'read'],
      retailerSearch: 'Sharma',
      retailer: /^Sharma Mobiles/,
    });
    fireEvent.click(screen.getByTestId('partner-key-save'));

    const shown = await screen.findByTestId('partner-key-secret');
    expect(within(shown).getByTestId('partner-key-secret-value').textContent).toBe(API_KEY);
    expect(shown.textContent).toContain('it is shown only once and cannot be shown again');
    const posts = api.requestsTo(paths.partnerKeys.keys).filter((r) => r.method === 'POST');
    expect(await Promise.all(posts.map((r) => r.json()))).toEqual([
      { name: 'HDB loan system', scopes: ['read', 'payments'], retailer_id: 7 },
    ]);
    fireEvent.click(within(shown).getByTestId('partner-key-secret-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(API_KEY));

    fireEvent.click(within(shown).getByTestId('partner-key-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('partner-key-secret')).toBeNull());
    expect(screen.getByTestId('partner-key-5').textContent).toContain('HDB loan system');
    expect(screen.queryByText(API_KEY)).toBeNull();
  });

  it('shows the server’s words under the field it refused', async () => {
    stubApi({
      [paths.partnerKeys.keys]: (request) =>
        request.method === 'POST'
          ? failureResponse(400, 'Invalid input', {
              fields: [{ field: 'retailer_id', message: 'This retailer is not active' }],
            })
          : [],
      [paths.admin.retailers]: () => [retailer()],
    });
    renderPanel();
    await fillNewKey({
      name: 'HDB',
      scopes: ['devices'],
      retailerSearch: 'Sharma',
      retailer: /^Sharma Mobiles/,
    });
    fireEvent.click(screen.getByTestId('partner-key-save'));
    await waitFor(() =>
      expect(helperTextOf(screen.getByTestId('partner-key-retailer'))).toBe('This retailer is not active'),
    );
    expect(helperTextOf(screen.getByTestId('partner-key-name'))).toBe(
      'To know the key by, e.g. HDB loan system',
    );
    expect(screen.queryByTestId('partner-key-secret')).toBeNull();
  });

  it('revokes a key only after the confirmation', async () => {
    let current = partnerKey();
    const api = stubApi({
      [paths.partnerKeys.keys]: (request) => {
        if (request.method === 'DELETE') current = { ...current, revokedAt: '2026-12-01T06:30:00.000Z' };
        return request.method === 'DELETE' ? current : [current];
      },
    });
    renderPanel();
    fireEvent.click(await screen.findByTestId('partner-key-revoke-5'));
    expect(await screen.findByText('Revoke this key?')).toBeTruthy();
    expect(screen.getByText('Calls with it stop working at once.')).toBeTruthy();
    expect(api.requestsTo(paths.partnerKeys.keys).filter((r) => r.method === 'DELETE')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('partner-key-confirm'));
    await waitFor(() => expect(screen.getByTestId('partner-key-status-5').textContent).toBe('Revoked'));
    const deletes = api.requestsTo(paths.partnerKeys.keys).filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => new URL(r.url).searchParams.get('key_id'))).toEqual(['5']);
    expect(screen.getByTestId('partner-key-revoked-5').textContent).toBe('Revoked 01-12-2026 12:00 PM');
    expect(screen.queryByTestId('partner-key-revoke-5')).toBeNull();
  });
});
