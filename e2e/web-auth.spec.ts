import {
  expect,
  expectToast,
  fillLogin,
  PASSWORD,
  registerViaApi,
  test,
  toastWith,
  uniqueEmail,
} from './helpers/web-fixtures';

const registerForm = (page: import('@playwright/test').Page) => page.getByRole('form', { name: 'Register' });

test('register, see the account in the header, log out, log back in', async ({ page }) => {
  const email = uniqueEmail('reg');
  const username = email.split('@')[0]!;
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  const form = registerForm(page);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await form.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Create Account' }).click();

  await expectToast(page, 'Registration successful', username);
  await expect(page).toHaveURL('/');
  const menuButton = page.getByRole('button', { name: `Account menu for ${username}` });
  await expect(menuButton).toContainText(username.slice(0, 2).toUpperCase());
  await expect(menuButton).toContainText(email);
  await expect(page.getByRole('link', { name: 'Log In' })).toHaveCount(0);

  // Signed-in users are sent away from /auth.
  await page.goto('/auth');
  await expect(page).toHaveURL('/');

  await page.getByRole('button', { name: `Account menu for ${username}` }).click();
  const menu = page.getByRole('menu');
  for (const item of ['My Mixer', 'Mastering', 'Settings', 'Log out']) {
    await expect(menu.getByRole('menuitem', { name: item })).toBeVisible();
  }
  await menu.getByRole('menuitem', { name: 'Log out' }).click();
  await expectToast(page, 'Logged out', 'You have been logged out successfully.');
  await expect(page).toHaveURL('/auth');
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();

  await fillLogin(page, email, PASSWORD);
  await expectToast(page, 'Login successful', `Welcome back, ${username}!`);
  await expect(page).toHaveURL('/');

  // The session survives a reload: the user is fetched from GET /api/auth/user.
  await page.reload();
  await expect(page.getByRole('button', { name: `Account menu for ${username}` })).toBeVisible();
});

test('the account menu links go to the mixer, mastering and settings', async ({ page }) => {
  const { username } = await registerViaApi(page);
  await page.goto('/');
  for (const [item, path] of [
    ['My Mixer', '/mixer'],
    ['Mastering', '/mastering'],
    ['Settings', '/settings'],
  ] as const) {
    await page.getByRole('button', { name: `Account menu for ${username}` }).click();
    await page.getByRole('menuitem', { name: item }).click();
    await expect(page).toHaveURL(path);
  }
  // Signed in: no log-in banner, the page itself not inert (only the mix-style card waits for tracks).
  await page.goto('/mixer');
  await expect(page.locator('[data-state="ready"]').first()).toBeVisible();
  await expect(page.locator('h1')).toHaveText('Mixer');
  await expect(page.getByTestId('mixer')).not.toHaveAttribute('inert');
  await expect(page.locator('[inert]:has(h1)')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Log in to try our mixer for free' })).toHaveCount(0);
});

test('login validation and failures (spec 5 and 8)', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 401 .*\/api\/auth\/login$/);
  await page.goto('/auth');
  await page.getByRole('form', { name: 'Log in' }).getByRole('button', { name: 'Log In' }).click();
  await expectToast(page, 'Missing information', 'Please enter both email and password');

  await page.getByRole('form', { name: 'Log in' }).getByLabel('Email').fill('someone@example.test');
  await page.getByRole('form', { name: 'Log in' }).getByRole('button', { name: 'Log In' }).click();
  await expectToast(page, 'Missing information', 'Please enter both email and password');

  await fillLogin(page, uniqueEmail('nobody'), 'wrong-password');
  const failed = await expectToast(page, 'Login failed', 'Invalid email or password');
  await expect(failed).toHaveAttribute('data-variant', 'destructive');
  // One toast at a time (spec 9).
  await expect(page.locator('li[data-variant][data-state="open"]')).toHaveCount(1);
  await expect(page).toHaveURL('/auth');
});

test('register validation (spec 5) and a taken email', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 409 .*\/api\/auth\/register$/);
  const existing = await registerViaApi(page);
  await page.request.post('/api/auth/logout');
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  const form = registerForm(page);
  const submit = form.getByRole('button', { name: 'Create Account' });

  await submit.click();
  await expectToast(page, 'Missing information', 'Please fill out all fields');

  await form.getByLabel('Email').fill(uniqueEmail('mismatch'));
  await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await form.getByLabel('Confirm Password', { exact: true }).fill(`${PASSWORD}x`);
  await submit.click();
  await expectToast(page, "Passwords don't match", 'Please ensure both passwords match');

  await form.getByLabel('Password', { exact: true }).fill('abc');
  await form.getByLabel('Confirm Password', { exact: true }).fill('abc');
  await submit.click();
  await expectToast(page, 'Registration failed', 'Password must be at least 6 characters long');

  await form.getByLabel('Email').fill(existing.email);
  await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await form.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
  await submit.click();
  await expectToast(page, 'Registration failed', 'An account with this email already exists');
});

test('toasts: F8 focuses the toast area, which is at most 420 px wide on medium screens', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto('/auth');
  await page.getByRole('form', { name: 'Log in' }).getByRole('button', { name: 'Log In' }).click();
  const toast = await expectToast(page, 'Missing information');
  await page.keyboard.press('F8');
  const viewport = page.locator('ol:has(li[data-variant])');
  await expect(viewport).toBeFocused();
  const box = await viewport.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(420);
  // Dismissed with its close button; gone from view.
  await toast.getByRole('button', { name: 'Close' }).click();
  await expect(toastWith(page, 'Missing information')).toBeHidden();
});
