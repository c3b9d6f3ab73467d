/**
 * Issue 30, items 2-4: a subscriber's plan change from Pricing and Checkout goes through the plan-change
 * dialog with the prorated amount due shown before confirming (decision 250; no 'Checkout Failed' dead end); a trial user's
 * finished master offers a way to the plans next to 'Upgrade Required'; controls a plan does not include
 * are disabled and name the plan. At 1280 px and on a 375 px touch screen.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { testWav } from './helpers/mastering-audio';
import { masterTrack, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { currentUser, signUp } from './helpers/mastering-users';
import { press, proMonthDays, spend, WIDTHS } from './helpers/plans';
import { expect, expectToast, test, toastWith } from './helpers/web-fixtures';

const ready = (page: import('@playwright/test').Page) =>
  expect(page.locator('[data-state="ready"]').first()).toBeVisible();

for (const width of WIDTHS) {
  const tag = width.name.replace(' ', '-');
  test.describe(`plans at ${width.name}`, () => {
    test.use(width.use);

    test('Pro → Unlimited from Pricing with the prorated amount: shown before confirming, charged and in the billing history', async ({
      page,
    }, testInfo) => {
      await signUp(page, 'pro');
      await spend(page, 'mix');
      await page.goto('/pricing');
      await ready(page);
      // The plan's price stays the plan's price on Pricing.
      await expect(page.getByText('$29.99').first()).toBeVisible();
      await expect(page.getByRole('button', { name: 'Pro: your current plan' })).toBeDisabled();
      const previewAsked = page.waitForResponse((r) => r.url().includes('/api/billing/plan-change-preview'));
      await press(page, page.getByRole('button', { name: 'Upgrade to Unlimited' }));

      const dialog = page.getByRole('dialog', { name: 'Change Subscription' });
      await expect(dialog.getByRole('radio', { name: /Upgrade to Unlimited/ })).toBeChecked();
      const preview = (await (await previewAsked).json()) as {
        amountDueCents: number;
        creditCents: number;
        unusedDays: number;
      };
      const summary = dialog.getByTestId('plan-change-summary');
      await expect(summary).toHaveAttribute('data-state', 'ready');
      // Decision 250: on the Pro month's first day its whole $9.99 is unused and credited.
      // The month is a calendar month from today (30 days on Nov 28, 31 on Dec 7).
      expect(preview).toMatchObject({ amountDueCents: 2000, creditCents: 999, unusedDays: proMonthDays() });
      const row = (label: string) => summary.locator('div', { has: page.getByText(label, { exact: true }) });
      await expect(row('Due today')).toContainText('$20.00');
      await expect(row('Unused Pro days')).toContainText(
        `$9.99 credit for ${proMonthDays()} unused Pro days`,
      );
      await expect(row('Unlimited period')).toContainText(/\w{3} \d{1,2}, \d{4} to \w{3} \d{1,2}, \d{4}/);
      await expect(row('Then')).toContainText('$29.99 a month');
      await expect(row('Crowns added now')).toContainText('35');
      await expect(row('Credits kept')).toContainText('9 mix and 10 mastering credits, spent before crowns');
      const shots = testInfo.outputPath('screenshots');
      mkdirSync(shots, { recursive: true });
      await dialog.screenshot({ path: join(shots, `plan-change-${tag}.png`) });
      // On a phone the dialog scrolls: the summary's end and the buttons, as the thumb reaches them.
      await dialog.getByRole('button', { name: 'Keep current plan' }).scrollIntoViewIfNeeded();
      await dialog.screenshot({ path: join(shots, `plan-change-${tag}-scrolled.png`) });

      // The confirm carries the figure on screen; the server charges its own, which is the same.
      const sent = page.waitForRequest((r) => r.url().endsWith('/api/auth/change-subscription'));
      await press(page, dialog.getByRole('button', { name: 'Upgrade to Unlimited' }));
      expect((await sent).postDataJSON()).toEqual({
        type: 'upgrade',
        plan: 'unlimited',
        expectedAmountCents: 2000,
      });
      await expectToast(page, 'Subscription updated', '$20.00 was charged');
      await expect(toastWith(page, 'Checkout Failed')).toHaveCount(0);
      expect(await currentUser(page.request)).toMatchObject({
        subscriptionType: 'unlimited',
        mixCredits: 9,
        masteringCredits: 10,
        crowns: 35,
      });
      await expect(page.getByRole('button', { name: 'Unlimited: your current plan' })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Downgrade to Pro' })).toBeEnabled();

      // The billing history in Settings shows exactly that amount for the upgrade.
      await page.goto('/settings');
      const history = page.getByTestId('billing-history');
      await expect(history).toHaveAttribute('data-state', 'ready');
      const items = history.getByRole('listitem');
      await expect(items).toHaveCount(2);
      await expect(items.nth(0)).toContainText('Upgrade to Unlimited (prorated)');
      await expect(items.nth(0)).toContainText('$20.00');
      await expect(items.nth(1)).toContainText('Subscription');
      await expect(items.nth(1)).toContainText('$9.99');
      await history.scrollIntoViewIfNeeded();
      await history.locator('..').screenshot({ path: join(shots, `billing-history-${tag}.png`) });
    });

    test('a figure that moved before the confirm is refused, nothing charged, and the new one is shown to confirm', async ({
      page,
      consoleGuard,
    }) => {
      // The refused confirm is a 409 the browser reports; it is the point of this test.
      consoleGuard.allow(/status of 409 .*@ .*\/api\/auth\/change-subscription$/);
      await signUp(page, 'pro');
      // The first preview the page gets is an older one (as if the dialog had been left open for days).
      let served = 0;
      await page.route('**/api/billing/plan-change-preview*', async (route) => {
        const res = await route.fetch();
        const body = await res.json();
        served++;
        await route.fulfill({ response: res, json: served === 1 ? { ...body, amountDueCents: 1900 } : body });
      });
      await page.goto('/pricing');
      await ready(page);
      await press(page, page.getByRole('button', { name: 'Upgrade to Unlimited' }));
      const dialog = page.getByRole('dialog', { name: 'Change Subscription' });
      const summary = dialog.getByTestId('plan-change-summary');
      await expect(summary).toContainText('Due today$19.00');
      await press(page, dialog.getByRole('button', { name: 'Upgrade to Unlimited' }));
      await expectToast(page, 'Error', 'The amount due today is now $20.00');
      expect(await currentUser(page.request)).toMatchObject({ subscriptionType: 'pro', crowns: 0 });
      // The dialog stays open with the server's figure; confirming that one upgrades.
      await expect(summary).toContainText('Due today$20.00');
      await press(page, dialog.getByRole('button', { name: 'Upgrade to Unlimited' }));
      await expectToast(page, 'Subscription updated', '$20.00 was charged');
      const history = await page.request.get('/api/billing/payments');
      expect(((await history.json()) as { payments: Array<{ amountCents: number }> }).payments).toMatchObject(
        [
          { kind: 'subscription_update', amountCents: 2000 },
          { kind: 'subscription_create', amountCents: 999 },
        ],
      );
    });

    test('Checkout for a subscriber: the prorated change summary and the same dialog, never a checkout', async ({
      page,
    }) => {
      await signUp(page, 'pro');
      await page.goto('/checkout?plan=unlimited');
      await ready(page);
      const summary = page.getByTestId('checkout-change-summary');
      await expect(summary).toContainText('Due today$20.00');
      await expect(summary).toContainText(`$9.99 credit for ${proMonthDays()} unused Pro days`);
      await expect(page.getByRole('button', { name: 'Subscribe to Unlimited' })).toHaveCount(0);
      await press(page, page.getByRole('button', { name: 'Upgrade to Unlimited' }));
      const dialog = page.getByRole('dialog', { name: 'Change Subscription' });
      await expect(dialog.getByTestId('plan-change-summary')).toContainText('Due today$20.00');
      // Keeping the plan changes nothing.
      await press(page, dialog.getByRole('button', { name: 'Keep current plan' }));
      await expect(dialog).toBeHidden();
      expect((await currentUser(page.request)).subscriptionType).toBe('pro');
      // The plan already held cannot be bought again.
      await press(page, page.locator('label', { has: page.getByRole('radio', { name: /Pro plan/ }) }));
      await expect(page.getByRole('button', { name: 'Pro: your current plan' })).toBeDisabled();
    });

    test('a trial master: the disabled "Upgrade Required" has a link to the plans; the sliders are locked', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await signUp(page, 'trial');
      await openMastering(page);
      // Locked, with the plan named: disabled, not an error on a move.
      const sliders = page.getByTestId('manual-sliders');
      await expect(page.getByLabel('Compression')).toBeDisabled();
      await expect(sliders.getByTestId('plan-lock')).toHaveCount(6);
      await expect(sliders.getByTestId('plan-lock').first()).toHaveText('🔒 Unlimited plan');
      await expect(page.getByRole('link', { name: 'See the Unlimited plan' })).toHaveAttribute(
        'href',
        '/pricing',
      );

      await upload(page, testWav(`trial-${tag}`, 'acoustic', 5));
      await waitForSource(page);
      await masterTrack(page);
      const card = page.getByTestId('mastered-card');
      await expect(card.getByRole('button', { name: 'Upgrade Required' })).toBeDisabled();
      await expect(toastWith(page, 'Mastering Complete')).toBeHidden({ timeout: 15_000 });
      await press(page, card.getByRole('link', { name: 'See plans to download' }));
      await expect(page).toHaveURL(/\/pricing$/);
      await expect(page.getByRole('button', { name: 'Subscribe to Unlimited' })).toBeVisible();
    });

    test('Pro on the mastering page: sliders disabled and naming Unlimited, no toast; A/B says what plays', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await signUp(page, 'pro');
      await openMastering(page);
      const slider = page.getByLabel('Compression');
      await expect(slider).toBeDisabled();
      await expect(page.getByTestId('manual-sliders').getByTestId('plan-lock').first()).toContainText(
        'Unlimited',
      );
      await slider.click({ force: true });
      await expect(toastWith(page, 'Unlimited Subscription Required')).toHaveCount(0);
      await expect(slider).toHaveValue('45');

      await upload(page, testWav(`ab-${tag}`, 'pop', 5));
      await waitForSource(page);
      await masterTrack(page);
      const ab = page.getByTestId('ab-switch');
      await expect(ab).toHaveText('Listening to B: Master');
      await press(page, ab);
      await expect(ab).toHaveText('Listening to A: Original');
      await expect(ab).toHaveAttribute('aria-pressed', 'true');
    });
  });
}
