import type { Page } from '@playwright/test';
import { expect } from './fixtures';

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

/** Logs in with OTP and skips the MPIN offer, landing on the dashboard. */
export const loginToDashboard = async (page: Page, mobile: string, query = ''): Promise<void> => {
  await loginWithOtp(page, mobile, query);
  await page.waitForURL(/\/(m_pin\?mode=set|dashboard)$/);
  if (page.url().includes('m_pin')) await page.getByTestId('mpin-skip').click();
  await expect(page).toHaveURL(/\/dashboard$/);
};
