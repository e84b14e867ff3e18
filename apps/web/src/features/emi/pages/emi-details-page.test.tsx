import type { TEmiDetails } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { saveTextFile } from '../../../lib/save-file';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import {
  createEmiAlertCommand,
  createEmiDetails,
  createEmiPin,
  createInstalment,
  createReceipt,
} from '../emi-fixtures';
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

type THandler = (request: Request) => unknown;

/**
 * A fake API with the customer's details, a payment endpoint answering `payment`, the CSV, the
 * EMI PIN, and the penalty, waiver and reminder endpoints. Every GET answers: RTK Query holds
 * back tag invalidation while any query is still pending.
 */
const stubEmiApi = (
  options: {
    details?: TEmiDetails | (() => TEmiDetails);
    payment?: THandler;
    penalty?: THandler;
    waive?: THandler;
    alert?: THandler;
    emiPin?: THandler;
  } = {},
) =>
  stubApi({
    [paths.emi.details]: () =>
      typeof options.details === 'function' ? options.details() : (options.details ?? createEmiDetails()),
    [paths.emi.pay]: options.payment ?? (() => createReceipt()),
    [paths.emi.scheduleCsv]: () => new Response(CSV, { headers: { 'Content-Type': 'text/csv' } }),
    [paths.emi.emiPin]: options.emiPin ?? (() => createEmiPin()),
    [paths.customers.sendPenalty]: options.penalty ?? (() => createEmiDetails()),
    [paths.emi.updateStatus]: options.waive ?? (() => createEmiDetails()),
    [paths.emi.sendAlert]: options.alert ?? (() => createEmiAlertCommand()),
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

  it('refuses an amount the request schema would refuse, and one with too many decimals, before any request', async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-select-2'));
    await chooseMode('Cash');
    fireEvent.change(amountInput(), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('emi-pay-submit'));
    expect(await screen.findByText('Amount must be more than zero')).toBeTruthy();
    fireEvent.change(amountInput(), { target: { value: '12.345' } });
    expect(await screen.findByText('Enter an amount in rupees, up to 2 decimals')).toBeTruthy();
    fireEvent.click(screen.getByTestId('emi-pay-submit'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.requestsTo(paths.emi.pay)).toHaveLength(0);
  });

  it("puts the server's words about an instalment under the schedule's choice, and clears them on a new choice", async () => {
    stubEmiApi({
      payment: () =>
        failureResponse(400, 'Instalment 2 is already paid', {
          code: 'INVALID_PAYMENT',
          fields: [{ field: 'emi_ids.0', message: 'Instalment 2 is already paid' }],
        }),
    });
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-select-2'));
    await chooseMode('Cash');
    fireEvent.click(screen.getByTestId('emi-pay-submit'));
    expect(await screen.findByTestId('emi-pay-instalments-error')).toHaveProperty(
      'textContent',
      'Instalment 2 is already paid',
    );
    fireEvent.click(screen.getByTestId('emi-select-3'));
    expect(screen.queryByTestId('emi-pay-instalments-error')).toBeNull();
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

/** Instalment 2 overdue with a ₹500 penalty due, and the rest as createEmiDetails has them. */
const detailsWithPenaltyDue = () =>
  createEmiDetails({
    instalments: [
      createInstalment({ instalmentNo: 1, paidPaise: 881_486 }),
      createInstalment({ instalmentNo: 2, status: 'overdue', penaltyDuePaise: 50_000 }),
      createInstalment({ instalmentNo: 3, status: 'due_today', paidPaise: 100_000 }),
    ],
  });

/** Instalment 2 overdue with a ₹500 penalty levied and unpaid. */
const detailsWithPenalty = () =>
  createEmiDetails({
    instalments: [
      createInstalment({ instalmentNo: 1, paidPaise: 881_486 }),
      createInstalment({ instalmentNo: 2, status: 'overdue', amountPaise: 931_486, penaltyPaise: 50_000 }),
    ],
  });

const openRowAction = async (no: number, action: string | RegExp) => {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for instalment ${no}` }));
  fireEvent.click(await screen.findByRole('menuitem', { name: action }));
};

describe('emi_details payment retries (Idempotency-Key)', () => {
  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const keysSent = (api: ReturnType<typeof stubEmiApi>) =>
    api.requestsTo(paths.emi.pay).map((request) => request.headers.get('Idempotency-Key'));
  const submitButton = () => screen.getByTestId('emi-pay-submit') as HTMLButtonElement;
  /** Presses "Record payment" once the previous attempt has settled, and waits for the request. */
  const submit = async (api: ReturnType<typeof stubEmiApi>) => {
    const before = api.requestsTo(paths.emi.pay).length;
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.click(submitButton());
    await waitFor(() => expect(api.requestsTo(paths.emi.pay)).toHaveLength(before + 1));
  };

  it('sends the same key when a payment whose answer was lost is sent again, and a new one for the next payment', async () => {
    let calls = 0;
    const api = stubEmiApi({
      payment: () => {
        calls += 1;
        // The first answer never arrives (the connection drops); the retry gets the receipt.
        if (calls === 1) throw new TypeError('Failed to fetch');
        return createReceipt();
      },
    });
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-select-2'));
    await chooseMode('Cash');
    await submit(api);
    await submit(api);
    const dialog = await screen.findByRole('dialog', { name: 'Payment receipt' });
    const [first, retry] = keysSent(api);
    expect(first).toMatch(UUID_V4);
    expect(retry).toBe(first);

    fireEvent.click(within(dialog).getByTestId('receipt-close'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByTestId('emi-select-2'));
    await chooseMode('Cash');
    await submit(api);
    const next = keysSent(api)[2];
    expect(next).toMatch(UUID_V4);
    expect(next).not.toBe(first);
  });

  it('sends a new key once the form changed after a failed attempt', async () => {
    const api = stubEmiApi({
      payment: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByTestId('emi-select-2'));
    await chooseMode('Cash');
    await submit(api);
    fireEvent.change(amountInput(), { target: { value: '100' } });
    await submit(api);
    const [first, changed] = keysSent(api);
    expect(first).toMatch(UUID_V4);
    expect(changed).toMatch(UUID_V4);
    expect(changed).not.toBe(first);
    expect((await api.bodiesTo(paths.emi.pay))[1]).toMatchObject({ amountPaise: 10_000 });
  });
});

describe('emi_details penalties and waivers', () => {
  it('levies the penalty due on an overdue instalment after showing the amount, and refetches the schedule', async () => {
    const api = stubEmiApi({ details: detailsWithPenaltyDue() });
    renderAt(appPaths.emiDetails.href(5));
    const row2 = await screen.findByTestId('emi-row-2');
    expect(within(row2).getByTestId('emi-row-penalty-due').textContent).toBe('Penalty due ₹500.00');
    // No penalty is due on an instalment due today, and a paid one has no actions at all.
    expect(within(screen.getByTestId('emi-row-3')).queryByTestId('emi-row-penalty-due')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Actions for instalment 1' })).toBeNull();

    await openRowAction(2, 'Levy penalty ₹500.00');
    const dialog = await screen.findByRole('dialog', { name: 'Levy a penalty on instalment 2?' });
    expect(dialog.textContent).toContain(
      'A late-payment penalty of ₹500.00 will be added to instalment 2 (due 05-02-2026). The customer will then owe ₹9,314.86 on it.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Levy penalty ₹500.00' }));

    expect(await screen.findByText('Penalty of ₹500.00 levied on instalment 2')).toBeTruthy();
    const [penaltyCall] = api.requestsTo(paths.customers.sendPenalty);
    expect(penaltyCall?.method).toBe('POST');
    expect(await penaltyCall?.json()).toEqual({ customer_id: 5, emi_id: 102 });
    await waitFor(() => expect(api.requestsTo(paths.emi.details)).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("toasts the server's refusal (PENALTY_NOT_DUE), closes the dialog and refetches the schedule", async () => {
    const api = stubEmiApi({
      details: detailsWithPenaltyDue(),
      penalty: () =>
        failureResponse(409, 'No penalty is due on this instalment', { code: 'PENALTY_NOT_DUE' }),
    });
    renderAt(appPaths.emiDetails.href(5));
    await openRowAction(2, 'Levy penalty ₹500.00');
    const dialog = await screen.findByRole('dialog', { name: 'Levy a penalty on instalment 2?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Levy penalty ₹500.00' }));

    expect(await screen.findByText('No penalty is due on this instalment')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(api.requestsTo(paths.emi.details)).toHaveLength(2));
  });

  it('waives what is still owed only with a reason', async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    await openRowAction(3, 'Waive');
    const dialog = await screen.findByRole('dialog', { name: 'Waive instalment 3' });
    expect(within(dialog).getByTestId('emi-waive-body').textContent).toBe(
      'The ₹7,814.86 still owed on instalment 3 will be written off and not collected.',
    );

    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive' }));
    expect(await within(dialog).findByText('Say why, in a few words')).toBeTruthy();
    expect(api.requestsTo(paths.emi.updateStatus)).toHaveLength(0);

    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason/ }), {
      target: { value: '  Customer hospitalised  ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive' }));

    expect(await screen.findByText('Instalment 3 waived')).toBeTruthy();
    const [waiveCall] = api.requestsTo(paths.emi.updateStatus);
    expect(waiveCall?.method).toBe('POST');
    expect(await waiveCall?.json()).toEqual({
      customer_id: 5,
      emi_id: 103,
      status: 'waived',
      reason: 'Customer hospitalised',
    });
    await waitFor(() => expect(api.requestsTo(paths.emi.details)).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('waives only the unpaid penalty of an instalment that has one', async () => {
    const api = stubEmiApi({ details: detailsWithPenalty() });
    renderAt(appPaths.emiDetails.href(5));
    const row2 = await screen.findByTestId('emi-row-2');
    expect(within(row2).getByTestId('emi-row-penalty').textContent).toBe('incl. penalty ₹500.00');

    await openRowAction(2, 'Waive penalty');
    const dialog = await screen.findByRole('dialog', { name: 'Waive the penalty on instalment 2' });
    expect(within(dialog).getByTestId('emi-waive-body').textContent).toBe(
      'Whatever is unpaid of the ₹500.00 penalty on instalment 2 will be written off.',
    );
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason/ }), {
      target: { value: 'Paid late because of a bank holiday' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Waive penalty' }));

    expect(await screen.findByText('Penalty on instalment 2 waived')).toBeTruthy();
    expect(await api.requestsTo(paths.emi.updateStatus)[0]?.json()).toEqual({
      customer_id: 5,
      emi_id: 102,
      status: 'penalty_waived',
      reason: 'Paid late because of a bank holiday',
    });
  });

  it('closes the waiver dialog with nothing sent when Cancel is pressed', async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    await openRowAction(2, 'Waive');
    const dialog = await screen.findByRole('dialog', { name: 'Waive instalment 2' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requestsTo(paths.emi.updateStatus)).toHaveLength(0);
  });
});

describe('emi_details EMI reminder', () => {
  it("sends the reminder with the retailer's message and shows where the command got to", async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Message (optional)' }), {
      target: { value: 'Please pay by Friday' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send EMI reminder' }));

    const result = await screen.findByTestId('emi-alert-result');
    expect(result.dataset.state).toBe('queued');
    expect(result.textContent).toBe('Reminder queued. The phone shows it when it next comes online.');
    const [alertCall] = api.requestsTo(paths.emi.sendAlert);
    expect(alertCall?.method).toBe('POST');
    expect(await alertCall?.json()).toEqual({ customer_id: 5, message: 'Please pay by Friday' });
    expect((screen.getByRole('textbox', { name: 'Message (optional)' }) as HTMLInputElement).value).toBe('');
  });

  it('sends no message when none is typed, and says when the phone already shows it', async () => {
    const api = stubEmiApi({ alert: () => createEmiAlertCommand({ state: 'done' }) });
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByRole('button', { name: 'Send EMI reminder' }));
    expect((await screen.findByTestId('emi-alert-result')).textContent).toBe(
      'The phone is showing the reminder.',
    );
    expect(await api.requestsTo(paths.emi.sendAlert)[0]?.json()).toEqual({ customer_id: 5 });
  });

  it.each([
    [
      'DEVICE_NOT_ENROLLED',
      "The customer's phone has not enrolled yet, so it cannot show a reminder. Ask the customer to scan the enrolment QR code.",
    ],
    ['NOTHING_DUE', 'Nothing is due on this loan, so there is nothing to remind the customer of.'],
  ])('explains the refusal %s in place', async (code, text) => {
    stubEmiApi({ alert: () => failureResponse(409, 'Refused by the server', { code }) });
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByRole('button', { name: 'Send EMI reminder' }));
    const refused = await screen.findByTestId('emi-alert-refused');
    expect(refused.textContent).toBe(text);
    expect(refused.dataset.code).toBe(code);
    expect(await screen.findByText('Refused by the server')).toBeTruthy();
    expect(screen.queryByTestId('emi-alert-result')).toBeNull();
  });

  it('is not offered once the loan is paid off', async () => {
    const instalments = [createInstalment({ instalmentNo: 1, paidPaise: 881_486 })];
    stubEmiApi({ details: createEmiDetails({ customerStatus: 5, instalments, payments: [] }) });
    renderAt(appPaths.emiDetails.href(5));
    expect(await screen.findByTestId('emi-loan-completed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send EMI reminder' })).toBeNull();
  });
});

describe('emi_details EMI PIN', () => {
  let writeText: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });

  it("shows the customer's EMI PIN, says what it is for, and copies it", async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    expect((await screen.findByTestId('emi-pin-value')).textContent).toBe('482913');
    expect(screen.getByTestId('emi-pin-card').textContent).toContain(
      'The customer quotes this PIN when paying (in the UPI payment note), so the payment is matched to this loan.',
    );
    expect(screen.getByTestId('emi-pin-updated').textContent).toBe('Issued 05-01-2026 12:00 PM');
    const [pinCall] = api.requestsTo(paths.emi.emiPin);
    expect(new URL(pinCall?.url ?? '').searchParams.get('customer_id')).toBe('5');

    fireEvent.click(screen.getByRole('button', { name: 'Copy PIN' }));
    expect(await screen.findByText('EMI PIN copied')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('482913');
  });

  it('issues a new PIN only after confirming, and shows it', async () => {
    let pin = createEmiPin();
    const api = stubEmiApi({
      emiPin: (request) => {
        if (request.method === 'POST')
          pin = createEmiPin({ emiPin: '771204', updatedAt: '2026-03-05T09:15:00Z' });
        return pin;
      },
    });
    renderAt(appPaths.emiDetails.href(5));
    await screen.findByText('482913');
    fireEvent.click(screen.getByRole('button', { name: 'Issue new PIN' }));
    const dialog = await screen.findByRole('dialog', { name: 'Issue a new EMI PIN?' });
    expect(dialog.textContent).toContain('The current PIN 482913 will stop working.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Issue new PIN' }));

    expect(await screen.findByText('New EMI PIN issued: 771204')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('emi-pin-value').textContent).toBe('771204'));
    const posts = api.requestsTo(paths.emi.emiPin).filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(await posts[0]?.json()).toEqual({ customer_id: 5 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('issues nothing when the confirmation is cancelled', async () => {
    const api = stubEmiApi();
    renderAt(appPaths.emiDetails.href(5));
    fireEvent.click(await screen.findByRole('button', { name: 'Issue new PIN' }));
    const dialog = await screen.findByRole('dialog', { name: 'Issue a new EMI PIN?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requestsTo(paths.emi.emiPin).filter((request) => request.method === 'POST')).toHaveLength(0);
  });
});

describe('view_emi_details (read-only)', () => {
  it('shows the same schedule and payments with no checkboxes, no payment form and no actions', async () => {
    const api = stubEmiApi({ details: detailsWithPenaltyDue() });
    renderAt(appPaths.viewEmiDetails.href(5));
    expect(await screen.findByRole('heading', { level: 1, name: 'View EMI details' })).toBeTruthy();
    expect(await screen.findByTestId('emi-schedule')).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByTestId('record-payment')).toBeNull();
    expect(screen.queryByRole('button', { name: /Actions for instalment/ })).toBeNull();
    expect(screen.queryByTestId('emi-row-penalty-due')).toBeNull();
    expect(screen.queryByTestId('emi-alert-card')).toBeNull();
    expect(screen.queryByTestId('emi-pin-card')).toBeNull();
    // Asking for the PIN issues one, so the read-only screen does not ask.
    expect(api.requestsTo(paths.emi.emiPin)).toHaveLength(0);
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
