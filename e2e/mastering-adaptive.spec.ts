import { testWav } from './helpers/mastering-audio';
import { masterTrack, number, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { expect, test } from './helpers/web-fixtures';

/**
 * Issue 16: the mastering page shows what the engine's analysis found (crest, PLR, LRA, mono check,
 * width, loudest 30 s) and, once mastered, the adaptive chain's EQ moves. Screenshots at 1280 and 375 px
 * go to test-results/ to be looked at.
 */
for (const width of [1280, 375]) {
  test(`the analysis summary and the EQ moves at ${width} px`, async ({ page }, info) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    await signUp(page, 'unlimited');
    await openMastering(page);
    await upload(page, testWav(`adaptive-${width}`, 'pop', 20));
    await waitForSource(page);
    // On a phone the analysis panels are folded under the controls (decision 242): open this one.
    if (width < 1024) await page.getByTestId('fold-analysis').locator('summary').click();
    const summary = page.getByTestId('analysis-summary');
    await expect(summary).toHaveAttribute('data-state', 'ready');
    // The figures are under the panel's sentence, one click away (decision 253).
    await summary.getByRole('button', { name: 'Show the numbers' }).click();
    await expect(summary.getByTestId('analysis-lra')).toHaveText(/^\d+\.\d LU$/);
    await expect(summary.getByTestId('analysis-low-end')).toHaveText(/^-?\d\.\d\d · /);
    await expect(summary.getByTestId('analysis-loudest')).toHaveText(/^from \d+:\d\d$/);
    await expect(page.getByLabel('Tone match')).toHaveValue('70');
    await masterTrack(page);
    const eq = summary.getByTestId('analysis-eq');
    await expect(eq).toContainText('Tone match 70 % toward the target curve');
    await expect(eq.getByRole('listitem')).toHaveCount(9);
    await summary.scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath(`analysis-${width}.png`), fullPage: true });
    await summary.screenshot({ path: info.outputPath(`analysis-card-${width}.png`) });
  });
}

test('reference mastering (manual, Unlimited): the master takes the reference loudness', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, 'unlimited');
  await openMastering(page);
  await upload(page, testWav('adaptive-source', 'pop', 20));
  await waitForSource(page);
  await page.getByLabel('Mode').selectOption('manual');
  await page.getByLabel('Reference track').setInputFiles(testWav('adaptive-reference', 'club', 20));
  const reference = page.getByTestId('reference');
  await expect(reference).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  const lufs = Number(
    (await reference.getByTestId('reference-lufs').textContent())?.match(/(-?\d+\.\d) LUFS/)?.[1],
  );
  expect(Number.isFinite(lufs)).toBe(true);
  await expect(page.getByTestId('target-lufs')).toContainText(`Master to ${lufs.toFixed(1)} LUFS`);
  await masterTrack(page);
  expect(Math.abs((await number(page, 'master-lufs')) - lufs)).toBeLessThanOrEqual(0.5);
  await expect(page.getByTestId('analysis-eq')).toContainText('toward the reference');
  await reference.getByRole('button', { name: 'Remove' }).click();
  await expect(reference).toHaveAttribute('data-state', 'none');
});
