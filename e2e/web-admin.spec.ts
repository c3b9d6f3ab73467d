import { expect, expectToast, registerViaApi, signInAsAdmin, test } from './helpers/web-fixtures';

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

test('the admin sees the dashboard with live numbers', async ({ page }) => {
  const member = await registerViaApi(page);
  await page.request.post('/api/auth/logout');
  await signInAsAdmin(page);
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
});
