import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestI18n } from '../../test/test-i18n';
import { InstalmentStatusChip } from './components/instalment-status-chip';
import type { TInstalmentStatus } from './instalment-status';
import { INSTALMENT_STATUS_DISPLAY } from './instalment-status';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(cleanup);

describe('instalment status chip', () => {
  it.each<[TInstalmentStatus, string, string]>([
    ['paid', 'Paid', 'success'],
    ['overdue', 'Overdue', 'error'],
    ['due_today', 'Due today', 'warning'],
    ['upcoming', 'Upcoming', 'default'],
  ])('shows %s as %s in %s', (status, label, color) => {
    expect(INSTALMENT_STATUS_DISPLAY[status].color).toBe(color);
    render(
      <I18nextProvider i18n={i18n}>
        <InstalmentStatusChip status={status} />
      </I18nextProvider>,
    );
    const chip = screen.getByTestId('instalment-status');
    expect(chip.textContent).toBe(label);
    expect(chip.getAttribute('data-status')).toBe(status);
  });

  it('has a display for every status of the contract, and only those', () => {
    expect(Object.keys(INSTALMENT_STATUS_DISPLAY).sort()).toEqual([
      'due_today',
      'overdue',
      'paid',
      'upcoming',
    ]);
  });
});
