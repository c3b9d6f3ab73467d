import { manualTargetLufs } from '../src/shared/mastering';
import { testWav } from './helpers/mastering-audio';
import { masterTrack, number, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { expect, test } from './helpers/web-fixtures';

const SOURCE = () => testWav('access-source', 'club', 16);

test('signed out: greyed out, not clickable, with the banner and demo tracks mastered in the browser', async ({
  page,
}) => {
  await openMastering(page);
  await expect(page.getByText('Log in to try our mastering for free')).toBeVisible();
  await expect(page.getByText('Experience professional audio mastering with our demo tracks')).toBeVisible();
  const screen = page.getByTestId('mastering');
  await expect(screen).toHaveAttribute('inert', '');
  await expect(screen).toHaveClass(/grayscale/);
  await expect(page.getByLabel('Preset')).not.toBeFocused();
  await page
    .getByLabel('Preset')
    .focus()
    .catch(() => undefined);
  await expect(page.getByLabel('Preset')).not.toBeFocused();

  const demos = page.getByTestId('demo-tracks');
  await demos.getByRole('button', { name: 'Play mastered' }).first().click();
  // Mastered here by the engine, then played: the button turns into Stop.
  await expect(demos.getByRole('button', { name: 'Stop' })).toBeVisible({ timeout: 60_000 });
  await demos.getByRole('button', { name: 'Stop' }).click();
  await expect(demos.getByRole('button', { name: 'Stop' })).toHaveCount(0);
});

test('trial user: preview mode, manual refused, Upgrade Required, mastered playback muted 1 s in every 5', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, 'trial');
  await openMastering(page);
  await expect(page.getByText('Preview Mode', { exact: true })).toBeVisible();
  await expect(page.getByTestId('credit-status')).toContainText('Trial - No downloads');
  await expect(page.getByRole('option', { name: 'Manual (Unlimited Only)' })).toBeDisabled();
  await expect(page.getByText('Manual mastering controls require Unlimited subscription')).toBeVisible();

  await upload(page, SOURCE());
  await waitForSource(page);
  await masterTrack(page);
  await expect(page.getByRole('button', { name: 'Upgrade Required' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Download', exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: 'Play mastered' }).click();
  const muted = page.getByTestId('muted-indicator');
  const meter = page.getByTestId('level-meter');
  // Seconds 4-5 of every 5 are silent: the indicator shows, and the meter (after the mute) reads nothing.
  await expect(muted).toBeVisible({ timeout: 7_000 });
  await expect.poll(async () => Number(await meter.getAttribute('data-level')), { timeout: 1_000 }).toBe(0);
  await expect(muted).toBeHidden({ timeout: 2_000 });
  await expect.poll(async () => Number(await meter.getAttribute('data-level'))).toBeGreaterThan(5);
  await expect(muted).toBeVisible({ timeout: 5_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
});

test('Pro: manual mode disabled with the hint; the sliders are locked and name the plan', async ({
  page,
}) => {
  await signUp(page, 'pro');
  await openMastering(page);
  await expect(page.getByRole('option', { name: 'Manual (Unlimited Only)' })).toBeDisabled();
  await expect(page.getByText('Manual mastering controls require Unlimited subscription')).toBeVisible();
  await expect(page.getByTestId('credit-status')).toContainText('10 Mastering credits');
  // Issue 30: disabled, with the plan that has them named, instead of an error toast on a move.
  await expect(page.getByLabel('Compression')).toBeDisabled();
  await expect(page.getByTestId('manual-sliders').getByTestId('plan-lock').first()).toHaveText(
    /Unlimited plan/,
  );
  await expect(page.getByLabel('Compression')).toHaveValue('45');
  await expect(page.getByLabel('Mode')).toHaveValue('automatic');
});

test('Unlimited: manual mode masters to the Loudness slider; a preset change resets the mode', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, 'unlimited');
  await openMastering(page);
  await expect(page.getByTestId('credit-status')).toContainText('35 Crowns');
  await expect(page.getByTestId('credit-status')).not.toContainText('Mix credits');

  await page.getByLabel('Mode').selectOption('manual');
  // Spec 3's default custom settings.
  for (const [label, value] of [
    ['Compression', '40'],
    ['Brightness', '55'],
    ['Warmth', '45'],
    ['Stereo Width', '55'],
    ['Loudness', '60'],
  ]) {
    await expect(page.getByLabel(label as string, { exact: true })).toHaveValue(value as string);
  }
  await page.getByLabel('Preset').selectOption('loud');
  await expect(page.getByLabel('Mode')).toHaveValue('automatic');
  // Automatic mode shows the preset's own values (spec 3: Loud is 75, 70, 30, 65, 85).
  await expect(page.getByLabel('Compression')).toHaveValue('75');

  await page.getByLabel('Mode').selectOption('manual');
  await page.getByLabel('Loudness', { exact: true }).fill('50');
  await upload(page, SOURCE());
  await waitForSource(page);
  const { statuses } = await masterTrack(page);
  expect(statuses.at(-1)).toBe('Manual mastering complete!');
  const lufs = await number(page, 'master-lufs');
  expect(Math.abs(lufs - manualTargetLufs(50))).toBeLessThanOrEqual(1);
  expect(await number(page, 'master-true-peak')).toBeLessThanOrEqual(-1);
});
