import { testWav } from './helpers/mastering-audio';
import { masterTrack, maxLevel, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { currentUser, signUp } from './helpers/mastering-users';
import { signInAsAdmin } from './helpers/web-admin';
import { expect, expectToast, test } from './helpers/web-fixtures';

test('loudness-matched A/B by key and button while the master plays', async ({ page }) => {
  await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, testWav('listen-ab', 'pop', 20));
  await waitForSource(page);
  await masterTrack(page);
  await page.getByRole('button', { name: 'Play mastered' }).click();
  const ab = page.getByTestId('ab-switch');
  await expect(ab).toHaveAttribute('aria-pressed', 'false');
  const master = await maxLevel(page, 1_500);
  await page.keyboard.press('b');
  await expect(ab).toHaveAttribute('aria-pressed', 'true');
  await expect(ab).toContainText('A: Original');
  const original = await maxLevel(page, 1_500);
  // Both sides sound (the master turned down to the original's loudness, nothing turned up).
  expect(master).toBeGreaterThan(5);
  expect(original).toBeGreaterThan(5);
  await ab.click();
  await expect(ab).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('button', { name: 'Stop' }).click();
});

test('live preview: in manual mode a slider move changes what plays within a fraction of a second', async ({
  page,
}) => {
  await signUp(page, 'unlimited');
  await openMastering(page);
  await upload(page, testWav('listen-live', 'club', 30));
  await waitForSource(page);
  await page.getByLabel('Mode').selectOption('manual');
  await page.getByLabel('Loudness', { exact: true }).fill('0');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.getByText('Live preview: you hear your manual settings')).toBeVisible();
  await expect.poll(() => maxLevel(page, 300)).toBeGreaterThan(5);
  const quiet = await maxLevel(page, 1_500);
  await page.getByLabel('Loudness', { exact: true }).fill('100');
  const started = Date.now();
  await expect.poll(() => maxLevel(page, 150), { intervals: [0] }).toBeGreaterThan(quiet + 10);
  const reactedMs = Date.now() - started;
  console.log(`live preview: peak ${quiet}% -> louder within ${reactedMs} ms`);
  expect(reactedMs).toBeLessThan(1_000);
  await page.getByRole('button', { name: 'Stop' }).click();
});

test('manual mode follows the server plan: a downgrade to Pro refuses the next manual master', async ({
  page,
  browser,
  baseURL,
}) => {
  await signUp(page, 'unlimited');
  await openMastering(page);
  await page.getByLabel('Mode').selectOption('manual');
  await upload(page, testWav('listen-plan', 'pop', 5));
  await waitForSource(page);

  // The plan changes on the server: downgrade (next cycle), then the admin starts the next cycle.
  const changed = await page.request.post('/api/auth/change-subscription', {
    data: { type: 'downgrade', plan: 'pro' },
  });
  expect(changed.ok(), await changed.text()).toBe(true);
  const admin = await browser.newContext({ baseURL });
  const adminPage = await admin.newPage();
  await signInAsAdmin(adminPage);
  const { id } = await currentUser(page.request);
  const cycle = await adminPage.request.post('/api/admin/billing/advance-cycle', { data: { userId: id } });
  expect(cycle.ok(), await cycle.text()).toBe(true);
  await admin.close();
  expect((await currentUser(page.request)).subscriptionType).toBe('pro');

  await page.getByTestId('master-track').click();
  await expectToast(page, 'Unlimited Subscription Required');
  await expect(page.getByLabel('Mode')).toHaveValue('automatic');
  await expect(page.getByRole('option', { name: 'Manual (Unlimited Only)' })).toBeDisabled();
});

test('developer mode (?dev=true, server allows it): local credits, no server spend', async ({ page }) => {
  const before = await signUp(page, 'pro');
  await openMastering(page, '?dev=true');
  const status = page.getByTestId('credit-status');
  await expect(status).toContainText('0 Mix credits');
  await expect(status).toContainText('0 Mastering credits');
  await expect(status).toContainText('35 Crowns');
  await upload(page, testWav('dev-source', 'acoustic', 5));
  await waitForSource(page);
  await masterTrack(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Download (1 format(s))' }).click();
  expect((await download).suggestedFilename()).toMatch(/^mastered-balanced-\d+\.wav$/);
  await expectToast(page, 'Download Started');
  await expect(status).toContainText('34 Crowns');
  expect((await currentUser(page.request)).masteringCredits).toBe(before.masteringCredits);
});
