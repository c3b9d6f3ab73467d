import { BYPASS_SECRET, expect, test } from './helpers/web-fixtures';

// The e2e server runs with DEV_MODE=true and DEV_BYPASS_SECRET=e2e-bypass-secret.
const badge = (page: import('@playwright/test').Page) =>
  page.getByRole('button', { name: 'Developer Mode (Click to exit)' });

test('a wrong secret does nothing but leave the address clean', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 404 .*\/api\/dev\/bypass$/);
  await page.goto('/pricing?bypass=wrong-secret');
  await expect(page).toHaveURL('/pricing');
  await expect(badge(page)).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('authBypass'))).toBeNull();
  await page.goto('/settings');
  await expect(page).toHaveURL('/auth');
});

test('the right secret sets the flag, opens protected routes, and the badge turns it off', async ({
  page,
}) => {
  await page.goto(`/pricing?plan=pro&bypass=${BYPASS_SECRET}`);
  await expect(badge(page)).toBeVisible();
  await expect(page).toHaveURL('/pricing?plan=pro');
  expect(await page.evaluate(() => localStorage.getItem('authBypass'))).toBe('true');

  await page.goto('/settings');
  await expect(page.getByText('Please log in to access settings.')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/auth');
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();

  // The API never trusts the flag.
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);

  await badge(page).click();
  await expect(page).toHaveURL('/auth');
  await expect(badge(page)).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('authBypass'))).toBeNull();
  await page.goto('/settings');
  await expect(page).toHaveURL('/auth');
});

test('the login page offers the bypass button in developer mode', async ({ page }) => {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Developer Bypass (skip login)' }).click();
  await expect(page).toHaveURL('/');
  await expect(badge(page)).toBeVisible();
  await badge(page).click();
  await expect(page).toHaveURL('/auth');
});
