import type { TEmiDetails } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../app/paths';
import { saveTextFile } from '../../../lib/save-file';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { createEmiDetails, createInstalment, createReceipt } from '../emi-fixtures';
import { EmiDetailsPage } from './emi-details-page';

vi.mock('../../../lib/save-file', () => ({ saveTextFile: vi.fn() }));

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
  vi.mocked(saveTextFile).mockClear();
  localStorage.clear();
});

const renderAt = (url: string) =>
  renderRoutes({
    i18n,
    url,
    routes: [
      { path: appPaths.emiDetails.path, element: <EmiDetailsPage /> },
      { path: appPaths.viewEmiDetails.path, element: <EmiDetailsPage isReadOnly /> },
    ],
  });

const CSV = 'No.,Due date\n1,05-01-2026\n';

/** A fake API with the customer's details, a payment endpoint answering `payment`, and the CSV. */
const stubEmiApi = (options: { details?: TEmiDetails; payment?: (request: Request) => unknown } = {}) =>
  stubApi({
    [paths.emi.details]: () => options.details ?? createEmiDetails(),
    [paths.emi.pay]: options.payment ?? (() => createReceipt()),
    [paths.emi.scheduleCsv]: () => new Response(CSV, { headers: { 'Content-Type': 'text/csv' } }),
  });

const chooseMode = async (label: string) => {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: /Payment mode/ }));
  fireEvent.click(await screen.findByRole('option', { name: label }));
};

const amountInput = () => screen.getByTestId('emi-pay-amount') as HTMLInputElement;

