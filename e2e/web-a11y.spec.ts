import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { signInAsAdmin } from './helpers/web-admin';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

/** Fails on serious or critical axe violations, listing each rule and the elements it found. */
const checkA11y = async (page: Page, label: string) => {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
};

const ready = (page: Page) => expect(page.locator('[data-state="ready"]').first()).toBeVisible();

const OPEN_ROUTES = [
  '/',
  '/mixer',
  '/mastering',
  '/pricing',
  '/auth',
  '/forgot-password',
  '/reset-password',
  '/reset-password?token=abc',
  '/verify-email',
  '/verify-email?token=abc',
  '/admin',
  '/help',
  '/test-checkout',
  '/no-such-page',
];

for (const width of [1280, 375]) {
  test(`open routes have no serious accessibility violations at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const route of OPEN_ROUTES) {
      await page.goto(route);
      await ready(page);
      await checkA11y(page, `${route} @${width}`);
    }
  });
}

test('signed-in routes, menus and dialogs have no serious accessibility violations', async ({ page }) => {
  const { username } = await registerViaApi(page);
  for (const route of ['/', '/mixer', '/mastering', '/pricing', '/settings', '/checkout', '/help']) {
    await page.goto(route);
    await ready(page);
    await checkA11y(page, route);
  }
  await page.goto('/settings');
  await ready(page);
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await checkA11y(page, 'delete dialog');
  await page.keyboard.press('Escape');
  // The dialog hides the rest of the page (aria-hidden) until it has fully closed.
  await expect(page.getByRole('dialog')).toBeHidden();
  await page.getByRole('button', { name: `Account menu for ${username}` }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await checkA11y(page, 'account menu');
});

test('the admin dashboard has no serious accessibility violations', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/admin');
  await ready(page);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await checkA11y(page, '/admin');
});

test('every control is reachable by keyboard with a visible focus ring', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  const focused = page.locator(':focus-visible');
  await expect(focused).toHaveCount(1);
  const outline = await focused.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
});

test('bypass-only screens (buy crowns without an account) have no serious violations', async ({ page }) => {
  await page.goto('/?bypass=e2e-bypass-secret');
  await expect(page.getByRole('button', { name: 'Developer Mode (Click to exit)' })).toBeVisible();
  for (const route of ['/buy-crowns', '/settings', '/checkout']) {
    await page.goto(route);
    await ready(page);
    await checkA11y(page, `${route} (bypass)`);
  }
});
