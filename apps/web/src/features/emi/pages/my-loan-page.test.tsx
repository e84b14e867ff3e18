import type { TMyLoan } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, screen, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { createMyInstalment, createMyLoan } from '../emi-fixtures';
import { MyLoanPage } from './my-loan-page';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  localStorage.setItem('type', 'customer');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const renderMyLoan = async (loan: TMyLoan) => {
  stubApi({ [paths.emi.myLoans]: () => [loan] });
  renderRoutes({
    i18n,
    url: appPaths.dashboard.href(),
    routes: [{ path: appPaths.dashboard.path, element: <MyLoanPage /> }],
  });
  return screen.findByTestId(`my-loan-${loan.customerId}`);
};

describe("the customer's own loan: what is overdue, the late fee and the next EMI", () => {
  it('calls an overdue instalment overdue, with its days and the total due including the late fee', async () => {
    // Instalment 1 paid; 2 overdue by 28 days with a ₹200 late fee; 3 due today; 4 upcoming.
    const loan = await renderMyLoan(createMyLoan());

    const overdue = within(loan).getByTestId('my-loan-overdue');
    expect(within(overdue).getByTestId('my-loan-overdue-total').textContent).toBe('Overdue: ₹9,014.86');
    expect(within(overdue).getByTestId('my-loan-overdue-late-fees').textContent).toBe(
      'Includes late fees of ₹200.00',
    );
    expect(within(overdue).getByTestId('my-loan-overdue-2').textContent).toBe(
      'EMI 2: ₹9,014.86 was due on 05-02-2026, 28 days overdue',
    );
    // "Next EMI" is the next one not yet overdue.
    expect(within(loan).getByTestId('my-loan-next-due').textContent).toBe(
      'Next EMI: ₹7,814.86 due on 05-03-2026',
    );

    const row2 = within(loan).getByTestId('emi-row-2');
    expect(within(row2).getByTestId('instalment-status').textContent).toBe('Overdue');
    expect(within(row2).getByTestId('emi-row-days-overdue').textContent).toBe('28 days overdue');
    expect(within(row2).getByTestId('emi-row-late-fee').textContent).toBe('Late fee ₹200.00');
    expect(within(row2).getByTestId('emi-row-total-due').textContent).toBe('Total due ₹9,014.86');
    // Nothing late on the others.
    for (const no of [1, 3, 4]) {
      const row = within(loan).getByTestId(`emi-row-${no}`);
      expect(within(row).queryByTestId('emi-row-days-overdue')).toBeNull();
      expect(within(row).queryByTestId('emi-row-late-fee')).toBeNull();
    }
  });

  it('shows a late fee already levied once, in the total due', async () => {
    const levied = createMyInstalment({
      instalmentNo: 1,
      status: 'overdue',
      amountPaise: 901_486,
      penaltyPaise: 20_000,
      daysOverdue: 1,
      lateFeePaise: 20_000,
      totalDuePaise: 901_486,
    });
    const loan = await renderMyLoan(
      createMyLoan({ instalments: [levied, createMyInstalment({ instalmentNo: 2 })] }),
    );
    expect(within(loan).getByTestId('my-loan-overdue-1').textContent).toBe(
      'EMI 1: ₹9,014.86 was due on 05-01-2026, 1 day overdue',
    );
    const row1 = within(loan).getByTestId('emi-row-1');
    expect(within(row1).getByTestId('emi-row-late-fee').textContent).toBe('Late fee ₹200.00');
    expect(within(row1).getByTestId('emi-row-total-due').textContent).toBe('Total due ₹9,014.86');
    expect(within(loan).getByTestId('my-loan-next-due').textContent).toBe(
      'Next EMI: ₹8,814.86 due on 05-02-2026',
    );
  });

  it('shows no overdue notice and no late fee when nothing is overdue', async () => {
    const loan = await renderMyLoan(
      createMyLoan({
        instalments: [
          createMyInstalment({ instalmentNo: 1, paidPaise: 881_486 }),
          createMyInstalment({ instalmentNo: 2 }),
        ],
      }),
    );
    expect(within(loan).queryByTestId('my-loan-overdue')).toBeNull();
    expect(within(loan).queryByTestId('emi-row-late-fee')).toBeNull();
    expect(within(loan).getByTestId('my-loan-next-due').textContent).toBe(
      'Next EMI: ₹8,814.86 due on 05-02-2026',
    );
  });

  it('shows what is overdue and no next EMI when every unpaid instalment is overdue', async () => {
    const loan = await renderMyLoan(
      createMyLoan({
        instalments: [
          createMyInstalment({ instalmentNo: 1, paidPaise: 881_486 }),
          createMyInstalment({ instalmentNo: 2, status: 'overdue', daysOverdue: 3 }),
        ],
      }),
    );
    expect(within(loan).getByTestId('my-loan-overdue-total').textContent).toBe('Overdue: ₹8,814.86');
    expect(within(loan).queryByTestId('my-loan-overdue-late-fees')).toBeNull();
    expect(within(loan).queryByTestId('my-loan-next-due')).toBeNull();
    expect(within(loan).queryByTestId('my-loan-completed')).toBeNull();
  });
});
