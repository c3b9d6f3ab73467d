import { expect, expectToast, fillLogin, registerViaApi, resetLinkFor, test } from './helpers/web-fixtures';

test('forgot password → mailed link → reset → log in with the new password', async ({ page }) => {
  const { email, username } = await registerViaApi(page);
  await page.request.post('/api/auth/logout');

  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL('/forgot-password');

  const emailField = page.getByLabel('Email');
  await emailField.fill('not-an-address');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(emailField).toHaveAttribute('aria-invalid', 'true');

  await emailField.fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('reset link');
  await expectToast(page, 'Reset link sent');

  const link = await resetLinkFor(email);
  await page.goto(link);
  const password = page.getByLabel('New Password', { exact: true });
  const confirm = page.getByLabel('Confirm Password', { exact: true });

  await password.fill('abc');
  await confirm.fill('abc');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Password must be at least 6 characters long')).toBeVisible();

  await password.fill('brand-new-secret');
  await confirm.fill('brand-new-secreT');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await expect(confirm).toHaveAttribute('aria-invalid', 'true');
  await expect(password).not.toHaveAttribute('aria-invalid');

  // The show/hide toggles reveal what was typed.
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show new password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide new password' }).click();
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show confirm password' }).click();
  await expect(confirm).toHaveAttribute('type', 'text');

  await confirm.fill('brand-new-secret');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('heading', { name: 'Password reset successful' })).toBeVisible();
  await page.getByRole('link', { name: 'Continue to login' }).click();
  await expect(page).toHaveURL('/auth');

  await fillLogin(page, email, 'brand-new-secret');
  await expectToast(page, 'Login successful', `Welcome back, ${username}!`);
  await expect(page).toHaveURL('/');
});

test('the reset link cannot be used twice', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 400 .*\/api\/auth\/reset-password$/);
  const { email } = await registerViaApi(page);
  await page.request.post('/api/auth/forgot-password', { data: { email } });
  const link = await resetLinkFor(email);
  const token = new URL(link, 'http://x').searchParams.get('token');
  const first = await page.request.post('/api/auth/reset-password', {
    data: { token, newPassword: 'first-new-pass' },
  });
  expect(first.ok()).toBe(true);

  await page.goto(link);
  await page.getByLabel('New Password', { exact: true }).fill('second-new-pass');
  await page.getByLabel('Confirm Password', { exact: true }).fill('second-new-pass');
  await page.getByRole('button', { name: 'Reset password' }).click();
  const toast = await expectToast(page, 'Error', 'This password reset link is invalid or has expired.');
  await expect(toast).toHaveAttribute('data-variant', 'destructive');
});

test('without a token the reset page says the link is invalid', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByRole('heading', { name: 'Invalid reset link' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('This password reset link is invalid or has expired.');
  await expectToast(page, 'Invalid reset link');
  await page.getByRole('link', { name: 'Request new reset link' }).click();
  await expect(page).toHaveURL('/forgot-password');
  await page.getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL('/auth');
});
