import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentProcess } from '../support/agent-process';
import { addFamilyCustomerInUi, decodeQrOnPage, expectNotComingSoon } from '../support/families';
import { expect, freshImei, freshMobile, IN_PHONE, shot, test } from '../support/fixtures';
import { chooseLockReason } from '../support/lock-reason';

/**
 * Issue 15, the link-based family (the family-locking app reached over Kisht's own device channel):
 * the demo retailer adds a link-based customer, signs the consent and gets the deep link as a QR
 * with the APK download and the enrolment code; the reference agent in link mode enrols from the
 * deep link; the retailer locks the phone from customer_details and sees it locked. Photographed at
 * 412×915.
 */
test.use({ ...IN_PHONE, serviceWorkers: 'block', signedInAs: 'demoRetailer' });

test('a link-based customer gets the deep link, APK and code, enrols with the agent’s link mode and is locked', async ({
  page,
  baseURL,
}) => {
  const agent = new AgentProcess('agent-link-based');
  const statePath = join(mkdtempSync(join(tmpdir(), 'kisht-e2e-link-')), 'device.json');
  const imei1 = freshImei();
  const imei2 = freshImei();
  try {
    const customerId = await addFamilyCustomerInUi(page, {
      firstName: 'Lakshmi',
      lastName: 'Nair',
      mobile: freshMobile('6'),
      deviceType: 'Link-based family-locking app',
      appType: 'Link-based',
      imei1,
      imei2,
    });

    // 1. customer_navigate: the deep link as a QR, the APK link and the enrolment code.
    const instructions = page.getByTestId('enrolment-instructions');
    await expect(instructions).toHaveAttribute('data-kind', 'link');
    await expect(instructions).toContainText('How to enrol (link-based app)');
    const deepLink = await page.getByTestId('enrolment-payload').inputValue();
    expect(deepLink.startsWith(`${baseURL}/emm/l?`)).toBe(true);
    expect(new URL(deepLink).searchParams.get('token')).toBeTruthy();
    // A real decoder reads exactly the payload from the QR the page drew.
    expect(await decodeQrOnPage(page)).toBe(deepLink);
    await expect(page.getByTestId('open-enrolment-link')).toHaveAttribute('href', deepLink);
    const apk = page.getByTestId('enrolment-apk-link');
    await expect(apk).toHaveAttribute('href', /\/emm\/linkflapk$|^https?:\/\//);
    const apkResponse = await page.request.get((await apk.getAttribute('href'))!);
    expect(apkResponse.status()).toBe(200);
    await expect(page.getByTestId('enrolment-code')).toHaveText(/^[0-9A-Z]{4}[- ]?[0-9A-Z]{4}$/);
    await expectNotComingSoon(page);
    await shot(page, '170-link-based-qr');

    // The deep link opens a landing page on the phone with the APK link and the app's kisht:// link.
    const landing = await page.request.get(deepLink);
    expect(landing.status()).toBe(200);
    expect(await landing.text()).toContain('kisht://');

    // 2. The link-based app (the reference agent in link mode) enrols from the deep link.
    agent.start(['enrol', '--link', deepLink, '--imei1', imei1, '--imei2', imei2, '--state', statePath]);
    await agent.waitFor(/enrolled: device [0-9a-f-]{36}/);
    await agent.waitFor(/connected to ws:\/\/.+\/mqtt/);
    await expect(page.getByTestId('enrolment-success')).toBeVisible();
    await shot(page, '171-link-based-enrolled');

    // 3. Lock from customer_details (nothing overdue: with a reason); the app obeys, the screen says Locked.
    await page.getByTestId('open-customer-details').click();
    await expect(page).toHaveURL(new RegExp(`/customer_details/${customerId}$`));
    await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
    await page.getByTestId('lock-button').click();
    await chooseLockReason(page, 'customer_request', 'Customer asked us to test the lock');
    await page.getByTestId('confirm-dialog-confirm').click();
    await expect(page.getByTestId('lock-state')).toHaveText('Locked');
    await agent.waitFor(/state: LOCKED/);
    // The command history has the lock, done.
    await page.getByRole('tab', { name: 'Device' }).click();
    await expect(page.getByTestId('command-history').getByRole('listitem').first()).toContainText('done');
    await page.getByRole('tab', { name: 'Customer' }).click();
    await shot(page, '172-link-based-locked');
  } finally {
    await agent.stop();
  }
});
