import { MESSAGES } from '../src/shared/messages';
import { expect, test } from './helpers/web-fixtures';
import { type StartedServer, startBuiltServer } from './helpers/web-server';

// A production site that runs the local test provider on purpose (PAYMENTS=local) says so on pricing;
// the shared e2e server (not production) does not.
let server: StartedServer;

test.beforeAll(async () => {
  server = await startBuiltServer(Number(process.env.E2E_PORT ?? 4173) + 8, '.data-e2e-demo-payments', {
    NODE_ENV: 'production',
    PAYMENTS: 'local',
    MAIL: 'outbox',
    TOTP_ENCRYPTION_KEYS: Buffer.alloc(32, 7).toString('base64'),
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test('a production demo site on the test payment provider shows the demo banner on pricing', async ({
  page,
}) => {
  await page.goto(`${server.baseURL}/pricing`);
  await expect(page.getByRole('heading', { level: 1, name: 'Simple, transparent pricing' })).toBeVisible();
  await expect(page.getByRole('note')).toHaveText(MESSAGES.demoPaymentsBanner);
});

test('the pricing page shows no demo banner where payments are not a production demo', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { level: 1, name: 'Simple, transparent pricing' })).toBeVisible();
  await expect(page.locator('[data-state="ready"]')).toBeVisible();
  await expect(page.getByText('Demo site:')).toHaveCount(0);
});
