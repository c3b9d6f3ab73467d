import { expect, PASSWORD, test, uniqueEmail } from './helpers/web-fixtures';

/**
 * The foundation's smoke test: the built server as `npm start` runs it serves the app with its security
 * headers, the landing page renders, and a new user can register and sees their avatar.
 */
test('landing page loads and a new user registers and sees the avatar', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { level: 1, name: 'Master Your Mix' })).toBeVisible();
  await expect(page.getByText('Professional Audio Mixing and Mastering Platform')).toBeVisible();

  const email = uniqueEmail('smoke');
  await page.getByRole('link', { name: 'Log In' }).click();
  await page.getByRole('tab', { name: 'Register' }).click();
  const form = page.getByRole('form', { name: 'Register' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await form.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Create Account' }).click();

  const username = email.split('@')[0]!;
  await expect(page.getByRole('button', { name: `Account menu for ${username}` })).toContainText(
    username.slice(0, 2).toUpperCase(),
  );
});
