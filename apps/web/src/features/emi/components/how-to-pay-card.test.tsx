import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test/test-i18n';
import { createMyLoan } from '../emi-fixtures';
import { HowToPayCard } from './how-to-pay-card';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(cleanup);

const renderCard = (payTo: ReturnType<typeof createMyLoan>['payTo']) =>
  render(
    <I18nextProvider i18n={i18n}>
      <HowToPayCard payTo={payTo} />
    </I18nextProvider>,
  );

describe('my loan: how to pay', () => {
  it('shows the EMI PIN next to the UPI ID, and asks the customer to quote it when paying', () => {
    renderCard(createMyLoan().payTo);
    expect(screen.getByTestId('my-loan-upi-id').textContent).toBe('ravimobiles@okaxis');
    expect(screen.getByTestId('my-loan-emi-pin').textContent).toBe('482913');
    expect(screen.getByText('EMI PIN')).toBeTruthy();
    expect(screen.getByTestId('my-loan-emi-pin-hint').textContent).toBe(
      'Quote your EMI PIN 482913 in the payment note, so your payment is matched to this loan.',
    );
  });

  it('shows no EMI PIN before one is issued', () => {
    renderCard({ ...createMyLoan().payTo, emiPin: null });
    expect(screen.getByTestId('my-loan-upi-id').textContent).toBe('ravimobiles@okaxis');
    expect(screen.queryByTestId('my-loan-emi-pin')).toBeNull();
    expect(screen.queryByTestId('my-loan-emi-pin-hint')).toBeNull();
  });
});
