import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentProcess } from '../support/agent-process';
import { addCustomerWithEnrolledPhone } from '../support/enrolled-phone';
import {
  digits,
  expect,
  expectTranslated,
  freshImei,
  freshMobile,
  IN_PHONE,
  setLanguage,
  shot,
  test,
} from '../support/fixtures';
import { askForKeys, dpcKeys, raceApprovals, returnKeys } from '../support/key-requests';
import { loginToDashboard, loginToNetwork, logout } from '../support/login';

/**
 * Issue 30's distribution network, down to a shop: the demo organisation's distributor (level 2,
 * under the super-distributor) and the retailer below it, as seeded. The retailer asks its
 * distributor for keys, the distributor approves on its phone, the keys arrive, one is spent on an
 * enrolled phone, one goes back; raced approvals move each request's keys once and the keys the
 * two hold add up. A new shop then joins under the distributor by its mobile and the distributor
 * approves it. The distributor's home at 412×915 in English and Hindi.
 */

test.use(IN_PHONE);

/** The seeded distributor (Andheri Mobile Distributors) and the retailer below it (Sai Mobile Point). */
const DISTRIBUTOR = '9876500102';
const NETWORK_RETAILER = '9876500103';
const SECTIONS = ['network', 'keyRequests', 'ledger', 'nav', 'appType', 'admin', 'joining'];

test('a retailer asks its distributor for keys, spends one and returns one; raced approvals move keys once; a shop joins under the distributor', async ({
  page,
  browser,
  baseURL,
}) => {
  const agent = new AgentProcess('agent-distribution-network');
  const distributorContext = await browser.newContext({ ...IN_PHONE, baseURL });
  const distributor = await distributorContext.newPage();
  try {
    await loginToDashboard(page, NETWORK_RETAILER);
    // The distributor's home is its network, not a shop's dashboard.
    await loginToNetwork(distributor, DISTRIBUTOR);
    const [shopBefore, distributorBefore] = [await dpcKeys(page), await dpcKeys(distributor)];
    expect(distributorBefore).toBeGreaterThan(6);
    const retailerCard = distributor
      .getByTestId(/^network-node-\d+$/)
      .filter({ hasText: 'Sai Mobile Point' });
    await expect(retailerCard).toBeVisible();
    await expect(distributor.getByTestId('key-balances')).toBeVisible();
    await expectTranslated(distributor, SECTIONS);
    await shot(distributor, '310-distributor-network');

    // 1. The retailer asks its distributor for 2 keys.
    await page.goto('/key_requests');
    await expect(page.getByText('Ask your distributor for keys', { exact: false })).toBeVisible();
    const request = await askForKeys(page, 2, 'UPI-9911');
    expect(request.parentName).toBe('Andheri Mobile Distributors');
    const card = page.getByTestId(`key-request-${request.id}`);
    await expect(card).toHaveAttribute('data-status', 'pending');

    // 2. The distributor approves it, from its home's "Key requests".
    await distributor.getByTestId('network-key-requests').click();
    await expect(distributor).toHaveURL(/\/key_requests\?tab=received/);
    await distributor.getByTestId(`key-request-approve-${request.id}`).click();
    await distributor.getByTestId('key-request-approve-confirm').click();
    await expect(distributor.getByTestId(`key-request-${request.id}`)).toHaveAttribute(
      'data-status',
      'approved',
    );
    await shot(distributor, '311-distributor-approved');
    expect(await dpcKeys(distributor)).toBe(distributorBefore - 2);

    // 3. The keys arrived, and the distributor's network shows them.
    await page.reload();
    await expect(card).toHaveAttribute('data-status', 'approved');
    expect(await dpcKeys(page)).toBe(shopBefore + 2);
    await distributor.goto('/network');
    await expect(retailerCard.getByTestId(/-keys-0$/)).toContainText(`${shopBefore + 2}`);

    // 4. One is spent: a customer's phone enrols (the reference agent).
    await addCustomerWithEnrolledPhone(page, baseURL, agent, {
      firstName: 'Nisha',
      lastName: 'Network',
      mobile: freshMobile('7'),
      imei1: freshImei(),
      imei2: freshImei(),
      pricePaise: 1_499_900,
      loanAmountPaise: 1_200_000,
      statePath: join(mkdtempSync(join(tmpdir(), 'kisht-e2e-network-')), 'device.json'),
    });
    expect(await dpcKeys(page)).toBe(shopBefore + 1);

    // 5. One unused key goes back to the distributor.
    await returnKeys(page, 1, 'Unused keys go back to your distributor at once.');
    expect(await dpcKeys(page)).toBe(shopBefore);
    expect(await dpcKeys(distributor)).toBe(distributorBefore - 1);

    // 6. Raced approvals: three requests, each approved twice at once; each moves its keys once,
    // and the keys the two hold still add up (the one spent on the phone is the only one gone).
    expect(await raceApprovals(page, distributor, 3)).toEqual([200, 200, 200, 409, 409, 409]);
    const [shopAfter, distributorAfter] = [await dpcKeys(page), await dpcKeys(distributor)];
    expect(shopAfter).toBe(shopBefore + 3);
    expect(distributorAfter).toBe(distributorBefore - 1 - 3);
    expect(shopAfter + distributorAfter).toBe(shopBefore + distributorBefore - 1);

    // 7. A new shop joins under the distributor by its mobile; the distributor approves it.
    const suffix = digits(4);
    const shopName = `Krishna Mobiles ${suffix}`;
    await logout(page);
    await page.getByTestId('join-open').click();
    const joinDialog = page.getByTestId('join-dialog');
    await joinDialog.getByTestId('join-name').fill(`Krishna Rao ${suffix}`);
    await joinDialog.getByTestId('join-shopName').fill(shopName);
    await joinDialog.getByTestId('join-mobile').fill(freshMobile('95'));
    await joinDialog.getByTestId('join-city').fill('Thane');
    await joinDialog.getByTestId('join-parentMobile').fill(DISTRIBUTOR);
    await shot(page, '312-join-under-distributor');
    await joinDialog.getByTestId('join-submit').click();
    await expect(joinDialog.getByTestId('join-success')).toBeVisible();

    await distributor.goto('/network?tab=joins');
    const joinRequest = distributor.getByTestId(/^request-\d+$/).filter({ hasText: shopName });
    await expect(joinRequest).toBeVisible();
    await joinRequest.getByTestId(/^approve-\d+$/).click();
    await distributor.getByTestId('decide-confirm-yes').click();
    await expect(joinRequest.getByTestId(/^approve-\d+$/)).toHaveCount(0);
    await distributor.getByTestId('network-tab-below').click();
    await expect(distributor.getByTestId(/^network-node-\d+$/).filter({ hasText: shopName })).toBeVisible();

    // The distributor's home in Hindi.
    await setLanguage(distributor.context(), baseURL!, 'hn');
    await distributor.goto('/network');
    await expect(retailerCard).toBeVisible();
    await expectTranslated(distributor, SECTIONS);
    await shot(distributor, '313-distributor-network-hindi');
  } finally {
    agent.stop();
    await distributorContext.close();
  }
});
