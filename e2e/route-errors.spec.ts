import type { Page } from '@playwright/test';
import { expect, test } from './helpers/web-fixtures';

/**
 * The route error boundary in the built app. A deploy removes the old build's chunks, so a tab opened before
 * it gets a 404 for the screen it lazy-loads next; page.route plays that 404 (and a screen that throws while
 * rendering) against the real server's other files.
 */
const PRICING_CHUNK = /\/assets\/pricing-page-[\w-]+\.js$/;
const PRICING_HEADING = 'Simple, transparent pricing';

/** Counts full page loads (the first one and every reload). */
const countPageLoads = (page: Page) => {
  const loads = { count: 0 };
  page.on('request', (req) => {
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) loads.count++;
  });
  return loads;
};

test('a screen whose chunk is gone reloads once to the same URL and then opens', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 404 .*@ .*\/assets\/pricing-page-/);
  let missing = 1;
  await page.route(PRICING_CHUNK, (route) =>
    missing-- > 0 ? route.fulfill({ status: 404, body: 'gone' }) : route.continue(),
  );
  const loads = countPageLoads(page);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page.locator('h1')).toHaveText(PRICING_HEADING);
  await expect(page).toHaveURL('/pricing');
  expect(loads.count).toBe(2);
});

test('a chunk still missing after the reload shows the friendly page, with no reload loop', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 404 .*@ .*\/assets\/pricing-page-/);
  await page.route(PRICING_CHUNK, (route) => route.fulfill({ status: 404, body: 'gone' }));
  const loads = countPageLoads(page);
  const kinds: string[] = [];
  page.on('request', (req) => {
    if (req.url().endsWith('/api/client-errors')) kinds.push(req.postDataJSON().kind);
  });
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page.getByRole('heading', { name: 'This screen could not be loaded' })).toBeVisible();
  await expect.poll(() => kinds).toContain('chunk-load');
  await expect(page).toHaveURL('/pricing');
  await page.waitForLoadState('networkidle');
  expect(loads.count).toBe(2);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  await page.unroute(PRICING_CHUNK);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('h1')).toHaveText(PRICING_HEADING);
});

test('any other render error shows the friendly page with a retry inside the shell', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/render failed on purpose/);
  await page.route(PRICING_CHUNK, (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: "export function PricingPage() { throw new Error('render failed on purpose'); }",
    }),
  );
  const loads = countPageLoads(page);
  const reported = page.waitForRequest('**/api/client-errors');
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  // Reported to the server without credentials: the kind, the error's text and the path, nothing more.
  const report = await reported;
  expect(report.postDataJSON()).toMatchObject({
    kind: 'render-error',
    message: 'Error: render failed on purpose',
    route: '/pricing',
  });
  expect(await report.headerValue('x-auth-token')).toBeNull();
  expect((await report.response())?.status()).toBe(204);
  await expect(page.getByRole('alert')).toContainText('This screen stopped because of an unexpected error.');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page).toHaveTitle('Something went wrong · Master Your Mix');
  expect(loads.count).toBe(1);

  await page.unroute(PRICING_CHUNK);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('h1')).toHaveText(PRICING_HEADING);
});
