import { expect, test } from './helpers/web-fixtures';

const NAV = [
  { name: 'Home', path: '/', heading: 'Master Your Mix' },
  { name: 'Mixer', path: '/mixer', heading: 'Mixer' },
  { name: 'Mastering', path: '/mastering', heading: 'Mastering' },
  { name: 'Pricing', path: '/pricing', heading: 'Simple, transparent pricing' },
  { name: 'Help', path: '/help', heading: 'Help and Support' },
];

test('the header navigates to every section and highlights the current route', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const item of NAV) {
    await nav.getByRole('link', { name: item.name, exact: true }).click();
    await expect(page).toHaveURL(item.path);
    // Mixer and mastering headings sit in inert (dimmed) content for visitors, so match the element itself.
    await expect(page.locator('h1')).toHaveText(item.heading);
    await expect(nav.getByRole('link', { name: item.name, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    for (const other of NAV.filter((o) => o !== item)) {
      await expect(nav.getByRole('link', { name: other.name, exact: true })).not.toHaveAttribute(
        'aria-current',
      );
    }
  }
  await expect(page.getByRole('link', { name: 'Log In' }).first()).toHaveAttribute('href', '/auth');
});

test('the landing page shows the headline, tagline, six features and its four buttons', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Your Mix');
  await expect(
    page.getByText(
      'Professional audio mixing and mastering tools that transform your tracks into radio-ready hits',
    ),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(6);
  const buttons = [
    ['Start Mixing Now', '/mixer'],
    ['Try Mastering', '/mastering'],
    ['Start Your Mix Now', '/mixer'],
    ['View Pricing', '/pricing'],
  ] as const;
  for (const [name, href] of buttons) {
    await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await page.getByRole('link', { name: 'View Pricing' }).click();
  await expect(page).toHaveURL('/pricing');
  await expect(page.getByText('© 2025')).toBeVisible();
  await expect(page.getByText('Professional Audio Mixing and Mastering Platform')).toBeVisible();
});

test('unknown paths show the not-found screen inside the shell', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('mixer and mastering are dimmed for visitors with a prompt to log in', async ({ page }) => {
  await page.goto('/mixer');
  await expect(page.getByRole('link', { name: 'Log in to try our mixer for free' })).toHaveAttribute(
    'href',
    '/auth',
  );
  // The page's own wrapper is inert (the mix-style card inside is inert by itself until tracks load).
  await expect(page.getByTestId('mixer')).toHaveAttribute('inert', '');
  await expect(page.locator('[inert]:has(h1)')).toHaveCount(1);
  await page.goto('/mastering');
  await expect(page.getByRole('link', { name: 'Log in to try our mastering for free' })).toBeVisible();
  await expect(page.getByText('Experience professional audio mastering with our demo tracks')).toBeVisible();
  await expect(page.getByTestId('mastering')).toHaveAttribute('inert', '');
  await expect(page.locator('[inert]')).toHaveCount(1);
});

test('test checkout lists the test user and the three test cards', async ({ page }) => {
  await page.goto('/test-checkout');
  await expect(page.getByText('test_user@example.test')).toBeVisible();
  await expect(page.getByTestId('test-password')).toHaveText(/^[A-Za-z0-9]{12}$/);
  for (const card of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0027 6000 3184']) {
    await expect(page.getByText(card)).toBeVisible();
  }
  for (const href of ['/auth', '/pricing', '/']) {
    await expect(page.getByRole('main').locator(`a[href="${href}"]`)).toHaveCount(1);
  }
});

test('the landing route loads no mixer, mastering or audio code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(req.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((u) => /mixer|mastering|audio|worker|worklet/i.test(u))).toEqual([]);
});
