import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentProcess } from '../support/agent-process';
import { addCustomerWithEnrolledPhone } from '../support/enrolled-phone';
import {
  expect,
  expectTranslated,
  freshImei,
  freshMobile,
  IN_PHONE,
  openDrawerItem,
  setLanguage,
  shot,
  test,
} from '../support/fixtures';
import { askForKeys, dpcKeys, raceApprovals, returnKeys } from '../support/key-requests';
import { DEMO_RETAILER, loginToDashboard } from '../support/login';

/**
 * Issue 30's key journey, up and down the chain Kisht has (organisation → retailer →
 * mini-retailer): a mini-retailer asks its retailer for keys with a payment reference, the retailer
 * approves on its phone, the keys arrive, one is spent on an enrolled phone, one is returned; then
 * approvals raced in parallel move each request's keys once and the balances add up. Both shops'
 * screens at 412×915, the mini-retailer's also in Hindi.
 */

test.use(IN_PHONE);

/** The demo organisation's first mini-retailer (under the demo retailer), as seeded. */
const MINI_RETAILER = '9876543211';
const SECTIONS = ['keyRequests', 'ledger', 'nav', 'appType'];

test('a mini-retailer asks its retailer for keys, gets them, spends one and returns one; raced approvals move keys once', async ({
  page,
  browser,
  baseURL,
}) => {
  const agent = new AgentProcess('agent-key-requests');
  const retailerContext = await browser.newContext({ ...IN_PHONE, baseURL });
  const retailer = await retailerContext.newPage();
  try {
    await loginToDashboard(page, MINI_RETAILER);
    await loginToDashboard(retailer, DEMO_RETAILER);
    const [miniBefore, retailerBefore] = [await dpcKeys(page), await dpcKeys(retailer)];
    expect(retailerBefore).toBeGreaterThan(8);

    // 1. The mini-retailer asks for 2 keys from the drawer's "Key requests".
    await openDrawerItem(page, 'keyRequests', /\/key_requests/);
    const request = await askForKeys(page, 2, 'UPI-7788');
    const card = page.getByTestId(`key-request-${request.id}`);
    await expect(card).toHaveAttribute('data-status', 'pending');
    await expectTranslated(page, SECTIONS);
    await shot(page, '300-key-request-sent');

    // 2. The retailer approves it under "From my shops".
    await retailer.goto('/key_requests?tab=received');
    await retailer.getByTestId(`key-request-approve-${request.id}`).click();
    await retailer.getByTestId('key-request-approve-confirm').click();
    await expect(retailer.getByTestId(`key-request-${request.id}`)).toHaveAttribute(
      'data-status',
      'approved',
    );
    await shot(retailer, '301-key-request-approved-by-retailer');
    expect(await dpcKeys(retailer)).toBe(retailerBefore - 2);

    // 3. The keys arrived.
    await page.reload();
    await expect(card).toHaveAttribute('data-status', 'approved');
    expect(await dpcKeys(page)).toBe(miniBefore + 2);

    // 4. One is spent: a customer's phone enrols (the reference agent).
    await addCustomerWithEnrolledPhone(page, baseURL, agent, {
      firstName: 'Kiran',
      lastName: 'Keys',
      mobile: freshMobile('7'),
      imei1: freshImei(),
      imei2: freshImei(),
      pricePaise: 1_299_900,
      loanAmountPaise: 1_000_000,
      statePath: join(mkdtempSync(join(tmpdir(), 'kisht-e2e-keys-')), 'device.json'),
    });
    expect(await dpcKeys(page)).toBe(miniBefore + 1);

    // 5. One unused key goes back to the retailer.
    await returnKeys(page, 1);
    expect(await dpcKeys(page)).toBe(miniBefore);
    expect(await dpcKeys(retailer)).toBe(retailerBefore - 1);

    // 6. Raced approvals: three requests, each approved twice at once; each moves its keys once.
    expect(await raceApprovals(page, retailer, 3)).toEqual([200, 200, 200, 409, 409, 409]);
    expect(await dpcKeys(page)).toBe(miniBefore + 3);
    expect(await dpcKeys(retailer)).toBe(retailerBefore - 1 - 3);

    // The mini-retailer's screen in Hindi.
    await setLanguage(page.context(), baseURL!, 'hn');
    await page.goto('/key_requests');
    await expect(card).toHaveAttribute('data-status', 'approved');
    await expectTranslated(page, SECTIONS);
    await shot(page, '302-key-requests-hindi');
  } finally {
    agent.stop();
    await retailerContext.close();
  }
});
