import { MESSAGES } from '../src/shared/messages';
import { saveAdminState, signInAsAdminWithoutTwoFactor } from './helpers/web-admin';
import {
  ADMIN_EMAIL,
  expect,
  expectToast,
  fillLogin,
  PASSWORD,
  registerViaApi,
  test,
} from './helpers/web-fixtures';
import { totp } from './helpers/web-totp';

test('signed-out visitors see Access Denied and no stats are requested', async ({ page }) => {
  const statsCalls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/admin/stats')) statsCalls.push(req.url());
  });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  expect(statsCalls).toEqual([]);
});

test('a non-admin is sent home with "Admin Access Required"', async ({ page }) => {
  const statsCalls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/admin/stats')) statsCalls.push(req.url());
  });
  await registerViaApi(page);
  await page.goto('/admin');
  await expect(page).toHaveURL('/');
  await expectToast(page, 'Admin Access Required');
  expect(statsCalls).toEqual([]);
});

test('an admin without two-factor is asked to turn it on; stats are not requested', async ({ page }) => {
  const statsCalls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/admin/stats')) statsCalls.push(req.url());
  });
  await signInAsAdminWithoutTwoFactor(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Two-factor authentication required' })).toBeVisible();
  await expect(page.getByText(MESSAGES.twoFactorRequiredForAdmin)).toBeVisible();
  expect(statsCalls).toEqual([]);
});

test('the admin turns on two-factor in Settings, sees live numbers, and logs in with a code', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 401 .*\/api\/auth\/login$/);
  const member = await registerViaApi(page);
  await page.request.post('/api/auth/logout');
  await signInAsAdminWithoutTwoFactor(page);

  // Turn it on through the Settings screen, with the code an authenticator app would show.
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Go to Settings' }).click();
  await expect(page).toHaveURL('/settings');
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const setupForm = page.getByRole('form', { name: 'Confirm two-factor set-up' });
  await setupForm.getByLabel('Authentication code').fill(totp(secret));
  await setupForm.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
  await saveAdminState({ secret, recoveryCodes });
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(page.getByText('On', { exact: true })).toBeVisible();

  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  for (const label of ['Total Users', 'New Today', 'Subscribers', 'Trial Users', 'This Week', 'This Month']) {
    await expect(page.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByText('Conversion Rate')).toBeVisible();
  await expect(page.getByText('trial to paid')).toBeVisible();
  const stats = await (await page.request.get('/api/admin/stats')).json();
  const rate = stats.totalUsers === 0 ? 0 : Math.round((stats.subscribedUsers / stats.totalUsers) * 100);
  await expect(page.getByText(`${rate}%`)).toBeVisible();
  const recent = page.getByRole('heading', { name: 'Recent Registrations' }).locator('..');
  const row = recent.getByRole('listitem').filter({ hasText: member.email });
  await expect(row).toBeVisible();
  await expect(row.getByText('Free', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Back to App' }).click();
  await expect(page).toHaveURL('/');

  // Log out and back in: the second step asks for a code; a wrong one fails, a recovery code works.
  await page.getByRole('button', { name: 'Account menu for admin' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/auth');
  await fillLogin(page, ADMIN_EMAIL, PASSWORD);
  const step = page.getByRole('form', { name: 'Two-factor authentication' });
  await expect(step.getByLabel('Authentication code')).toBeVisible();
  await step.getByLabel('Authentication code').fill('000000');
  await step.getByRole('button', { name: 'Verify and log in' }).click();
  await expectToast(page, 'Login failed', MESSAGES.twoFactorInvalid);
  await step.getByRole('button', { name: 'Use a recovery code' }).click();
  const recovery = recoveryCodes.shift()!;
  await saveAdminState({ secret, recoveryCodes });
  await step.getByLabel('Recovery code').fill(recovery);
  await step.getByRole('button', { name: 'Verify and log in' }).click();
  await expectToast(page, 'Login successful', 'Welcome back, admin!');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
});
