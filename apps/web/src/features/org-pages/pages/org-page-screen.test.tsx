import type { TOrgPageView } from '@kisht/domain/org-pages/org-pages.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import tm from '../../../../public/locales/tm.json';
import { stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { HelpPage, SupportPage } from './org-page-screen';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
  i18n.addResourceBundle('tm', 'translation', tm);
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const view = (overrides: Partial<TOrgPageView>): TOrgPageView => ({
  page: 'help',
  language: 'en',
  requestedLanguage: 'en',
  isFallback: false,
  isDefault: false,
  bodyMarkdown: '# Help',
  updatedAt: '2026-11-01T10:00:00.000Z',
  supportContact: null,
  pagesInLanguage: [],
  ...overrides,
});

describe('help, support and privacy_policy screens (issue 16)', () => {
  it('renders the markdown safely: no raw HTML, no javascript: link, outside links open with noopener', async () => {
    const api = stubApi({
      [paths.orgPages.help]: () =>
        view({
          bodyMarkdown: [
            '# Paying',
            'Pay **on time**. <img src=x onerror="alert(1)"><script>alert(2)</script>',
            '[evil](javascript:alert(3)) and [site](https://kisht.example/help)',
          ].join('\n\n'),
        }),
    });
    renderRoutes({ routes: [{ path: '/help', element: <HelpPage /> }], url: '/help', i18n });
    const body = await screen.findByTestId('markdown-body');
    expect(screen.getByRole('heading', { level: 1, name: 'Help' })).toBeTruthy();
    expect(body.querySelector('strong')?.textContent).toBe('on time');
    expect(body.querySelector('script, img')).toBeNull();
    const evil = screen.getByText('evil');
    expect(evil.getAttribute('href') ?? '').not.toContain('javascript');
    const site = screen.getByText('site');
    expect(site.getAttribute('target')).toBe('_blank');
    expect(site.getAttribute('rel')).toBe('noopener noreferrer');
    expect(new URL(api.requestsTo(paths.orgPages.help)[0]!.url).searchParams.get('language')).toBe('en');
  });

  it('asks in the app language and says when the page fell back to English', async () => {
    await i18n.changeLanguage('tm');
    const api = stubApi({
      [paths.orgPages.help]: () => view({ requestedLanguage: 'tm', isFallback: true, bodyMarkdown: 'Hello' }),
    });
    renderRoutes({ routes: [{ path: '/help', element: <HelpPage /> }], url: '/help', i18n });
    const fallback = await screen.findByTestId('org-page-fallback');
    expect(fallback.textContent).toContain('English');
    // Nothing is in Tamil: it says so, and links nothing.
    expect(fallback.textContent).toContain(tm.orgPages.noneInLanguage.replace('{{language}}', 'தமிழ்'));
    expect(screen.queryByTestId('org-page-in-language')).toBeNull();
    expect(new URL(api.requestsTo(paths.orgPages.help)[0]!.url).searchParams.get('language')).toBe('tm');
  });

  it('names, with links, the pages there are in the app language when this one fell back (issue 28)', async () => {
    await i18n.changeLanguage('tm');
    stubApi({
      [paths.orgPages.support]: () =>
        view({
          page: 'support',
          requestedLanguage: 'tm',
          isFallback: true,
          pagesInLanguage: ['help', 'privacy_policy'],
        }),
    });
    renderRoutes({ routes: [{ path: '/support', element: <SupportPage /> }], url: '/support', i18n });
    const inLanguage = await screen.findByTestId('org-page-in-language');
    expect(inLanguage.textContent).toContain(tm.orgPages.inLanguage.replace('{{language}}', 'தமிழ்'));
    expect(screen.getByTestId('org-page-link-help').getAttribute('href')).toBe('/help');
    expect(screen.getByTestId('org-page-link-help').textContent).toBe(tm.pages.help);
    expect(screen.getByTestId('org-page-link-privacy_policy').getAttribute('href')).toBe('/privacy_policy');
  });

  it('offers call, WhatsApp and e-mail on support', async () => {
    stubApi({
      [paths.orgPages.support]: () =>
        view({
          page: 'support',
          bodyMarkdown: '# Support',
          supportContact: { phone: '+919876500001', whatsapp: '+919876500002', email: 'help@kisht.example' },
        }),
    });
    renderRoutes({ routes: [{ path: '/support', element: <SupportPage /> }], url: '/support', i18n });
    expect((await screen.findByTestId('support-call')).getAttribute('href')).toBe('tel:+919876500001');
    const whatsapp = screen.getByTestId('support-whatsapp');
    expect(whatsapp.getAttribute('href')).toBe('https://wa.me/919876500002');
    expect(whatsapp.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByTestId('support-email').getAttribute('href')).toBe('mailto:help@kisht.example');
    expect(screen.getByTestId('support-call').textContent).toContain('+91 98765 00001');
  });
});
