import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { loginToDashboard } from '../support/login';

/**
 * Issue 28: the main screens at 412×915 have no serious or critical accessibility violation by
 * axe-core (WCAG 2.1 A and AA rules and best practices), signed out and as the demo retailer.
 */
test.use({ serviceWorkers: 'block' });

/** The serious and critical violations axe finds on the page now: rule, impact and where. */
const seriousViolations = async (page: Page) => {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
};

test('the sign-in and main screens have no serious accessibility violation (axe-core)', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-mobile')).toBeVisible();
  const found: Record<string, unknown> = { login: await seriousViolations(page) };

  await loginToDashboard(page, '9876543210');
  const screens: [string, string, string][] = [
    ['dashboard', '/dashboard', 'h1'],
    ['customer_list', '/customer_list', '[data-testid^=customer-row-]'],
    ['up_coming_emi', '/up_coming_emi?range=overdue', '[data-testid=upcoming-list]'],
    ['antihacking', '/antihacking', '[data-testid=plan-sale-form]'],
    ['add_customer', '/add_customer', '[data-testid=add-customer-stepper]'],
  ];
  for (const [name, path, ready] of screens) {
    await page.goto(path);
    await expect(page.locator(ready).first()).toBeVisible();
    found[name] = await seriousViolations(page);
  }
  // customer_details of the first customer listed, each of its tabs.
  await page.goto('/customer_list');
  await page.locator('[data-testid^=customer-row-]').first().click();
  await expect(page).toHaveURL(/\/customer_details\//);
  for (const tab of ['Customer', 'Device', 'Actions']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    found[`customer_details ${tab}`] = await seriousViolations(page);
  }
  const screensChecked = Object.keys(found);
  expect(screensChecked.length).toBe(9);
  expect(found).toEqual(Object.fromEntries(screensChecked.map((name) => [name, []])));
});
