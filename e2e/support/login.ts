import { expect, type Page } from '@playwright/test';

/** The demo organisation's (41) retailer, as seeded. */
export const DEMO_RETAILER = '9876543210';
/** The demo organisation's admin, as seeded. */
export const DEMO_ADMIN = '9876500000';

/** Logs in through the real UI with the development OTP from the banner; returns on the MPIN offer. */
export const loginWithOtp = async (page: Page, mobile: string, query = ''): Promise<void> => {
  await page.goto(`/login${query}`);
  await page.getByTestId('login-mobile').fill(mobile);
  await page.getByTestId('login-submit').click();
  const banner = page.getByTestId('dev-otp-banner');
  await expect(banner).toContainText(/\d{6}/);
  const otp = /(\d{6})/.exec((await banner.textContent()) ?? '')![1]!;
  await page.getByTestId('otp-input').fill(otp);
  await page.getByTestId('otp-submit').click();
};

/** Logs in with OTP and skips the MPIN offer, landing on `home` (the user type's first screen). */
const loginAndSkipMpin = async (page: Page, mobile: string, home: string, query: string) => {
  await loginWithOtp(page, mobile, query);
  await page.waitForURL(new RegExp(`/(m_pin\\?mode=set|${home})$`));
  if (page.url().includes('m_pin')) await page.getByTestId('mpin-skip').click();
  await expect(page).toHaveURL(new RegExp(`/${home}$`));
};

/** Logs in with OTP and skips the MPIN offer, landing on the dashboard. */
export const loginToDashboard = (page: Page, mobile: string, query = ''): Promise<void> =>
  loginAndSkipMpin(page, mobile, 'dashboard', query);

/** Logs an organisation admin in with OTP and skips the MPIN offer, landing on the admin home. */
export const loginToAdmin = (page: Page, mobile = DEMO_ADMIN): Promise<void> =>
  loginAndSkipMpin(page, mobile, 'admin', '');

/** Logs a distributor (issue 30) in with OTP and skips the MPIN offer, landing on its network. */
export const loginToNetwork = (page: Page, mobile: string): Promise<void> =>
  loginAndSkipMpin(page, mobile, 'network', '');

/** Logs out from the app bar and waits for /login. */
export const logout = async (page: Page): Promise<void> => {
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/login$/);
};
