import { readFileSync } from 'node:fs';
import { decodeWav } from '../src/audio/codecs/wav-decoder';
import { measureLoudness } from '../src/audio/dsp/loudness';
import { PRESETS } from '../src/shared/mastering';
import { decodedSeconds, ebur128, ffprobe, testWav } from './helpers/mastering-audio';
import {
  masterTrack,
  number,
  openMastering,
  specSteps,
  upload,
  waitForSource,
} from './helpers/mastering-page';
import { currentUser, signUp } from './helpers/mastering-users';
import { expect, expectToast, test } from './helpers/web-fixtures';

/**
 * A Pro subscriber uploads generated audio, masters it with each preset, and downloads WAV and MP3 at once:
 * the files are checked with ffmpeg (duration, loudness, true peak, real MPEG audio) and exactly one
 * mastering credit is spent.
 */
test('master with every preset, then download WAV and MP3 for one credit', async ({ page }) => {
  test.setTimeout(240_000);
  const source = testWav('presets-source', 'pop', 24);
  const sourceDuration = ffprobe(source).duration;
  const before = await signUp(page, 'pro');
  expect(before.masteringCredits).toBe(10);
  await openMastering(page);
  await upload(page, source);
  await expectToast(page, 'Audio loaded');
  await waitForSource(page);
  await expect(page.getByTestId('credit-status')).toContainText('10 Mix credits');
  await expect(page.getByTestId('credit-status')).toContainText('10 Mastering credits');

  for (const preset of Object.values(PRESETS)) {
    await page.getByLabel('Preset').selectOption(preset.id);
    await expect(page.getByTestId('preset-description')).toHaveText(preset.description);
    const { statuses } = await masterTrack(page);
    // The spec's steps as the real stages pass: in order, first and last always shown.
    const steps = specSteps(preset.name);
    expect(statuses[0]).toBe(steps[0]);
    expect(statuses.at(-1)).toBe(steps.at(-1));
    const positions = statuses.map((s) => steps.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    await expectToast(page, 'Mastering Complete');
    const lufs = await number(page, 'master-lufs');
    console.log(
      `${preset.name}: ${lufs} LUFS (target ${preset.targetLufs}), ${await number(page, 'master-true-peak')} dBTP`,
    );
    expect.soft(Math.abs(lufs - preset.targetLufs)).toBeLessThanOrEqual(1);
    expect(await number(page, 'master-true-peak')).toBeLessThanOrEqual(-1);
  }

  // Download the Balanced master in both formats.
  await page.getByLabel('Preset').selectOption('balanced');
  const shownLufs = await number(page, 'master-lufs');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose Download Format' });
  await expect(dialog).toContainText('High Quality, Uncompressed');
  await expect(dialog).toContainText('Compressed, Smaller File Size');
  await expect(dialog).toContainText(
    "Select one or both formats. You'll only be charged one credit/crown regardless of how many formats you choose.",
  );
  const wavBox = dialog.getByRole('checkbox', { name: /WAV/ });
  const mp3Box = dialog.getByRole('checkbox', { name: /MP3/ });
  await expect(wavBox).toBeChecked();
  await expect(mp3Box).not.toBeChecked();
  await expect(dialog.getByRole('button', { name: 'Download (1 format(s))' })).toBeEnabled();
  await wavBox.uncheck();
  await expect(dialog.getByRole('button', { name: 'Download (0 format(s))' })).toBeDisabled();
  await wavBox.check();
  await mp3Box.check();
  const downloads: import('@playwright/test').Download[] = [];
  page.on('download', (d) => downloads.push(d));
  await dialog.getByRole('button', { name: 'Download (2 format(s))' }).click();
  await expectToast(page, 'Download Started');
  await expect.poll(() => downloads.length).toBe(2);

  const names = downloads.map((d) => d.suggestedFilename()).sort();
  expect(names[0]).toMatch(/^mastered-balanced-\d+\.mp3$/);
  expect(names[1]).toMatch(/^mastered-balanced-\d+\.wav$/);
  const paths = await Promise.all(
    downloads.map(async (d) => ({ name: d.suggestedFilename(), path: await d.path() })),
  );
  const wav = paths.find((p) => p.name.endsWith('.wav'))!.path;
  const mp3 = paths.find((p) => p.name.endsWith('.mp3'))!.path;

  const wavProbe = ffprobe(wav);
  expect(wavProbe.codec).toBe('pcm_s16le');
  expect(wavProbe.channels).toBe(2);
  expect(Math.abs(wavProbe.duration - sourceDuration)).toBeLessThan(0.001);
  const wavLoudness = ebur128(wav);
  console.log(`WAV: ${wavLoudness.integrated} LUFS, ${wavLoudness.truePeak} dBTP (ffmpeg)`);
  expect(Math.abs(wavLoudness.integrated - PRESETS.balanced.targetLufs)).toBeLessThanOrEqual(1);
  expect.soft(wavLoudness.truePeak).toBeLessThanOrEqual(-1);
  // The number on screen is the engine's BS.1770-4 meter reading of the master.
  const decoded = decodeWav(readFileSync(wav));
  const engine = measureLoudness(decoded.channels, decoded.sampleRate);
  expect(Math.abs(engine.integratedLufs - shownLufs)).toBeLessThanOrEqual(0.05);

  const mp3Probe = ffprobe(mp3);
  expect(mp3Probe.codec).toBe('mp3');
  expect(mp3Probe.formatName).toBe('mp3');
  expect(Math.round(mp3Probe.bitRate / 1000)).toBe(320);
  // Decoded length (gapless: the LAME tag's encoder delay and padding are removed by the decoder).
  expect(Math.abs(decodedSeconds(mp3) - sourceDuration)).toBeLessThan(0.001);
  const mp3Loudness = ebur128(mp3);
  console.log(`MP3: ${mp3Loudness.integrated} LUFS, ${mp3Loudness.truePeak} dBTP (ffmpeg)`);
  expect(Math.abs(mp3Loudness.integrated - PRESETS.balanced.targetLufs)).toBeLessThanOrEqual(1);
  expect.soft(mp3Loudness.truePeak).toBeLessThanOrEqual(-1);
  expect(readFileSync(mp3).subarray(0, 2).toString('hex')).not.toBe('5249'); // not 'RI'FF data

  const after = await currentUser(page.request);
  expect(after.masteringCredits).toBe(before.masteringCredits - 1);
  expect(after.crowns).toBe(before.crowns);
  await expect(page.getByTestId('credit-status')).toContainText('9 Mastering credits');
});
