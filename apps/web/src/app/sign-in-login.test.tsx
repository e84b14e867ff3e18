import type { TLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../public/locales/en.json';
import { appPaths } from '../lib/paths';
import { stubApi } from '../test/fake-api';
import { renderRoutes } from '../test/render-app';
import { createTestI18n } from '../test/test-i18n';
import { SignInRoute } from './sign-in-route';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const routes = [
  { path: appPaths.login.path, element: <SignInRoute /> },
  { path: appPaths.otp.path, element: <SignInRoute /> },
];

/** Asks for an OTP for a number on the login screen; the server answers `answer`. */
const askForOtp = async (answer: TLoginWithOtpResponse) => {
  const api = stubApi({ [paths.auth.loginWithOtp]: () => answer });
  const { router } = renderRoutes({ routes, url: appPaths.login.href(), i18n });
  fireEvent.change(await screen.findByTestId('login-mobile'), { target: { value: '9000000001' } });
  fireEvent.click(screen.getByTestId('login-submit'));
  await screen.findByTestId('otp-input');
  return { api, router };
};

describe('login → OTP (issue 12: the same answer for every number)', () => {
  it('goes to the OTP screen for any number, saying only registered numbers get an SMS', async () => {
    const { router } = await askForOtp({ expiresInSeconds: 300, resendAfterSeconds: 30, delivery: 'sent' });
    expect(router.state.location.pathname).toBe(appPaths.otp.path);
    expect(screen.getByTestId('otp-only-registered').textContent).toBe(en.otp.onlyRegistered);
    expect(screen.queryByTestId('otp-delayed')).toBeNull();
    expect((screen.getByTestId('otp-resend') as HTMLButtonElement).disabled).toBe(true);
  });

  it('says a slow SMS is on its way, and lets the person ask again at once', async () => {
    await askForOtp({ expiresInSeconds: 300, resendAfterSeconds: 30, delivery: 'queued' });
    expect(screen.getByTestId('otp-delayed').textContent).toBe(en.otp.delayed);
    expect((screen.getByTestId('otp-resend') as HTMLButtonElement).disabled).toBe(false);
  });
});
