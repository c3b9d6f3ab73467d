import { expect, registerViaApi, test } from './helpers/web-fixtures';

test('signed-out visitors are sent from protected routes to /auth', async ({ page }) => {
  for (const path of ['/settings', '/checkout', '/checkout?plan=unlimited', '/buy-crowns']) {
    await page.goto(path);
    await expect(page).toHaveURL('/auth');
    await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
  }
});

test('signed-in users: /auth goes home, buy-crowns without a subscription goes to pricing', async ({
  page,
}) => {
  await registerViaApi(page);
  await page.goto('/auth');
  await expect(page).toHaveURL('/');
  await page.goto('/buy-crowns');
  await expect(page).toHaveURL('/pricing');
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
});

test('pricing actions for visitors go to /auth', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByText('Most Popular')).toBeVisible();
  await expect(page.getByText('$9.99')).toBeVisible();
  await expect(page.getByText('$29.99')).toBeVisible();
  await page.getByRole('button', { name: 'Subscribe to Pro' }).click();
  await expect(page).toHaveURL('/auth');
  await page.goto('/pricing');
  await page.getByRole('button', { name: 'Buy Crowns' }).click();
  await expect(page).toHaveURL('/auth');
});

test('pricing actions for a trial user: checkout with the plan, and a hint on Buy Crowns', async ({
  page,
}) => {
  const { email } = await registerViaApi(page);
  await page.goto('/pricing');
  await page.getByRole('button', { name: 'Buy Crowns' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Crowns are available to subscribers' }),
  ).toBeVisible();
  await expect(page).toHaveURL('/pricing');

  await page.getByRole('button', { name: 'Subscribe to Unlimited' }).click();
  await expect(page).toHaveURL('/checkout?plan=unlimited');
  await expect(page.getByRole('radio', { name: /^Unlimited plan/ })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Subscribe to Unlimited' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByText(email)).toBeVisible();
  await expect(main.getByText('Free', { exact: true })).toBeVisible();

  // The plan toggles between the two cards; the default is Pro.
  await page.goto('/checkout');
  await expect(page.getByRole('radio', { name: /^Pro plan/ })).toBeChecked();
  await page.getByText('$29.99').first().click();
  await expect(page.getByRole('button', { name: 'Subscribe to Unlimited' })).toBeVisible();
  await page.getByRole('link', { name: '← Back to Pricing' }).click();
  await expect(page).toHaveURL('/pricing');
});
