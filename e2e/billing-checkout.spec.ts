import type { Page } from '@playwright/test';
import { expect, expectToast, registerViaApi, test } from './helpers/web-fixtures';

/** The local test provider's hosted checkout (served by the app), reached from /checkout. */
const CARDS = {
  success: '4242 4242 4242 4242',
  decline: '4000 0000 0000 0002',
  threeDSecure: '4000 0027 6000 3184',
};

async function payOnHostedCheckout(page: Page, plan: 'pro' | 'unlimited', card: string) {
  await page.goto(`/checkout?plan=${plan}`);
  const name = plan === 'pro' ? 'Pro' : 'Unlimited';
  await page.getByRole('button', { name: `Subscribe to ${name}` }).click();
  await expect(page).toHaveURL(/\/billing\/checkout\/cs_local_/);
  await expect(page.getByRole('heading', { name: `Subscribe to ${name}` })).toBeVisible();
  const form = page.getByRole('form', { name: 'Card details' });
  await form.getByLabel('Card number').fill(card);
  await form.getByLabel('Expiry (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: /^Pay \$/ }).click();
}

const subscriptionCard = (page: Page) =>
  page.getByRole('heading', { name: 'Subscription Status' }).locator('..');
const row = (page: Page, label: string) =>
  subscriptionCard(page)
    .locator('div', { has: page.getByText(label, { exact: true }) })
    .last();

test('subscribing to Pro with the success card shows the plan, 10 + 10 credits and the saved card', async ({
  page,
}) => {
  await registerViaApi(page);
  await payOnHostedCheckout(page, 'pro', CARDS.success);
  await expect(page).toHaveURL('/settings?checkout=success');
  await expect(subscriptionCard(page)).toContainText('Pro Plan');
  await expect(row(page, 'Mix credits')).toContainText('10');
  await expect(row(page, 'Mastering credits')).toContainText('10');
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByText(/visa •••• 4242/i)).toBeVisible();
});

test('a declined card shows a clear error and the account stays on the trial', async ({
  page,
  consoleGuard,
}) => {
  // The hosted page answers a declined card with 402 (Payment Required), which Chromium logs.
  consoleGuard.allow(/status of 402 .*@ .*\/billing\/checkout\/cs_local_/);
  await registerViaApi(page);
  await payOnHostedCheckout(page, 'pro', CARDS.decline);
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  await expect(page).toHaveURL(/\/billing\/checkout\/cs_local_/);
  await page.goto('/settings');
  await expect(subscriptionCard(page)).toContainText('Free Trial');
  await expect(page.getByText('No payment methods on file.')).toBeVisible();
});

test('the 3-D Secure card asks for a confirmation before subscribing', async ({ page }) => {
  await registerViaApi(page);
  await payOnHostedCheckout(page, 'unlimited', CARDS.threeDSecure);
  await expect(page.getByRole('heading', { name: 'Confirm this payment' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page).toHaveURL('/settings?checkout=success');
  await expect(subscriptionCard(page)).toContainText('Unlimited Plan');
  await expect(row(page, 'Crowns')).toContainText('35');
  // Unlimited is shown with crowns only (spec 6): no rows of zero credits it never had.
  await expect(subscriptionCard(page).getByText('Mix credits', { exact: true })).toHaveCount(0);
  await expect(subscriptionCard(page).getByText('Mastering credits', { exact: true })).toHaveCount(0);
});

test('buying 25 crowns updates the balance, says so, and resets the quantity to 10', async ({ page }) => {
  await registerViaApi(page);
  await payOnHostedCheckout(page, 'pro', CARDS.success);
  await expect(page).toHaveURL('/settings?checkout=success');
  await page.goto('/buy-crowns');
  await expect(page.getByText('Pro Plan')).toBeVisible();
  await page.getByRole('button', { name: '25', exact: true }).click();
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/purchase-crowns'));
  await page.getByRole('button', { name: 'Purchase 25 Crowns for $25.00' }).click();
  // One idempotency key per purchase: a repeated request is answered, not charged again.
  expect((await sent).postDataJSON()).toEqual({ amount: 25, idempotencyKey: expect.any(String) });
  await expectToast(page, 'Crowns Purchased Successfully', "You've purchased 25 crowns for $25.00");
  await expect(page.getByText('Crown balance').locator('..')).toContainText('25');
  await expect(page.getByLabel('Number of crowns')).toHaveValue('10');
});

test('upgrading Pro to Unlimited grants 35 crowns at once and keeps the credits', async ({ page }) => {
  await registerViaApi(page);
  await payOnHostedCheckout(page, 'pro', CARDS.success);
  await expect(page).toHaveURL('/settings?checkout=success');
  await page.getByRole('button', { name: 'Change Subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Subscription' });
  await dialog.getByRole('radio', { name: /Upgrade to Unlimited/ }).check();
  await dialog.getByRole('button', { name: 'Upgrade to Unlimited' }).click();
  // Prorated (decision 250): $29.99 less the unused $9.99 of a Pro month that began a moment ago.
  await expectToast(page, 'Subscription updated', '$20.00 was charged');
  await expect(subscriptionCard(page)).toContainText('Unlimited Plan');
  await expect(row(page, 'Crowns')).toContainText('35');
  await expect(row(page, 'Mix credits')).toContainText('10');
});
