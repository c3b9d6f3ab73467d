import { execFileSync } from 'node:child_process';
import { testWav } from './helpers/mastering-audio';
import { masterTrack, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { expect, test } from './helpers/web-fixtures';

/**
 * Issue 30, items 4 and 7 (decisions 243-246): the reference's loudness is said to replace the target, a
 * band-limited MP3 reference (lame, low-pass 11 kHz) gets its note, the panels open with a plain sentence
 * and the spectrum is a picture; Help names every format and feature.
 */
for (const width of [1280, 375]) {
  test(`reference honesty, plain sentences and the spectrum picture at ${width} px`, async ({
    page,
  }, info) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 800 });
    await signUp(page, 'unlimited');
    await openMastering(page);
    await upload(page, testWav(`words-${width}`, 'pop', 16));
    await waitForSource(page);

    // A lossy reference that stops at 11 kHz, made with lame from a generated full-band track.
    const wav = testWav(`words-ref-${width}`, 'club', 16);
    const mp3 = info.outputPath('reference-11k.mp3');
    execFileSync('lame', ['--quiet', '-b', '96', '--lowpass', '11', wav, mp3]);
    await page.getByLabel('Mode').selectOption('manual');
    await page.getByLabel('Reference track').setInputFiles(mp3);
    const reference = page.getByTestId('reference');
    await expect(reference).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await expect(reference.getByTestId('reference-note')).toHaveText(
      /^This MP3 reference has nothing above about (9\.\d|1[01]) kHz \(a lossy or band-limited file\): the bands above are left out of the tone match/,
    );
    const target = page.getByTestId('target-lufs');
    await expect(target).toHaveAttribute('data-source', 'reference');
    await expect(target).toContainText(
      "the reference's loudness: it replaces the Loudness target (Preset's own)",
    );
    await reference.scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath(`reference-note-${width}.png`) });

    await masterTrack(page);
    if (width < 1024) {
      await page.getByTestId('fold-loudness').locator('summary').click();
      await page.getByTestId('fold-analysis').locator('summary').click();
    }
    const loudness = page.getByTestId('loudness-panel');
    await expect(loudness.getByTestId('plain-sentence')).toHaveText(
      /^The master is turned (up|down) \d+\.\d dB, to −\d+\.\d LUFS \(loudness as streaming services measure it\), and its peaks stay \d\.\d dB under the clipping point\.$/,
    );
    await expect(page.getByTestId('analysis-summary').getByTestId('plain-sentence')).toHaveText(
      /^Your track has .*punch.*, its bass .*, and its loudest part starts at \d+:\d\d\.$/,
    );
    const picture = loudness.getByTestId('spectrum-picture');
    await expect(picture).toHaveAttribute('data-master', 'yes');
    // The canvas is drawn: some pixels in the master's colour (violet).
    const violet = await picture.locator('canvas').evaluate((c: HTMLCanvasElement) => {
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i + 2]! > 200 && data[i]! > 130 && data[i + 1]! < 170) n++;
      return n;
    });
    expect(violet).toBeGreaterThan(100);
    await picture.scrollIntoViewIfNeeded();
    await loudness.screenshot({ path: info.outputPath(`loudness-${width}.png`) });
    if (width === 1280) await loudness.screenshot({ path: 'docs/screenshots/spectrum-picture.png' });

    // Removing the reference: the target line is the chosen target again.
    await reference.getByRole('button', { name: 'Remove' }).click();
    await expect(target).not.toHaveAttribute('data-source', 'reference');
    await expect(target).toHaveText(/^Master to -?\d+\.\d LUFS, true peak at most -1 dBTP$/);
  });
}

test('Help names every upload format and explains the features shipped since the spec', async ({ page }) => {
  await page.goto('/help');
  await page.getByText('Which audio formats can I upload?').click();
  await expect(page.getByText('WAV, MP3, OGG, FLAC, AIFF and M4A files.')).toBeVisible();
  const guide = page.getByTestId('mastering-guide');
  for (const name of [
    'Tone match',
    'Reference track',
    'Vocal space',
    'Versions',
    'How it will play',
    'Codec preview',
    'More formats',
  ]) {
    await expect(guide.getByText(name, { exact: true })).toBeVisible();
  }
});
