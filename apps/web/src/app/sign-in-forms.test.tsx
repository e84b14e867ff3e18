import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../public/locales/en.json';
import type { TOtpChallenge } from '../features/auth/otp-challenge';
import { saveOtpChallenge } from '../features/auth/otp-challenge';
import { appPaths } from '../lib/paths';
import { failureResponse, stubApi } from '../test/fake-api';
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
  { path: appPaths.mPin.path, element: <SignInRoute /> },
];

const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

/** A 400 naming one request field, in the server's words. */
const fieldFailure = (field: string, message: string) => () =>
  failureResponse(400, 'Check the highlighted fields', { fields: [{ field, message }] });

const challenge = (purpose: TOtpChallenge['purpose']): TOtpChallenge => ({
  mobile: '+919000000001',
  purpose,
  devOtp: null,
  resendAt: Date.now() + 30_000,
});

describe('login form (domain ZLoginWithOtpRequest)', () => {
  it('refuses a mobile that is not Indian before any request, and sends the E.164 number', async () => {
    const api = stubApi({ [paths.auth.loginWithOtp]: fieldFailure('mobile', 'This number is blocked') });
    renderRoutes({ routes, url: appPaths.login.href(), i18n });
    await screen.findByTestId('login-mobile');
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText(en.validation.required)).toBeTruthy();
    type('login-mobile', '1234567890');
    expect(await screen.findByText(en.validation.invalidMobile)).toBeTruthy();
    fireEvent.click(screen.getByTestId('login-submit'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.requestsTo(paths.auth.loginWithOtp)).toHaveLength(0);

    type('login-mobile', '9000000001');
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('This number is blocked')).toBeTruthy();
    expect(await api.bodiesTo(paths.auth.loginWithOtp)).toEqual([{ orgId: 41, mobile: '+919000000001' }]);
  });
});

describe('MPIN login form (domain ZMpinLoginRequest)', () => {
  it('refuses a short MPIN before any request; "Forgot MPIN?" checks only the mobile', async () => {
    const api = stubApi({});
    renderRoutes({ routes, url: appPaths.mPin.href('login'), i18n });
    await screen.findByTestId('mpin-mobile');
    type('mpin-mobile', '12345');
    fireEvent.click(screen.getByTestId('mpin-forgot'));
    expect(await screen.findByText(en.validation.invalidMobile)).toBeTruthy();
    expect(screen.queryByText(en.validation.required)).toBeNull();
    expect(api.requestsTo(paths.auth.forgotMpin)).toHaveLength(0);

    type('mpin-mobile', '9000000001');
    type('mpin-input', '12');
    fireEvent.click(screen.getByTestId('mpin-login-submit'));
    expect(await screen.findByText(en.validation.invalidMpin)).toBeTruthy();
    expect(screen.queryByText(en.validation.invalidMobile)).toBeNull();
    expect(api.requestsTo(paths.auth.loginWithMpin)).toHaveLength(0);
  });
});

describe('set MPIN form (domain ZSetMpinRequest)', () => {
  it('refuses a confirmation that differs before any request', async () => {
    localStorage.setItem('token', 'jwt-123');
    const api = stubApi({});
    renderRoutes({ routes, url: appPaths.mPin.href('set'), i18n });
    await screen.findByTestId('mpin-new');
    type('mpin-new', '1234');
    type('mpin-confirm', '4321');
    fireEvent.click(screen.getByTestId('mpin-set-submit'));
    expect(await screen.findByText(en.validation.mpinMismatch)).toBeTruthy();
    expect(api.requestsTo(paths.auth.setMpin)).toHaveLength(0);
  });
});

describe('OTP form (domain ZVerifyOtpRequest, ZResetMpinRequest)', () => {
  it("refuses a 5-digit OTP before any request, and shows the server's words under the OTP", async () => {
    const api = stubApi({ [paths.auth.verifyOtp]: fieldFailure('otp', 'This OTP has expired') });
    saveOtpChallenge(challenge('LOGIN'));
    renderRoutes({ routes, url: appPaths.otp.href(), i18n });
    await screen.findByTestId('otp-input');
    type('otp-input', '12345');
    fireEvent.click(screen.getByTestId('otp-submit'));
    expect(await screen.findByText(en.validation.invalidOtp)).toBeTruthy();
    expect(api.requestsTo(paths.auth.verifyOtp)).toHaveLength(0);

    type('otp-input', '123456');
    fireEvent.click(screen.getByTestId('otp-submit'));
    expect(await screen.findByText('This OTP has expired')).toBeTruthy();
    await waitFor(() => expect(api.requestsTo(paths.auth.verifyOtp)).toHaveLength(1));
  });

  it('in forgot mode refuses a new MPIN typed differently twice before any request', async () => {
    const api = stubApi({});
    saveOtpChallenge(challenge('FORGOT_PASSWORD'));
    renderRoutes({ routes, url: appPaths.otp.href(), i18n });
    await screen.findByTestId('otp-input');
    type('otp-input', '123456');
    type('reset-mpin-new', '1234');
    type('reset-mpin-confirm', '1243');
    fireEvent.click(screen.getByTestId('otp-submit'));
    expect(await screen.findByText(en.validation.mpinMismatch)).toBeTruthy();
    expect(api.requestsTo(paths.auth.resetMpin)).toHaveLength(0);
  });
});
