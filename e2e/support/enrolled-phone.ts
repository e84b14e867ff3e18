import type { Page } from '@playwright/test';
import type { AgentProcess } from './agent-process';
import { recordConsentViaApi } from './consent';
import { expect } from './fixtures';

/**
 * Journey set-up through the API (the add-customer form has its own journeys): adds a customer of
 * the logged-in retailer with a phone of IMEIs `imei1`/`imei2`, records their consent to remote
 * locking, fetches their enrolment QR and
 * enrols the reference agent CLI (`agent`) with it, its state at `statePath`; returns the customer
 * id once the agent is connected to the broker.
 */
export const addCustomerWithEnrolledPhone = async (
  page: Page,
  baseURL: string | undefined,
  agent: AgentProcess,
  customer: {
    firstName: string;
    lastName: string;
    mobile: string;
    imei1: string;
    imei2: string;
    pricePaise: number;
    loanAmountPaise: number;
    statePath: string;
    /** YYYY-MM-DD, optional (the dashboard's birthdays). */
    dateOfBirth?: string;
  },
): Promise<number> => {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const auth = { authorization: `Bearer ${token}` };
  const products = await (
    await page.request.get(`${baseURL}/api/products?device_type=0`, { headers: auth })
  ).json();
  const { statePath, ...fields } = customer;
  const created = await (
    await page.request.post(`${baseURL}/country/customerRegistrationByKegenUpdateV3`, {
      headers: auth,
      data: {
        ...fields,
        productId: products.data[0].id,
        downPaymentPaise: customer.pricePaise - customer.loanAmountPaise,
        annualRateBps: 1400,
        tenureMonths: 6,
        appType: 0,
        deviceType: 0,
      },
    })
  ).json();
  expect(created.response, JSON.stringify(created)).toBe('success');
  const customerId = created.data.id as number;
  await recordConsentViaApi(page, baseURL, customerId);
  const qr = await (
    await page.request.get(`${baseURL}/api/customer/get_customers_qrCode?customer_id=${customerId}`, {
      headers: auth,
    })
  ).json();
  agent.start([
    'enrol',
    '--qr',
    qr.data.payload,
    '--imei1',
    customer.imei1,
    '--imei2',
    customer.imei2,
    '--state',
    statePath,
  ]);
  await agent.waitFor(/connected to ws:\/\/.+\/mqtt/);
  return customerId;
};
