import { mkdir } from 'node:fs/promises';
import { scalePitchClasses } from '../src/audio/dsp/pitch/correction-curve';
import {
  A_MINOR_MELODY,
  aubioPitchOfFile,
  centsOffPerNote,
  melodyMidi,
  renderMidi,
  tempDir,
  VOICE_OOHS,
} from '../src/audio/dsp/pitch/sung-melody.test-helper';
import { noiseBed, subscribeViaLocalCheckout, writeWav } from './helpers/mixer-audio';
import { createMixdown, loadAndApply } from './helpers/mixer-page';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

const SR = 44_100;
const A_MINOR = scalePitchClasses({ tonic: 9, mode: 'minor' });

test('pitch correction: a detuned melody is tuned to A minor in the exported mix, measured by aubiopitch', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const dir = testInfo.outputPath('audio');
  await mkdir(dir, { recursive: true });
  const scratch = tempDir();
  const melody = renderMidi(scratch, 'melody', melodyMidi(A_MINOR_MELODY, VOICE_OOHS));
  const vocalPath = await writeWav(dir, 'detuned-melody.wav', { sampleRate: SR, channels: [melody] });
  const bedPath = await writeWav(dir, 'bed.wav', noiseBed(20, 0.003));
  const before = centsOffPerNote(aubioPitchOfFile(vocalPath), A_MINOR_MELODY, A_MINOR);

  await registerViaApi(page);
  await subscribeViaLocalCheckout(page, 'pro');
  await page.goto('/mixer');
  await loadAndApply(page, vocalPath, bedPath);

  // Turn correction on: A minor, full amount; the pitch view shows the detected and corrected curves.
  const panel = page.getByTestId('pitch-panel');
  await panel.scrollIntoViewIfNeeded();
  await panel.getByLabel('Key and scale').selectOption({ label: 'A minor' });
  await panel.getByLabel('Amount').fill('100');
  await expect(panel.getByText('100%').first()).toBeVisible();
  const view = panel.getByTestId('pitch-view');
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(panel).toHaveAttribute('data-state', 'ready');
  expect(Number(await view.getAttribute('data-voiced-frames'))).toBeGreaterThan(400);
  await expect(panel.getByText('Detected pitch')).toBeVisible();
  await expect(panel.getByText('Corrected pitch')).toBeVisible();
  // The panel at desktop and phone widths (looked at: curves over the note grid, controls fit).
  await panel.screenshot({ path: testInfo.outputPath('pitch-panel-1280.png') });
  await page.setViewportSize({ width: 375, height: 800 });
  await panel.scrollIntoViewIfNeeded();
  await expect(view).toBeVisible();
  await panel.screenshot({ path: testInfo.outputPath('pitch-panel-375.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  await createMixdown(page, 120_000);
  const finalMix = page.getByTestId('final-mix');
  await finalMix.getByRole('button', { name: 'Download Mix' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose Download Format' });
  const downloaded = page.waitForEvent('download', { timeout: 60_000 });
  await dialog.getByRole('button', { name: /^Download/ }).click();
  const file = await downloaded;
  const path = testInfo.outputPath('Mixdown.wav');
  await file.saveAs(path);

  const after = centsOffPerNote(aubioPitchOfFile(path), A_MINOR_MELODY, A_MINOR);
  const figures = `median cents off A minor: vocal ${before.median.toFixed(1)}, exported mix ${after.median.toFixed(1)}`;
  console.log(`mixer pitch: ${figures}`);
  testInfo.annotations.push({ type: 'pitch', description: figures });
  expect(before.median).toBeGreaterThan(18);
  expect(after.median).toBeLessThan(5);
});
