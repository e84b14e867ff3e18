import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../../test/test-i18n';
import { createEmiDetails, createInstalment } from '../emi-fixtures';
import { InstalmentTable } from './instalment-table';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Makes every media query match (a phone-wide screen) or none (jsdom's default: wide). */
const stubScreenWidth = (isPhone: boolean) =>
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: isPhone,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    })),
  );

describe.each([
  ['phone', true],
  ['wide', false],
] as const)('instalment table on a %s screen', (_name, isPhone) => {
  it('shows each figure of a row once, under the same test ids', () => {
    stubScreenWidth(isPhone);
    render(
      <I18nextProvider i18n={i18n}>
        <InstalmentTable instalments={createEmiDetails().instalments} />
      </I18nextProvider>,
    );
    const row = screen.getByTestId('emi-row-3');
    expect(row.textContent).toContain('05-03-2026');
    expect(within(row).getByTestId('instalment-status').textContent).toBe('Due today');
    expect(within(row).getByTestId('emi-row-outstanding').textContent).toBe('₹7,814.86');
    expect(within(row).getByTestId('emi-row-amount').textContent).toBe(
      isPhone ? 'Amount ₹8,814.86' : '₹8,814.86',
    );
    expect(within(row).getByTestId('emi-row-paid').textContent).toBe(
      isPhone ? 'Paid ₹1,000.00' : '₹1,000.00',
    );
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(
      isPhone
        ? ['No.', 'Due date', 'Outstanding']
        : ['No.', 'Due date', 'Amount', 'Paid', 'Outstanding', 'Status'],
    );
  });

  it('shows a penalty under the amount and a waiver under what was paid, only when not zero', () => {
    stubScreenWidth(isPhone);
    render(
      <I18nextProvider i18n={i18n}>
        <InstalmentTable
          instalments={[
            createInstalment({ instalmentNo: 1, paidPaise: 881_486, waivedPaise: 81_486 }),
            createInstalment({
              instalmentNo: 2,
              amountPaise: 931_486,
              penaltyPaise: 50_000,
              status: 'overdue',
            }),
            createInstalment({ instalmentNo: 3, penaltyDuePaise: 50_000, status: 'overdue' }),
          ]}
        />
      </I18nextProvider>,
    );
    const row1 = screen.getByTestId('emi-row-1');
    expect(within(row1).getByTestId('emi-row-waived').textContent).toBe('incl. waived ₹814.86');
    expect(within(row1).queryByTestId('emi-row-penalty')).toBeNull();
    const row2 = screen.getByTestId('emi-row-2');
    expect(within(row2).getByTestId('emi-row-penalty').textContent).toBe('incl. penalty ₹500.00');
    expect(within(row2).queryByTestId('emi-row-waived')).toBeNull();
    expect(within(row2).getByTestId('emi-row-amount').textContent).toBe(
      isPhone ? 'Amount ₹9,314.86' : '₹9,314.86',
    );
    // Only the retailer, who can act on it, is told a penalty may be levied; there are no actions here.
    expect(screen.queryByTestId('emi-row-penalty-due')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('adds a row actions menu with only the actions that apply when given actions', () => {
    stubScreenWidth(isPhone);
    const onAction = vi.fn();
    const instalments = [
      createInstalment({ instalmentNo: 1, paidPaise: 881_486 }),
      createInstalment({ instalmentNo: 2, penaltyDuePaise: 50_000, status: 'overdue' }),
    ];
    render(
      <I18nextProvider i18n={i18n}>
        <InstalmentTable instalments={instalments} actions={{ onAction }} />
      </I18nextProvider>,
    );
    expect(screen.getAllByRole('columnheader').at(-1)?.textContent).toBe('Actions');
    expect(screen.queryByRole('button', { name: 'Actions for instalment 1' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for instalment 2' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Levy penalty ₹500.00',
      'Waive',
    ]);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Waive' }));
    expect(onAction).toHaveBeenCalledWith('waive', instalments[1]);
  });
});
