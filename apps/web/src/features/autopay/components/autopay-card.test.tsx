import type { TMandate } from '@kisht/domain/autopay/autopay.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fake-api';
import { fakeOrgConfig, renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { AutopayCard } from './autopay-card';

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

const mandate = (overrides: Partial<TMandate> = {}): TMandate => ({
  id: 7,
  customerId: 5,
  state: 'created',
  maxAmountPaise: 250_000,
  frequency: 'as_presented',
  expireAt: '2027-06-30T18:29:59.000Z',
  authorisationLink: 'upi://mandate?pa=kisht@razorpay&tr=order_1',
  endedBy: null,
  createdAt: '2026-11-29T07:30:00.000Z',
  updatedAt: '2026-11-29T07:30:00.000Z',
  charges: [],
  ...overrides,
});

const renderCard = (props: { canSetUp?: boolean } = {}, isGatewayOn = true) =>
  renderRoutes({
    i18n,
    orgConfig: fakeOrgConfig({ features: { witnessLayout: false, paymentGateway: isGatewayOn } }),
    url: '/x',
    routes: [{ path: '/x', element: <AutopayCard customerId={5} {...props} /> }],
  });

describe('the UPI AutoPay card (issue 29)', () => {
  it('sets AutoPay up and shows the approval QR for the customer’s UPI app', async () => {
    let current: TMandate | null = null;
    const api = stubApi({
      [paths.autopay.mandate]: (request) => {
        if (request.method === 'POST') current = mandate();
        return current;
      },
    });
    renderCard();
    expect((await screen.findByTestId('autopay-none')).textContent).toContain('not set up');
    fireEvent.click(screen.getByTestId('autopay-set-up'));
    const qr = await screen.findByTestId('autopay-qr');
    expect(within(qr).getByTitle('AutoPay approval QR')).toBeTruthy();
    expect(within(qr).getByRole('link', { name: 'Open in UPI app' }).getAttribute('href')).toBe(
      'upi://mandate?pa=kisht@razorpay&tr=order_1',
    );
    expect(screen.getByTestId('autopay-state').textContent).toBe('Waiting for approval');
    expect(screen.getByText('Up to ₹2,500.00 per instalment')).toBeTruthy();
    const posts = api.requestsTo(paths.autopay.mandate).filter((r) => r.method === 'POST');
    expect(await Promise.all(posts.map((r) => r.json()))).toEqual([{ customer_id: 5 }]);
  });

  it('lists the charges and cancels only after the confirmation', async () => {
    let current = mandate({
      state: 'active',
      authorisationLink: null,
      charges: [
        {
          instalmentNo: 2,
          attempt: 2,
          amountPaise: 250_000,
          status: 'captured',
          chargeDate: '2026-12-06',
          receiptNo: 'KR-41-000012',
          failureReason: null,
        },
        {
          instalmentNo: 2,
          attempt: 1,
          amountPaise: 250_000,
          status: 'failed',
          chargeDate: '2026-12-05',
          receiptNo: null,
          failureReason: 'Debit failed: insufficient balance',
        },
      ],
    });
    const api = stubApi({
      [paths.autopay.mandate]: (request) => {
        if (request.method === 'DELETE') current = { ...current, state: 'cancelled', endedBy: 'shop' };
        return current;
      },
    });
    renderCard();
    expect((await screen.findByTestId('autopay-state')).textContent).toBe('Active');
    const paid = screen.getByTestId('autopay-charge-2-2');
    expect(paid.textContent).toContain('EMI 2 · attempt 2 · ₹2,500.00 · 06-12-2026');
    expect(paid.textContent).toContain('KR-41-000012');
    expect(screen.getByTestId('autopay-charge-2-1').textContent).toContain('insufficient balance');
    expect(screen.queryByTestId('autopay-qr')).toBeNull();

    fireEvent.click(screen.getByTestId('autopay-cancel'));
    expect(await screen.findByText('Cancel AutoPay?')).toBeTruthy();
    expect(api.requestsTo(paths.autopay.mandate).filter((r) => r.method === 'DELETE')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('autopay-cancel-confirm'));
    await waitFor(() => expect(screen.getByTestId('autopay-state').textContent).toBe('Cancelled'));
    const deletes = api.requestsTo(paths.autopay.mandate).filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => new URL(r.url).searchParams.get('customer_id'))).toEqual(['5']);
    expect(screen.getByText('Ended by the shop')).toBeTruthy();
  });

  it('shows a customer without AutoPay nothing, and says offline that it is not kept', async () => {
    const api = stubApi({ [paths.autopay.mandate]: () => null });
    renderCard({ canSetUp: false });
    await waitFor(() => expect(api.requestsTo(paths.autopay.mandate)).toHaveLength(1));
    // Loaded (no skeleton any more) and nothing drawn.
    await waitFor(() => expect(document.querySelector('.MuiSkeleton-root')).toBeNull());
    expect(screen.queryByTestId('autopay-card')).toBeNull();
    expect(screen.queryByTestId('autopay-set-up')).toBeNull();
    cleanup();
    renderRoutes({
      i18n,
      orgConfig: fakeOrgConfig({ features: { witnessLayout: false, paymentGateway: true } }),
      url: '/x',
      routes: [{ path: '/x', element: <AutopayCard customerId={5} isOffline /> }],
    });
    expect((await screen.findByTestId('autopay-card')).textContent).toContain(
      i18n.t('common.notKeptOffline'),
    );
  });

  it('draws nothing and reads nothing for an organisation without the payment gateway', async () => {
    const api = stubApi({ [paths.autopay.mandate]: () => null });
    renderCard({}, false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('autopay-card')).toBeNull();
    expect(api.requestsTo(paths.autopay.mandate)).toHaveLength(0);
  });
});
