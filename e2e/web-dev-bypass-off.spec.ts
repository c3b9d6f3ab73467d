import { BYPASS_SECRET, expect, test } from './helpers/web-fixtures';
import { type StartedServer, startBuiltServer } from './helpers/web-server';

// `npm start`'s default: developer mode off. Then the parameter, the flag, the badge and the button do nothing.
let server: StartedServer;

test.beforeAll(async () => {
  server = await startBuiltServer(Number(process.env.E2E_PORT ?? 4173) + 7, '.data-e2e-devmode-off', {
    DEV_MODE: 'false',
    DEV_BYPASS_SECRET: BYPASS_SECRET,
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test('with developer mode off the bypass parameter and flag do nothing', async ({ page }) => {
  expect((await (await page.request.get(`${server.baseURL}/api/config`)).json()).devMode).toBe(false);
  const bypassCalls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/dev/bypass')) bypassCalls.push(req.url());
  });

  await page.goto(`${server.baseURL}/pricing?bypass=${BYPASS_SECRET}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Simple, transparent pricing' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Developer Mode (Click to exit)' })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('authBypass'))).toBeNull();
  expect(bypassCalls).toEqual([]);

  // Even a flag planted in storage by hand opens nothing.
  await page.evaluate(() => localStorage.setItem('authBypass', 'true'));
  await page.goto(`${server.baseURL}/settings`);
  await expect(page).toHaveURL(`${server.baseURL}/auth`);
  await expect(page.getByRole('button', { name: 'Developer Mode (Click to exit)' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Developer Bypass (skip login)' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
});
