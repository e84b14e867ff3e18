import { imeiCheckDigit } from '@kisht/domain/common/identifiers';
import type { TestApp } from './harness';
import { bearer } from './harness';

let counter = 0;
/** A fresh Luhn-valid IMEI, unique within the test run. */
export const freshImei = (): string => {
  counter += 1;
  const body = `86${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 1e5).padStart(5, '0')}${String(counter).padStart(4, '0')}`;
  return `${body}${imeiCheckDigit(body)}`;
};

/** A valid add-customer body for the given product; override any field. */
export const customerBody = (productId: number, overrides: Record<string, unknown> = {}) => ({
  firstName: 'Meera',
  lastName: 'Nair',
  email: 'meera@example.in',
  mobile: '9123456780',
  imei1: freshImei(),
  imei2: freshImei(),
  productId,
  pricePaise: 1_799_900,
  downPaymentPaise: 299_900,
  loanAmountPaise: 1_500_000,
  annualRateBps: 1400,
  tenureMonths: 6,
  ...overrides,
});

/** GET with a bearer token, returning the parsed envelope and status. */
export const apiGet = async (t: TestApp, token: string, url: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  return { status: response.statusCode, body: response.json() };
};

/** POST JSON with a bearer token, returning the parsed envelope and status. */
export const apiPost = async (t: TestApp, token: string, url: string, payload: Record<string, unknown>) => {
  const response = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  return { status: response.statusCode, body: response.json() };
};