describe('emi_details (spec §2)', () => {
  it('shows totals in rupees, the schedule with statuses and the payments', async () => {
    stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    expect(await screen.findByTestId('emi-customer-name')).toHaveProperty('textContent', 'Anita Rao');
    expect(screen.getByTestId('emi-total-amount').textContent).toBe('₹35,259.44');
    expect(screen.getByTestId('emi-total-paid').textContent).toBe('₹9,814.86');
    expect(screen.getByTestId('emi-total-outstanding').textContent).toBe('₹25,444.58');
    expect(screen.getByTestId('emi-total-overdue').textContent).toBe('₹8,814.86');

    const row3 = screen.getByTestId('emi-row-3');
    expect(row3.textContent).toContain('05-03-2026');
    expect(within(row3).getByTestId('emi-row-outstanding').textContent).toBe('₹7,814.86');
    expect(within(row3).getByTestId('instalment-status').textContent).toBe('Due today');
    expect(within(screen.getByTestId('emi-row-2')).getByTestId('instalment-status').textContent).toBe(
      'Overdue',
    );
    expect(within(screen.getByTestId('emi-row-1')).getByTestId('instalment-status').textContent).toBe('Paid');
    // A paid instalment cannot be ticked.
    expect(screen.queryByTestId('emi-select-1')).toBeNull();

    const payment = screen.getByTestId('emi-payment-KR-41-000001');
    expect(payment.textContent).toContain('₹8,814.86');
    expect(payment.textContent).toContain('05-01-2026 12:00 PM · Cash');
    expect(payment.textContent).toContain('Instalments: 1 (₹8,814.86)');
  });

  it('prefills the amount from the ticked instalments and records a payment, then shows the receipt', async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-select-2'));
    expect(amountInput().value).toBe('8814.86');
    fireEvent.click(screen.getByTestId('emi-select-3'));
    expect(amountInput().value).toBe('16629.72');
    expect(screen.getByTestId('emi-pay-summary').textContent).toBe('2 instalments chosen · ₹16,629.72 owed');
    await chooseMode('UPI');
    fireEvent.change(screen.getByTestId('emi-pay-reference'), { target: { value: 'UTR123456' } });
    fireEvent.click(screen.getByTestId('emi-pay-submit'));

    const dialog = await screen.findByRole('dialog', { name: 'Payment receipt' });
    expect(within(dialog).getByTestId('receipt-no').textContent).toBe('KR-41-000002');
    expect(within(dialog).getByTestId('receipt-amount').textContent).toBe('₹16,629.72');
    expect(within(dialog).getByTestId('receipt-mode').textContent).toBe('UPI');
    expect(within(dialog).getByTestId('receipt-reference').textContent).toBe('UTR123456');
    expect(within(dialog).getByTestId('receipt-instalments').textContent).toBe(
      '2 (₹8,814.86), 3 (₹7,814.86)',
    );
    expect(within(dialog).getByTestId('receipt-date').textContent).toBe('05-03-2026 02:45 PM');
    expect(within(dialog).queryByTestId('receipt-loan-completed')).toBeNull();

    const [payCall] = api.requestsTo(paths.emi.pay);
    expect(payCall?.method).toBe('POST');
    expect(await payCall?.json()).toEqual({
      customer_id: 5,
      emi_ids: [102, 103],
      amountPaise: 1_662_972,
      mode: 'upi',
      reference: 'UTR123456',
    });
    // The details are fetched again (the cache was invalidated), and the form starts over.
    await waitFor(() => expect(api.requestsTo(paths.emi.details)).toHaveLength(2));
    expect(amountInput().value).toBe('');

    fireEvent.click(within(dialog).getByTestId('receipt-close'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends a partial amount as typed, in paise', async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-select-4'));
    fireEvent.change(amountInput(), { target: { value: '5000.50' } });
    await chooseMode('Cash');
    fireEvent.click(screen.getByTestId('emi-pay-submit'));
    await screen.findByRole('dialog', { name: 'Payment receipt' });
    expect(await api.requestsTo(paths.emi.pay)[0]?.json()).toEqual({
      customer_id: 5,
      emi_ids: [104],
      amountPaise: 500_050,
      mode: 'cash',
    });
  });

  it('says when the payment completed the loan (status 5, EMIs completed)', async () => {
    stubEmiApi({ payment: () => createReceipt({ customerStatus: 5 }) });
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-select-all'));
    await chooseMode('UPI');
    fireEvent.click(screen.getByTestId('emi-pay-submit'));
    const dialog = await screen.findByRole('dialog', { name: 'Payment receipt' });
    expect(within(dialog).getByTestId('receipt-loan-completed').textContent).toBe(
      'Loan fully paid. EMIs completed.',
    );
  });

  it("shows 'This is a required field' and sends nothing when required fields are empty", async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-pay-submit'));
    expect(await screen.findByTestId('emi-pay-instalments-error')).toHaveProperty(
      'textContent',
      'Choose at least one instalment',
    );
    expect(screen.getAllByText('This is a required field')).toHaveLength(2); // amount and mode
    fireEvent.click(screen.getByTestId('emi-select-2'));
    fireEvent.change(amountInput(), { target: { value: '9000' } });
    expect(
      await screen.findByText('Amount cannot be more than the ₹8,814.86 owed on the chosen instalments'),
    ).toBeTruthy();
    expect(api.requestsTo(paths.emi.pay)).toHaveLength(0);
  });

  it("shows the server's field errors under the fields", async () => {
    stubEmiApi({
      payment: () =>
        failureResponse(400, 'Amount is more than the chosen instalments owe', {
          code: 'INVALID_PAYMENT',
          fields: [
            { field: 'amountPaise', message: 'At most 881486 paise is owed on the chosen instalments' },
          ],
        }),
    });
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-select-2'));
    await chooseMode('Card');
    fireEvent.click(screen.getByTestId('emi-pay-submit'));
    expect(await screen.findByText('At most 881486 paise is owed on the chosen instalments')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    // Editing the amount clears the server's message.
    fireEvent.change(amountInput(), { target: { value: '100' } });
    expect(screen.queryByText('At most 881486 paise is owed on the chosen instalments')).toBeNull();
  });

  it('downloads the schedule as emi-schedule-<id>.csv', async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-download-csv'));
    await waitFor(() =>
      expect(saveTextFile).toHaveBeenCalledWith({ text: CSV, fileName: 'emi-schedule-5.csv' }),
    );
    fireEvent.click(screen.getByTestId('emi-download-csv'));
    await waitFor(() => expect(saveTextFile).toHaveBeenCalledTimes(2));
    // Each download asks the server again.
    expect(api.requestsTo(paths.emi.scheduleCsv)).toHaveLength(2);
  });

  it('has no payment form once everything is paid, and says the loan is complete', async () => {
    const instalments = [createInstalment({ instalmentNo: 1, paidPaise: 881_486 })];
    stubEmiApi({
      details: createEmiDetails({ customerStatus: 5, instalments, payments: [] }),
    });
    renderAt(appPaths.emiDetails.href(5));
    expect(await screen.findByTestId('emi-loan-completed')).toBeTruthy();
    expect(screen.queryByTestId('record-payment')).toBeNull();
    expect(screen.getByTestId('emi-payments-empty').textContent).toBe('No payments recorded yet.');
  });
});

describe('view_emi_details (read-only)', () => {
  it('shows the same schedule and payments with no checkboxes and no payment form', async () => {
    stubEmiApi();
    renderAt(appPaths.viewEmiDetails.href(5));
    expect(await screen.findByRole('heading', { level: 1, name: 'View EMI details' })).toBeTruthy();
    expect(await screen.findByTestId('emi-schedule')).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByTestId('record-payment')).toBeNull();
    expect(screen.getByTestId('emi-payment-KR-41-000001')).toBeTruthy();
    expect(screen.getByTestId('emi-download-csv')).toBeTruthy();
  });

  it('says the customer was not found without a valid customer_id', async () => {
    const api = stubEmiApi();
    renderAt('/view_emi_details?customer_id=abc');
    expect(await screen.findByText('Customer not found')).toBeTruthy();
    expect(api.requests).toHaveLength(0);
  });
});
