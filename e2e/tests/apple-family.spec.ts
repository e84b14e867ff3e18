import { fakeIphone, fakeMdm } from '../support/fake-mdm';
import { addFamilyCustomerInUi, decodeQrOnPage, expectNotComingSoon } from '../support/families';
import { digits, expect, freshImei, freshMobile, IN_PHONE, shot, test } from '../support/fixtures';
import { chooseLockReason } from '../support/lock-reason';

/**
 * Issue 15, the Apple family through NanoMDM as a shop lives it: the demo retailer adds an iPhone
 * customer (device type Apple, serial number), signs the consent and gets the Apple enrolment QR
 * (the enrolment profile's URL) with the iPhone instructions; a simulated iPhone behind the fake
 * NanoMDM installs the profile; apple_details shows what it reported after Check status, apple_sync
 * its last sync; lock and lost mode from customer_details go out as DeviceLock and EnableLostMode
 * plists that the iPhone acknowledges. Photographed at 412×915.
 */
test.use({ ...IN_PHONE, serviceWorkers: 'block', signedInAs: 'demoRetailer' });

const REASON = 'Customer asked us to test the lock';

test('an iPhone customer gets the Apple QR, enrols through NanoMDM, reports its details, and is locked and put in lost mode', async ({
  page,
}) => {
  const serialNumber = `F2L${digits(9)}`;
  const imei1 = freshImei();
  const customerId = await addFamilyCustomerInUi(page, {
    firstName: 'Meera',
    lastName: 'Iyer',
    mobile: freshMobile('8'),
    deviceType: 'Apple',
    appType: 'Apple',
    imei1,
    imei2: freshImei(),
    serialNumber,
  });

  // 1. customer_navigate: the Apple enrolment QR, whose payload is the profile URL, and the iPhone steps.
  await expect(page.getByTestId('enrolment-instructions')).toHaveAttribute('data-kind', 'apple_profile');
  await expect(page.getByTestId('enrolment-instructions')).toContainText('How to enrol (iPhone)');
  await expect(page.getByTestId('apple-supervision-note')).toBeVisible();
  const profileUrl = await page.getByTestId('enrolment-payload').inputValue();
  expect(profileUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/micromdm\/enrol\/[A-Za-z0-9_-]+\.mobileconfig$/);
  // A real decoder reads exactly the payload from the QR the page drew.
  expect(await decodeQrOnPage(page)).toBe(profileUrl);
  await expect(page.getByTestId('open-enrolment-link')).toHaveAttribute('href', profileUrl);
  await expectNotComingSoon(page);
  await shot(page, '150-apple-enrolment-qr');

  // 2. The iPhone opens the profile URL and installs the profile: NanoMDM's check-ins reach Kisht.
  const enrolled = await fakeMdm<{
    udid: string;
    checkins: { status: number; body: { data: { outcome: string } } }[];
  }>('POST', '/control/iphone/enrol', { profileUrl, serialNumber, imei: imei1 });
  expect(enrolled.checkins.map((c) => [c.status, c.body.data.outcome])).toEqual([
    [200, 'bound'],
    [200, 'enrolled'],
  ]);
  await expect(page.getByTestId('enrolment-success')).toBeVisible();
  await shot(page, '151-apple-enrolled');

  // 3. apple_details: enrolled, nothing reported until Check status asks the iPhone (DeviceInformation).
  await page.getByTestId('open-customer-details').click();
  await expect(page).toHaveURL(new RegExp(`/customer_details/${customerId}$`));
  await page.getByTestId('open-apple-details').click();
  await expect(page).toHaveURL(new RegExp(`/apple_details\\?customer_id=${customerId}$`));
  await expectNotComingSoon(page);
  await expect(page.getByTestId('apple-enrolment-state')).toHaveText('Enrolled');
  await expect(page.getByTestId('apple-udid')).toContainText(enrolled.udid);
  await expect(page.getByTestId('apple-not-reported')).toBeVisible();
  await page.getByTestId('apple-request-sync-send').click();
  await expect(page.getByTestId('apple-serial')).toContainText(serialNumber);
  await expect(page.getByTestId('apple-os')).toContainText('17.5');
  await expect(page.getByTestId('apple-imeis')).toContainText(imei1);
  await expect(page.getByTestId('apple-model')).toContainText('iPhone');
  await expect(page.getByTestId('apple-battery')).toContainText('85%');
  await shot(page, '152-apple-details');

  // apple_sync: the last sync, done.
  await page.getByTestId('open-apple-sync').click();
  await expect(page).toHaveURL(new RegExp(`/apple_sync\\?customer_id=${customerId}$`));
  await expectNotComingSoon(page);
  await expect(page.getByTestId('apple-sync-state')).toHaveAttribute('data-state', 'done');
  await shot(page, '153-apple-sync');

  // 4. Lost mode on from customer_details (offered while the iPhone is unlocked): an EnableLostMode
  // plist whose message the server writes from the reason, acknowledged; then off again
  // (DisableLostMode).
  await page.goto(`/customer_details/${customerId}`);
  await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
  await page.getByRole('tab', { name: 'Device' }).click();
  await page.getByTestId('control-lost_mode').click();
  const dialog = page.getByTestId('control-args-dialog');
  await expect(dialog).toBeVisible();
  // Nobody types the lock-screen message any more: it follows from the reason (issue 25).
  await expect(dialog.getByTestId('control-arg-message')).toHaveCount(0);
  // Nothing is overdue: lost mode, which leaves only a lock screen, asks why.
  await chooseLockReason(dialog, 'fraud_or_theft', REASON);
  await shot(page, '154-apple-lost-mode-args');
  await page.getByTestId('control-args-submit').click();
  await expect(page.getByTestId('control-state-lost_mode')).toHaveText('On');
  let iphone = await fakeIphone(serialNumber);
  const lost = iphone.ran.find((c) => c.requestType === 'EnableLostMode');
  expect(lost?.command).toMatchObject({
    RequestType: 'EnableLostMode',
    Message: expect.stringContaining(
      'This phone is locked: it was reported stolen or is under a fraud check.',
    ),
  });
  expect(iphone.answers.find((a) => a.uuid === lost?.uuid)).toMatchObject({
    status: 'Acknowledged',
    webhookStatus: 200,
  });
  expect(iphone.isLostMode).toBe(true);
  const history = page.getByTestId('command-history');
  await expect(history.getByRole('listitem').filter({ hasText: 'Lost mode on' })).toContainText('done');
  await shot(page, '155-apple-lost-mode-on');

  await page.getByTestId('control-lost_mode').click();
  await expect(page.getByTestId('control-state-lost_mode')).toHaveText('Off');
  iphone = await fakeIphone(serialNumber);
  const found = iphone.ran.find((c) => c.requestType === 'DisableLostMode');
  expect(iphone.answers.find((a) => a.uuid === found?.uuid)?.status).toBe('Acknowledged');
  expect(iphone.isLostMode).toBe(false);

  // 5. Lock from customer_details: a DeviceLock plist (Message, PhoneNumber), acknowledged; Locked.
  await page.getByRole('tab', { name: 'Customer' }).click();
  await page.getByTestId('lock-button').click();
  await chooseLockReason(page, 'customer_request', REASON);
  await page.getByTestId('confirm-dialog-confirm').click();
  await expect(page.getByTestId('lock-state')).toHaveText('Locked');
  iphone = await fakeIphone(serialNumber);
  const lock = iphone.ran.find((c) => c.requestType === 'DeviceLock');
  expect(Object.keys(lock?.command ?? {}).sort()).toEqual(['Message', 'PhoneNumber', 'RequestType']);
  expect(String(lock?.command.Message)).toContain('Ravi Mobiles');
  expect(iphone.answers.find((a) => a.uuid === lock?.uuid)).toMatchObject({
    status: 'Acknowledged',
    webhookStatus: 200,
  });
  expect(iphone.lockScreen).not.toBeNull();
  // Every plist Kisht enqueued passed the fake NanoMDM's check against Apple's command schema.
  expect(iphone.refused).toEqual([]);
  await shot(page, '156-apple-locked');
  await page.getByRole('tab', { name: 'Device' }).click();
  await expect(history.getByRole('listitem').filter({ hasText: /^Lock/ }).first()).toContainText('done');
  await shot(page, '157-apple-command-history');

  // emm_qr of an enrolled iPhone: it is enrolled, no placeholder.
  await page.goto(`/emm_qr?customer_id=${customerId}`);
  await expect(page.getByTestId('already-enrolled')).toBeVisible();
  await expectNotComingSoon(page);
});
