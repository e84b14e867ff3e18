import { cleanup, render, screen, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../../test/test-i18n';
import { createEmiDetails } from '../emi-fixtures';
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
});
