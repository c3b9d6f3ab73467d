import { mkdir } from 'node:fs/promises';
import {
  currentUser,
  instrumental,
  probeAudio,
  subscribeViaLocalCheckout,
  vocal,
  writeWav,
} from './helpers/mixer-audio';
import {
  clip,
  clipPosition,
  createMixdown,
  expectLoaded,
  playheadSeconds,
  seekTo,
  uploadTrack,
} from './helpers/mixer-page';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

/** The instrumental is the longest source (64 s > the 60 s floor), so it sets the final mix length. */
const INSTRUMENTAL_SECONDS = 64;
const VOCAL_SECONDS = 40;

test('the whole mixer flow: upload, arrange, apply, preview, mix, download WAV and MP3 for one credit', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const dir = testInfo.outputPath('audio');
  const vocalPath = await writeWav(dir, 'vocal.wav', vocal(VOCAL_SECONDS));
  const instPath = await writeWav(dir, 'instrumental.wav', instrumental(INSTRUMENTAL_SECONDS));

  await registerViaApi(page);
  await subscribeViaLocalCheckout(page, 'pro');
  const before = await currentUser(page);
  expect(before.hasSubscription).toBe(true);

  await page.goto('/mixer');
  await expect(page.getByTestId('mixer')).toBeVisible();
  await expect(page.getByText("Press 'Apply Sequence' to continue")).toBeVisible();
  await expect(page.getByTestId('mix-style')).toHaveAttribute('data-state', 'disabled');

  // Upload both: the page decodes each and draws a waveform per clip in each lane.
  await uploadTrack(page, 'vocals', vocalPath);
  await expectLoaded(page, 'vocals');
  await uploadTrack(page, 'instrumental', instPath);
  await expectLoaded(page, 'instrumental');
  await expect(clip(page, 'vocals-clip').locator('canvas')).toHaveAttribute('data-state', 'drawn');
  await expect(clip(page, 'instrumental-clip').locator('canvas')).toHaveAttribute('data-state', 'drawn');
  const labels = page.getByTestId('scrub-labels');
  await expect(labels).toHaveText(/0:00.*0:16.*0:32.*0:48.*1:04/);

  // Drag the vocal clip right by a tenth of the lane: 6.4 s, snapped to 0.01 s.
  await page.getByTestId('sequencer').scrollIntoViewIfNeeded();
  const lane = (await page.getByTestId('lane-vocals').boundingBox())!;
  const box = (await clip(page, 'vocals-clip').boundingBox())!;
  const startX = box.x + 40;
  await page.mouse.move(startX, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(startX + lane.width * 0.05, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(startX + lane.width * 0.1, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const moved = await clipPosition(page, 'vocals-clip');
  expect(moved).toBeCloseTo(6.4, 0);
  expect(Math.round(moved * 100) / 100).toBe(moved);
  await expect(clip(page, 'vocals-clip')).toHaveAttribute('data-selected', 'true');
  // The instrumental clip does not move.
  expect(await clipPosition(page, 'instrumental-clip')).toBe(0);

  // Seek to a quarter (16 s), inside the moved clip, and cut there.
  await seekTo(page, 0.25);
  await expect.poll(() => playheadSeconds(page)).toBeCloseTo(16, 0);
  const at = await playheadSeconds(page);
  await page.getByRole('button', { name: 'Cut at Playhead' }).click();
  await expect(clip(page, 'vocals-clip-1')).toBeVisible();
  await expect(clip(page, 'vocals-clip-2')).toBeVisible();
  await expect(clip(page, 'vocals-clip')).toHaveCount(0);
  expect(await clipPosition(page, 'vocals-clip-1')).toBe(moved);
  expect(await clipPosition(page, 'vocals-clip-2')).toBeCloseTo(at, 1);
  await expect(clip(page, 'vocals-clip-2').locator('canvas')).toHaveAttribute('data-state', 'drawn');

  // Delete the second half with the keyboard, then undo it.
  await clip(page, 'vocals-clip-2').click();
  await expect(clip(page, 'vocals-clip-2')).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Delete');
  await expect(clip(page, 'vocals-clip-2')).toHaveCount(0);
  await page.keyboard.press('ControlOrMeta+z');
  await expect(clip(page, 'vocals-clip-2')).toBeVisible();
  // Redo and undo again leave the clip in place.
  await page.keyboard.press('Shift+ControlOrMeta+z');
  await expect(clip(page, 'vocals-clip-2')).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(clip(page, 'vocals-clip-2')).toBeVisible();

  // Play the arrangement briefly: the playhead moves.
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => playheadSeconds(page)).toBeGreaterThan(at + 0.3);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();

  // Apply: style selection opens up, the three previews render.
  await page.getByRole('button', { name: 'Apply Sequence' }).click();
  await expect(page.getByTestId('mix-style')).toHaveAttribute('data-state', 'enabled');
  await expect(page.getByText("Press 'Apply Sequence' to continue")).toHaveCount(0);
  const previews = page.getByTestId('mix-preview');
  await expect(previews).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });

  // One preview at a time; each stops by itself after 10 s.
  const play = (name: string) => previews.getByRole('button', { name: `Play ${name} preview` });
  await play('Vocals Forward').click();
  await expect(previews.getByRole('button', { name: 'Stop Vocals Forward preview' })).toBeVisible();
  await play('Balanced').click();
  await expect(previews.getByRole('button', { name: 'Stop Balanced preview' })).toBeVisible();
  await expect(play('Vocals Forward')).toBeVisible();
  await play('Instrumental Forward').click();
  await expect(play('Balanced')).toBeVisible();
  const started = Date.now();
  await expect(play('Instrumental Forward')).toBeVisible({ timeout: 14_000 });
  expect(Date.now() - started).toBeGreaterThan(8_000);

  await page.getByRole('button', { name: /^Vocals Forward/ }).click();
  await expect(page.getByRole('button', { name: /^Vocals Forward/ })).toHaveAttribute('aria-pressed', 'true');

  // Export is disabled until the saved track id exists; the stage messages follow the real render.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { mixStages: string[] }).mixStages = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="mixdown-stage"]')?.textContent ?? '';
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await createMixdown(page);
  const stages = await page.evaluate(() => (window as unknown as { mixStages: string[] }).mixStages);
  const order = [
    'Organizing session...',
    'Balancing volumes...',
    'Panning tracks...',
    'Applying EQ...',
    'Processing dynamics...',
    'Adding effects...',
    'Final processing...',
  ];
  expect(stages.length).toBeGreaterThan(1);
  expect(stages.map((s) => order.indexOf(s))).toEqual(
    [...stages.map((s) => order.indexOf(s))].sort((a, b) => a - b),
  );
  expect(stages.filter((s) => !order.includes(s))).toEqual([]);
  testInfo.annotations.push({ type: 'mixdown stages seen', description: stages.join(' → ') });

  const finalMix = page.getByTestId('final-mix');
  const exportLink = finalMix.getByRole('link', { name: 'Export to Mastering' });
  await expect(exportLink).toBeVisible({ timeout: 30_000 });
  const trackId = await finalMix.getAttribute('data-track-id');
  expect(trackId).toMatch(/^\d+$/);
  // With the genre the mix was made for (issue 26: the beat's suggestion, the mastering page's default).
  await expect(exportLink).toHaveAttribute(
    'href',
    new RegExp(`^/mastering\\?trackId=${trackId}(&genre=[a-z]+)?$`),
  );
  const saved = await page.request.get(`/api/tracks/${trackId}`);
  expect(saved.ok()).toBe(true);
  expect(await saved.json()).toMatchObject({ name: 'Final Mix', type: 'mixed' });

  await finalMix.getByRole('button', { name: 'Play Result' }).click();
  await expect(finalMix.getByRole('button', { name: 'Stop' })).toBeVisible();
  await finalMix.getByRole('button', { name: 'Stop' }).click();

  // Download both formats: two files, one credit.
  await finalMix.getByRole('button', { name: 'Download Mix' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose Download Format' });
  await dialog.getByLabel(/MP3/).check();
  const downloads: Promise<import('@playwright/test').Download>[] = [];
  page.on('download', (d) => downloads.push(Promise.resolve(d)));
  await dialog.getByRole('button', { name: 'Download (2 formats)' }).click();
  await expect.poll(() => downloads.length, { timeout: 60_000 }).toBe(2);
  const files = await Promise.all(downloads);
  expect(files.map((d) => d.suggestedFilename()).sort()).toEqual(['Mixdown.mp3', 'Mixdown.wav']);
  await mkdir(testInfo.outputPath('downloads'), { recursive: true });
  const paths: Record<string, string> = {};
  for (const d of files) {
    paths[d.suggestedFilename()] = testInfo.outputPath('downloads', d.suggestedFilename());
    await d.saveAs(paths[d.suggestedFilename()]!);
  }

  const wav = await probeAudio(paths['Mixdown.wav']!);
  expect(wav.codec).toBe('pcm_s16le');
  expect(wav.channels).toBe(2);
  expect(Math.abs(wav.decodedSeconds - INSTRUMENTAL_SECONDS)).toBeLessThan(1 / wav.sampleRate + 1e-9);
  expect(wav.rmsDb).toBeGreaterThan(-40);
  expect(wav.peakDb).toBeLessThan(-0.5);

  const mp3 = await probeAudio(paths['Mixdown.mp3']!);
  expect(mp3.format).toBe('mp3');
  expect(mp3.codec).toBe('mp3');
  expect(Math.abs(mp3.decodedSeconds - INSTRUMENTAL_SECONDS)).toBeLessThan(0.05);
  expect(mp3.rmsDb).toBeGreaterThan(-40);
  expect(mp3.peakDb).toBeLessThan(0);
  const downloadReport = `WAV ${wav.decodedSeconds.toFixed(4)} s peak ${wav.peakDb.toFixed(2)} dBFS rms ${wav.rmsDb.toFixed(1)} dB; MP3 ${mp3.decodedSeconds.toFixed(4)} s peak ${mp3.peakDb.toFixed(2)} dBFS`;
  console.log(`mixer downloads: ${downloadReport}; stages seen: ${stages.join(' → ')}`);
  testInfo.annotations.push({
    type: 'downloads',
    description: `WAV ${wav.decodedSeconds.toFixed(4)} s peak ${wav.peakDb.toFixed(2)} dBFS rms ${wav.rmsDb.toFixed(1)} dB; MP3 ${mp3.decodedSeconds.toFixed(4)} s peak ${mp3.peakDb.toFixed(2)} dBFS`,
  });

  const after = await currentUser(page);
  expect(before.mixCredits + before.crowns - (after.mixCredits + after.crowns)).toBe(1);
});
