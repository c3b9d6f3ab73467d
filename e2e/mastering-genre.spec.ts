import { ebur128, testWav } from './helpers/mastering-audio';
import { masterTrack, openFold, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { expect, expectToast, test } from './helpers/web-fixtures';

/**
 * Issue 28: the genre field (suggested from the analysis with its reason, or chosen), the genre target in
 * "Why it sounds like this" with the track, the range and the move per octave, and the download's MP3 at
 * the WAV's loudness (ffmpeg's ebur128 on the downloaded files). Screenshots at 1280 and 375 px go to
 * screenshots/ to be looked at.
 */
for (const width of [1280, 375]) {
  test(`choose a genre, master, and see its target in the why panel at ${width} px`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: width > 400 ? 900 : 800 });
    await signUp(page, 'pro');
    await openMastering(page);
    await upload(page, testWav(`genre-${width}`, 'pop', 20));
    await waitForSource(page);
    const panel = page.getByTestId('genre-panel');
    await expect(panel).toHaveAttribute('data-source', 'suggested');
    await expect(panel.getByTestId('genre-reason')).toContainText(/^Sounds like: .+, because bass [+−]\d/);
    await page.getByLabel('Genre').selectOption('rock');
    await expect(panel).toHaveAttribute('data-source', 'chosen');
    await expect(panel).toHaveAttribute('data-genre', 'rock');
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `screenshots/mastering-genre-field-${width}.png` });
    await masterTrack(page);
    // At 375 px "Why it sounds like this" is folded under its title (decision 242): open it as a user would.
    await openFold(page, 'why');
    // The genre target is among the numbers under the panel's sentence, one click away (decision 253).
    await page.getByTestId('why-panel').getByRole('button', { name: 'Show the numbers' }).click();
    const why = page.getByTestId('why-genre');
    await expect(why).toHaveAttribute('data-genre', 'rock');
    await expect(why.getByTestId('why-genre-target')).toContainText('Target: Rock (chosen for this track)');
    await expect(why.getByTestId('why-genre-decision')).toContainText(/Rock range/);
    if (width > 640) {
      // One column per octave, a row each for the track, the range and the move.
      await expect(why.getByTestId('why-genre-table')).toBeVisible();
      await expect(why.getByTestId('why-genre-bands')).toBeHidden();
      for (const row of ['why-genre-track', 'why-genre-range', 'why-genre-move'])
        await expect(why.getByTestId(row).locator('td')).toHaveCount(9);
      await expect(why.getByTestId('why-genre-range').locator('td').first()).toHaveText(/^±\d\.\d$/);
    } else {
      // On a phone one row per octave (the nine side by side ran their numbers together at 375 px).
      await expect(why.getByTestId('why-genre-table')).toBeHidden();
      const bands = why.getByTestId('why-genre-band');
      await expect(bands).toHaveCount(9);
      await expect(bands.first().locator('td')).toHaveCount(3);
      await expect(bands.first().locator('td').nth(1)).toHaveText(/^±\d\.\d$/);
      // Every row fits the phone's width: no cell is cut off or scrolled out of view.
      const box = await why.getByTestId('why-genre-bands').boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(width);
    }
    // Another genre: the master made before says which genre it aimed at until mastered again.
    await page.getByLabel('Genre').selectOption('jazz');
    await expect(panel.getByTestId('genre-remaster')).toContainText('aimed at Rock');
    await page.getByLabel('Genre').selectOption('rock');
    await why.scrollIntoViewIfNeeded();
    await why.screenshot({ path: `screenshots/mastering-why-genre-${width}.png` });
  });
}

test('the MP3 download measures as the WAV (within 0.2 LU), true peak at most -1 dBTP', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, testWav('genre-mp3', 'club', 20));
  await waitForSource(page);
  await masterTrack(page);
  await expectToast(page, 'Mastering Complete');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose Download Format' });
  await dialog.getByRole('checkbox', { name: /^MP3/ }).check();
  const downloads: import('@playwright/test').Download[] = [];
  page.on('download', (d) => downloads.push(d));
  await dialog.getByRole('button', { name: 'Download (2 format(s))' }).click();
  await expect.poll(() => downloads.length, { timeout: 60_000 }).toBe(2);
  const files = await Promise.all(
    downloads.map(async (d) => ({ name: d.suggestedFilename(), path: await d.path() })),
  );
  const wav = files.find((f) => f.name.endsWith('.wav'));
  const mp3 = files.find((f) => f.name.endsWith('.mp3'));
  expect(wav && mp3, files.map((f) => f.name).join(', ')).toBeTruthy();
  const w = ebur128(wav!.path);
  const m = ebur128(mp3!.path);
  console.log(
    `[genre e2e] WAV ${w.integrated} LUFS ${w.truePeak} dBTP; MP3 ${m.integrated} LUFS ${m.truePeak} dBTP`,
  );
  expect(Math.abs(m.integrated - w.integrated)).toBeLessThanOrEqual(0.2);
  expect(m.truePeak).toBeLessThanOrEqual(-1);
});
