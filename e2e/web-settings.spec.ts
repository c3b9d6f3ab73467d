import {
  expect,
  expectToast,
  fillLogin,
  PASSWORD,
  registerViaApi,
  resetLinkFor,
  test,
} from './helpers/web-fixtures';

test('settings show the account, the trial status, payment methods and security', async ({ page }) => {
  const { email, username } = await registerViaApi(page);
  await page.goto('/settings');
  const account = page.getByRole('heading', { name: 'Account Information' }).locator('..');
  await expect(account).toContainText(email);
  await expect(account).toContainText(username);
  await expect(account.getByText('Inactive', { exact: true })).toBeVisible();

  const subscription = page.getByRole('heading', { name: 'Subscription Status' }).locator('..');
  await expect(subscription).toContainText('Free Trial');
  await expect(subscription.getByRole('link', { name: 'View Plans' })).toHaveAttribute('href', '/pricing');

  await expect(page.getByText('No payment methods on file.')).toBeVisible();

  await page.getByRole('button', { name: 'Send password reset email' }).click();
  await expectToast(page, 'Reset link sent');
  expect(await resetLinkFor(email)).toContain('/reset-password?token=');
});

test('deleting the account needs the typed email, then signs out for good', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 401 .*\/api\/auth\/login$/);
  const { email } = await registerViaApi(page);
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  const confirm = dialog.getByRole('button', { name: 'Delete my account' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type your email to confirm').fill('someone-else@example.test');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type your email to confirm').fill(email);
  await confirm.click();

  await expectToast(page, 'Account deleted');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);

  await page.goto('/auth');
  await fillLogin(page, email, PASSWORD);
  await expectToast(page, 'Login failed', 'Invalid email or password');
});
