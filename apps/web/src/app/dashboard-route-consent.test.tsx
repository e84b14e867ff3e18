import type { TMyConsent } from '@kisht/domain/customers/consent.schema';
import { CONSENT_TEXT_VERSION } from '@kisht/domain/customers/consent-texts';
import { paths } from '@kisht/domain/paths';
import { cleanup, screen, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMyLoan } from '../features/emi/emi-fixtures';
import { appPaths } from '../lib/paths';
import { stubApi } from '../test/fake-api';
import { renderRoutes } from '../test/render-app';
import { createTestI18n } from '../test/test-i18n';
import { DashboardRoute } from './dashboard-route';

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

const MY_CONSENT: TMyConsent = {
  customerId: 5,
  language: 'hn',
  textVersion: CONSENT_TEXT_VERSION,
  text: 'EMI पर खरीदे गए फ़ोन को दूर से लॉक करने की सहमति\n\nमैं, Priya Patel, …\nफ़ोन लॉक होने पर भी आपातकालीन कॉल (112) हमेशा काम करती हैं।',
  recordedByName: 'Ravi Mobiles',
  consentedAt: '2026-01-15T07:00:00Z',
  productName: 'Redmi Note 14 5G (6GB/128GB)',
  signatureDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
};

const renderDashboard = () =>
  renderRoutes({
    i18n,
    url: appPaths.dashboard.href(),
    routes: [{ path: appPaths.dashboard.path, element: <DashboardRoute /> }],
  });

describe("the customer's own view shows their consent to remote locking", () => {
  it('below their loan: the text they agreed to in their language, who recorded it, when, and their signature', async () => {
    stubApi({
      [paths.emi.myLoans]: () => [createMyLoan()],
      [paths.customers.myConsents]: () => [MY_CONSENT],
    });
    renderDashboard();
    const section = await screen.findByTestId('my-consent-5');
    expect(screen.getByTestId('my-loan-5')).toBeTruthy();
    expect(within(section).getByText('Your consent to remote locking')).toBeTruthy();
    expect(within(section).getByText(/Redmi Note 14 5G/)).toBeTruthy();
    expect(within(section).getByTestId('consent-language-name').textContent).toBe('हिन्दी');
    expect(within(section).getByTestId('consent-recorded-by').textContent).toBe('Ravi Mobiles');
    expect(within(section).getByTestId('consent-recorded-at').textContent).toBe('15-01-2026 12:30 PM');
    expect(within(section).getByRole('img', { name: "Customer's signature" }).getAttribute('src')).toBe(
      MY_CONSENT.signatureDataUrl,
    );
    // Shown open: the customer reads what they agreed to, emergency calls included.
    const text = within(section).getByTestId('consent-text');
    expect(text.textContent).toContain('(112)');
    expect(text.getAttribute('lang')).toBe('hi');
  });

  it('shows no consent section when none is recorded', async () => {
    stubApi({
      [paths.emi.myLoans]: () => [createMyLoan()],
      [paths.customers.myConsents]: () => [],
    });
    renderDashboard();
    expect(await screen.findByTestId('my-loan-5')).toBeTruthy();
    expect(screen.queryByTestId('my-consents')).toBeNull();
  });
});
