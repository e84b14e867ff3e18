import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/*
 * The steps the key-request journeys share (issue 30): the figures they check through the API, and
 * asking for keys and returning them through the key requests page's dialogs.
 */

/** app_type 0: device policy controller keys (spec §1). */
export const DPC = 0;

/** The signed-in user's bearer header, for the API calls a journey checks figures with. */
export const authOf = async (page: Page) => ({
  authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}`,
});

/** How many DPC keys the signed-in node holds (the balances route its card shows). */
export const dpcKeys = async (page: Page): Promise<number> => {
  const answer = await page.request.get('/api/points/getBalanceTypesWithScheme', {
    headers: await authOf(page),
  });
  const balances = (await answer.json()).data as { appType: number; balance: number }[];
  return balances.find((b) => b.appType === DPC)?.balance ?? 0;
};

/**
 * Picks the device policy controller key type in a key dialog. A tap on the select while the dialog
 * is still opening can be lost, so the list is opened again until its option shows.
 */
const chooseDpc = async (page: Page, dialogTestId: string) => {
  const select = page.getByTestId(dialogTestId).getByRole('combobox', { name: /^Key type/ });
  const option = page.getByRole('option', { name: 'Device policy controller', exact: true });
  await expect(async () => {
    if (!(await option.isVisible())) await select.click();
    await expect(option).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await option.click();
};

/**
 * On the key requests page: "Request keys" for `quantity` DPC keys with a payment `reference`;
 * answers the request the server made (its id and the parent asked).
 */
export const askForKeys = async (page: Page, quantity: number, reference: string) => {
  await page.getByTestId('key-request-new').click();
  const dialog = page.getByTestId('key-request-dialog');
  await chooseDpc(page, 'key-request-dialog');
  await dialog.getByTestId('key-request-quantity').fill(String(quantity));
  await dialog.getByTestId('key-request-reference').fill(reference);
  const asked = page.waitForResponse(
    (r) => r.url().endsWith('/api/key_requests') && r.request().method() === 'POST',
  );
  await dialog.getByTestId('key-request-submit').click();
  return (await (await asked).json()).data as { id: number; parentName: string | null };
};

/** On the key requests page: "Return keys" for `quantity` DPC keys, expecting them taken back. */
export const returnKeys = async (page: Page, quantity: number, intro?: string) => {
  await page.getByTestId('key-return-open').click();
  const dialog = page.getByTestId('key-return-dialog');
  if (intro) await expect(dialog.getByText(intro)).toBeVisible();
  await chooseDpc(page, 'key-return-dialog');
  await dialog.getByTestId('key-return-quantity').fill(String(quantity));
  const returned = page.waitForResponse((r) => r.url().endsWith('/api/key_requests/return'));
  await dialog.getByTestId('key-return-submit').click();
  expect((await returned).status()).toBe(200);
};

/**
 * Raced approvals: `asker` makes `count` requests of one DPC key, and `approver` (its parent)
 * approves each twice at once; answers the decisions' statuses, sorted.
 */
export const raceApprovals = async (asker: Page, approver: Page, count: number): Promise<number[]> => {
  const [askerAuth, approverAuth] = [await authOf(asker), await authOf(approver)];
  const ids: number[] = [];
  for (let k = 0; k < count; k += 1) {
    const made = await asker.request.post('/api/key_requests', {
      headers: askerAuth,
      data: { appType: DPC, quantity: 1 },
    });
    ids.push((await made.json()).data.id);
  }
  expect(ids).toHaveLength(count);
  const decisions = await Promise.all(
    ids.flatMap((id) =>
      [0, 1].map(() =>
        approver.request.post('/api/key_requests/decide', {
          headers: approverAuth,
          data: { request_id: id, decision: 'approve' },
        }),
      ),
    ),
  );
  return decisions.map((d) => d.status()).sort();
};
