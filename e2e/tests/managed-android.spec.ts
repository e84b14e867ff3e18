import { fakeMdm } from '../support/fake-mdm';
import { addFamilyCustomerInUi, decodeQrOnPage, expectNotComingSoon } from '../support/families';
import { expect, freshImei, freshMobile, IN_PHONE, shot, test } from '../support/fixtures';

/**
 * Issue 15, the managed-Android family through Google's Android Management API (a local fake): the
 * demo retailer adds a managed-Android customer whose first EMI fell due weeks ago, signs the
 * consent and gets Google's enrolment QR with the notice of Google's permissible-usage rule; a
 * simulated phone scans it and enrols; a lock for the overdue payment is refused
 * by the server, and customer_details shows the server's reason. Photographed at 412×915.
 */
test.use({ ...IN_PHONE, serviceWorkers: 'block', signedInAs: 'demoRetailer' });

/** `YYYY-MM-DD` of `days` days before today in India (+05:30). */
const daysAgoInIndia = (days: number) =>
  new Date(Date.now() + 5.5 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);

test('a managed-Android customer gets Google’s QR and the rule, enrols, and a lock for the missed payment is refused with the reason', async ({
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

  // 3. customer_details: the rule again; a lock for the overdue EMI is refused (409
  // PAYMENT_LOCK_NOT_ALLOWED) and the card shows the server's reason; nothing reaches Google.
  await page.getByTestId('open-customer-details').click();
  await expect(page).toHaveURL(new RegExp(`/customer_details/${customerId}$`));
  await expect(page.getByTestId('device-card').getByTestId('payment-lock-rule')).toBeVisible();
  await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
  await page.getByTestId('lock-button').click();
  await expect(page.getByTestId('lock-overdue')).toBeVisible();
  // A managed-Android lock always asks why, with Google's rule; a payment is no reason.
  await expect(page.getByTestId('lock-reason-why')).toContainText('Google');
  await page.getByTestId('lock-reason').fill('EMI overdue for three weeks');
  await shot(page, '162-managed-android-confirm-lock');
  const refusal = page.waitForResponse((r) => r.url().includes('/lock') && r.request().method() === 'POST');
  await page.getByTestId('confirm-dialog-confirm').click();
  const refused = await refusal;
  expect(refused.status()).toBe(409);
  const body = await refused.json();
  expect(body.code ?? body.error?.code ?? JSON.stringify(body)).toContain('PAYMENT_LOCK_NOT_ALLOWED');
  await expect(page.getByTestId('payment-lock-refused')).toContainText(
    "Google's Android Management API policy forbids locking or restricting a managed-Android phone because a payment was missed",
  );
  await expect(page.getByTestId('lock-state')).toHaveText('Unlocked');
  // The confirmation stays open after the refusal, for a reason that is not a payment.
  const dialog = page.getByRole('dialog', { name: 'Lock this phone?' });
  if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  const commands = await fakeMdm<{ body: { type?: string } }[]>('GET', '/control/amapi/commands');
  expect(commands.filter((c) => c.body.type === 'LOCK')).toEqual([]);
  await shot(page, '163-managed-android-lock-refused');
});
