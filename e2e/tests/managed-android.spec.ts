import { fakeMdm } from '../support/fake-mdm';
import { addFamilyCustomerInUi, decodeQrOnPage, expectNotComingSoon } from '../support/families';
import { expect, freshImei, freshMobile, IN_PHONE, shot, test } from '../support/fixtures';
import { chooseLockReason } from '../support/lock-reason';

/**
 * Issue 15, the managed-Android family through Google's Android Management API (a local fake): the
 * demo retailer adds a managed-Android customer whose first EMI fell due weeks ago, signs the
 * consent and gets Google's enrolment QR with the notice of Google's permissible-usage rule; a
 * simulated phone scans it and enrols; customer_details offers no lock for the overdue payment
 * (issue 25: the missed payment is not among the reasons), and a lock for a theft report goes to
 * Google. Photographed at 412×915.
 */
test.use({ ...IN_PHONE, serviceWorkers: 'block', signedInAs: 'demoRetailer' });

/** `YYYY-MM-DD` of `days` days before today in India (+05:30). */
const daysAgoInIndia = (days: number) =>
  new Date(Date.now() + 5.5 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);

test('a managed-Android customer gets Google’s QR and the rule, enrols, is never locked for the missed payment, and is locked for a theft report', async ({
  page,
}) => {
  const imei1 = freshImei();
  const customerId = await addFamilyCustomerInUi(page, {
    firstName: 'Farhan',
    lastName: 'Shaikh',
    mobile: freshMobile('7'),
    deviceType: 'Managed Android API',
    appType: 'Device policy controller',
    imei1,
    imei2: freshImei(),
    // The first EMI fell due three weeks ago and is unpaid: the customer is overdue.
    firstDueDate: daysAgoInIndia(21),
  });

  // 1. customer_navigate: the Android Management API's QR (Android Device Policy with Google's
  // enrolment token) and the notice of Google's rule.
  const instructions = page.getByTestId('enrolment-instructions');
  await expect(instructions).toHaveAttribute('data-kind', 'managed_android');
  await expect(instructions).toContainText('How to enrol (managed Android)');
  await expect(instructions.getByTestId('payment-lock-rule')).toContainText(
    "Google's rule: no lock for a missed payment",
  );
  const payload = await page.getByTestId('enrolment-payload').inputValue();
  const provisioning = JSON.parse(payload) as Record<string, unknown>;
  expect(provisioning['android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME']).toBe(
    'com.google.android.apps.work.clouddpc/.receivers.CloudDeviceAdminReceiver',
  );
  expect(
    (provisioning['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE'] as Record<string, string>)[
      'com.google.android.apps.work.clouddpc.EXTRA_ENROLLMENT_TOKEN'
    ],
  ).toBeTruthy();
  // A real decoder reads exactly the payload from what the screen shows (Google's long payload makes
  // ~2.9 px modules at 280 px: crisp SVG edges keep it readable), also enlarged as a camera sees it.
  expect(await decodeQrOnPage(page)).toBe(payload);
  expect(await decodeQrOnPage(page, 3)).toBe(payload);
  await expectNotComingSoon(page);
  await shot(page, '160-managed-android-qr');

  // 2. The phone scans the QR and enrols with Google. The waiting screen asks Google (amapi_sync)
  // every 10 s, and says so once the phone is there.
  await fakeMdm('POST', '/control/amapi/enrol', { qrPayload: payload, imei: imei1 });
  const synced = await page.waitForResponse(
    async (r) => r.url().endsWith('/api/device/amapi_sync') && (await r.json()).data?.isEnrolled === true,
    { timeout: 30_000 },
  );
  expect((await synced.json()).data).toMatchObject({ isEnrolled: true, status: 1, state: 'ACTIVE' });
  await expect(page.getByTestId('enrolment-success')).toBeVisible();
  await shot(page, '161-managed-android-enrolled');

  // 3. customer_details: the rule again. A lock asks why, and the missed payment is not among the
  // reasons offered (issue 25: the picker offers what the command gate accepts); without another
  // reason nothing is sent, and nothing reaches Google.
  await page.getByTestId('open-customer-details').click();
  await expect(page).toHaveURL(new RegExp(`/customer_details/${customerId}$`));
  await expect(page.getByTestId('device-card').getByTestId('payment-lock-rule')).toBeVisible();
  await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
  const lockPosts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/lock')) {
      lockPosts.push(request.url());
    }
  });
  await page.getByTestId('lock-button').click();
  const dialog = page.getByRole('dialog', { name: 'Lock this phone?' });
  await expect(dialog.getByTestId('lock-overdue')).toBeVisible();
  await expect(dialog.getByTestId('lock-reason-why')).toContainText('Google');
  const category = dialog.getByTestId('lock-reason-category');
  await expect(category.locator('option[value="overdue_emi"]')).toHaveCount(0);
  await expect(category).toHaveValue('');
  await shot(page, '162-managed-android-confirm-lock');
  await dialog.getByTestId('confirm-dialog-confirm').click();
  await expect(dialog.locator('#lock-reason-category-helper-text')).toHaveText('Choose a reason');
  expect(lockPosts).toEqual([]);
  const commands = await fakeMdm<{ body: { type?: string } }[]>('GET', '/control/amapi/commands');
  expect(commands.filter((c) => c.body.type === 'LOCK')).toEqual([]);
  await shot(page, '163-managed-android-lock-refused');

  // 4. Locked for a reason that is not a payment (a theft report), the lock goes to Google.
  await chooseLockReason(dialog, 'fraud_or_theft', 'Customer reported the phone stolen');
  await dialog.getByTestId('confirm-dialog-confirm').click();
  await expect(dialog).toBeHidden();
  expect(lockPosts).toHaveLength(1);
  await expect
    .poll(async () =>
      (await fakeMdm<{ body: { type?: string } }[]>('GET', '/control/amapi/commands')).filter(
        (c) => c.body.type === 'LOCK',
      ),
    )
    .toHaveLength(1);
});
