import { ebur128, ffprobe, testWav } from './helpers/mastering-audio';
import { masterTrack, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { currentUser, signUp } from './helpers/mastering-users';
import { expect, expectToast, test } from './helpers/web-fixtures';

/**
 * The download dialog's "More formats": closed at first (the spec's dialog as specified), then FLAC 24-bit
 * and WAV 24-bit at 48 kHz from a 44.1 kHz master, for one credit; files checked with ffprobe and ffmpeg.
 */
test('More formats: FLAC 24-bit and WAV 24-bit at 48 kHz, one credit for both', async ({ page }) => {
  test.setTimeout(180_000);
  const seconds = 12;
  const source = testWav('studio-formats-source', 'pop', seconds);
  const before = await signUp(page, 'pro');
  await openMastering(page);
  await upload(page, source);
  await expectToast(page, 'Audio loaded');
  await waitForSource(page);
  await masterTrack(page);
  await expectToast(page, 'Mastering Complete');

  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose Download Format' });
  const flac24 = dialog.getByRole('checkbox', { name: /FLAC 24-bit/ });
  await expect(dialog.getByRole('checkbox', { name: /^WAV High/ })).toBeChecked();
  await expect(flac24).toBeHidden(); // the disclosure starts closed
  await dialog.getByText('More formats').click();
  await expect(flac24).toBeVisible();
  await expect(dialog.getByLabel('Sample rate')).toHaveValue('source');
  await expect(dialog.getByLabel('Sample rate').locator('option').first()).toHaveText('Source (44.1 kHz)');
  // The screenshots show the dialog itself, not the 'Mastering Complete' toast over it (it closes after 5 s).
  await expect(page.locator('li[data-variant][data-state="open"]')).toHaveCount(0, { timeout: 10_000 });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 800 });
    await page.screenshot({ path: `screenshots/download-more-formats-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await dialog.getByRole('checkbox', { name: /^WAV High/ }).uncheck();
  await flac24.check();
  await dialog.getByRole('checkbox', { name: /WAV 24-bit/ }).check();
  await dialog.getByLabel('Sample rate').selectOption('48000');
  const downloads: import('@playwright/test').Download[] = [];
  page.on('download', (d) => downloads.push(d));
  await dialog.getByRole('button', { name: 'Download (2 format(s))' }).click();
  await expectToast(page, 'Download Started');
  await expect.poll(() => downloads.length).toBe(2);

  const files = await Promise.all(
    downloads.map(async (d) => ({ name: d.suggestedFilename(), path: await d.path() })),
  );
  const wav = files.find((f) => /^mastered-[a-z]+-\d+-24bit\.wav$/.test(f.name));
  const flac = files.find((f) => /^mastered-[a-z]+-\d+-24bit\.flac$/.test(f.name));
  expect(wav && flac, files.map((f) => f.name).join(', ')).toBeTruthy();
  for (const [file, codec] of [
    [wav!, 'pcm_s24le'],
    [flac!, 'flac'],
  ] as const) {
    const probe = ffprobe(file.path);
    expect(probe).toMatchObject({ codec, sampleRate: 48_000, channels: 2 });
    expect(probe.duration).toBeCloseTo(seconds, 6);
  }
  // Same master, same resampled channels, two containers: the same loudness to the hundredth.
  expect(Math.abs(ebur128(wav!.path).integrated - ebur128(flac!.path).integrated)).toBeLessThanOrEqual(0.01);

  const after = await currentUser(page.request);
  expect(after.masteringCredits).toBe(before.masteringCredits - 1);
  expect(after.crowns).toBe(before.crowns);
});
