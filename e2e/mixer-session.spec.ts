import { dirtyTake } from '../src/audio/dsp/vocal/dirty-take.test-helper';
import { instrumental, vocal, writeWav } from './helpers/mixer-audio';
import { clip, clipPosition, createMixdown, expectLoaded, seekTo, uploadTrack } from './helpers/mixer-page';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

interface SavedSession {
  id: number;
  vocalTrackId: number | null;
  instrumentalTrackId: number | null;
  clips: { vocals: { id: string; position: number }[]; instrumental: { id: string }[] };
  songFacts: { tempoBpm: number; tempoConfidence: number } | null;
  pitch: { amount: number; retuneMs: number } | null;
  vocalChain: Record<string, number> | null;
}

const RATE = 44_100;

test('the arrangement is saved to /api/sessions as it changes and offered back on return', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const dir = testInfo.outputPath('audio');
  await registerViaApi(page);
  await page.goto('/mixer');
  await uploadTrack(page, 'vocals', await writeWav(dir, 'take.wav', vocal(20)));
  await expectLoaded(page, 'vocals');
  await uploadTrack(page, 'instrumental', await writeWav(dir, 'beat.wav', instrumental(30)));
  await expectLoaded(page, 'instrumental');

  await page.getByTestId('sequencer').scrollIntoViewIfNeeded();
  await seekTo(page, 0.125);
  await clip(page, 'vocals-clip').click({ position: { x: 10, y: 20 } });
  await page.getByRole('button', { name: 'Cut at Playhead' }).click();
  await expect(clip(page, 'vocals-clip-2')).toBeVisible();
  const cutAt = await clipPosition(page, 'vocals-clip-2');

  // Issue 27: the beat's tempo edited by hand and a pitch correction are part of the session.
  await expect(page.getByTestId('song-facts-summary')).toHaveText(/ BPM$/, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Edit key and tempo' }).click();
  await page.getByLabel('Tempo (BPM)').fill('123');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('timeline-tempo')).toHaveText('123 BPM');
  const pitchPanel = page.getByTestId('pitch-panel');
  await pitchPanel.getByLabel('Amount').fill('65');
  await pitchPanel.getByLabel('Retune speed').fill('0');
  await expect(pitchPanel.getByText('65%')).toBeVisible();

  const latest = async (): Promise<SavedSession | null> => {
    const list = (await (await page.request.get('/api/sessions?limit=1')).json()) as {
      sessions: { id: number }[];
    };
    const first = list.sessions[0];
    return first
      ? ((await (await page.request.get(`/api/sessions/${first.id}`)).json()) as SavedSession)
      : null;
  };
  await expect
    .poll(async () => (await latest())?.clips.vocals.map((c) => c.id), { timeout: 20_000 })
    .toEqual(['vocals-clip-1', 'vocals-clip-2']);
  await expect
    .poll(async () => {
      const s = await latest();
      return [s?.songFacts?.tempoBpm, s?.songFacts?.tempoConfidence, s?.pitch?.amount, s?.pitch?.retuneMs];
    })
    .toEqual([123, 1, 65, 0]);
  const saved = (await latest())!;
  expect(saved.vocalTrackId).not.toBeNull();
  expect(saved.instrumentalTrackId).not.toBeNull();
  expect(saved.clips.vocals[1]!.position).toBeCloseTo(cutAt, 2);

  // Coming back: the saved arrangement is offered, and restoring it brings the tracks and the cut clips.
  await page.reload();
  await page.getByRole('button', { name: 'Restore session' }).click();
  await expectLoaded(page, 'vocals');
  await expectLoaded(page, 'instrumental');
  await expect(page.getByTestId('upload-vocals')).toContainText('take.wav');
  await expect(clip(page, 'vocals-clip-1')).toBeVisible();
  await expect(clip(page, 'vocals-clip-2')).toBeVisible();
  expect(await clipPosition(page, 'vocals-clip-2')).toBeCloseTo(cutAt, 2);
  await expect(clip(page, 'vocals-clip-2').locator('canvas')).toHaveAttribute('data-state', 'drawn');
  // The edited tempo and the correction came back: the beat was not analysed over the user's edit.
  await expect(page.getByTestId('song-facts-summary')).toHaveText(/ · 123 BPM$/);
  await expect(page.getByTestId('song-facts-confidence')).toHaveText(/tempo 100% sure/);
  await expect(page.getByTestId('timeline-tempo')).toHaveText('123 BPM');
  await expect(pitchPanel.getByLabel('Amount')).toHaveValue('65');
  await expect(pitchPanel.getByLabel('Retune speed')).toHaveValue('0');
  // And they stay: past the autosave delay (1.5 s) no late analysis replaced them, and the save kept them.
  await page.waitForTimeout(2_500);
  await expect(page.getByTestId('timeline-tempo')).toHaveText('123 BPM');
  const after = (await latest())!;
  expect([after.songFacts?.tempoBpm, after.pitch?.amount]).toEqual([123, 65]);
});

/** Issue 26's Adjust fold: the amounts the user set are part of the session and drive the restored mix. */
test('the Adjust amounts are saved with the session, restored on return and used by the next mixdown', async ({
  page,
}, testInfo) => {
  test.setTimeout(420_000);
  // The dirty take (steady hiss, sibilants): its planned cleanup and de-essing are far from nothing, so a
  // mix made with them turned down reads differently in "What the mix did".
  const take = await dirtyTake(RATE);
  if (!take) throw new Error('espeak-ng and ffmpeg are needed for the dirty take');
  const dir = testInfo.outputPath('audio');
  const vocalPath = await writeWav(dir, 'dirty-take.wav', { sampleRate: RATE, channels: [take.vocal] });
  const beatPath = await writeWav(dir, 'beat.wav', { sampleRate: RATE, channels: take.instrumental });
  await registerViaApi(page);
  await page.goto('/mixer');
  await uploadTrack(page, 'vocals', vocalPath);
  await expectLoaded(page, 'vocals');
  await uploadTrack(page, 'instrumental', beatPath);
  await expectLoaded(page, 'instrumental');
  await page.getByRole('button', { name: 'Apply Sequence' }).click();
  await expect(page.getByTestId('mix-preview')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await page.getByTestId('genre-picker').getByRole('button', { name: 'Pop', exact: true }).click();
  await createMixdown(page, 180_000);
  const moves = page.getByTestId('mix-moves');
  const cleanupRow = moves.locator('[data-stage="Cleanup"]');
  await expect(cleanupRow).toContainText(/noise in the pauses −\d+\.\d dB/);
  const planned = (await cleanupRow.innerText()).match(/noise in the pauses −(\d+\.\d) dB/)![1]!;
  expect(Number(planned)).toBeGreaterThan(3);

  // Cleanup off, the de-esser at 40, through the keyboard as a user would.
  const adjust = page.getByTestId('mix-adjust');
  await adjust.locator('summary').click();
  await adjust.getByLabel('Cleanup').press('Home');
  const deEsser = adjust.getByLabel('De-esser');
  await deEsser.press('Home');
  for (let i = 0; i < 8; i++) await deEsser.press('ArrowRight');
  await expect(adjust.locator('[data-stage="Cleanup"] output')).toHaveText('0');
  await expect(adjust.locator('[data-stage="De-esser"] output')).toHaveText('40');
  const latestChain = async () => {
    const list = (await (await page.request.get('/api/sessions?limit=1')).json()) as {
      sessions: { id: number }[];
    };
    const first = list.sessions[0];
    if (!first) return null;
    const s = (await (await page.request.get(`/api/sessions/${first.id}`)).json()) as SavedSession;
    return s.vocalChain;
  };
  await expect.poll(latestChain, { timeout: 20_000 }).toEqual({ cleanup: 0, deEsser: 0.4 });

  // Coming back: restored with the session, shown in Adjust, and the mix made from it uses them.
  await page.reload();
  await page.getByRole('button', { name: 'Restore session' }).click();
  await expectLoaded(page, 'vocals');
  await expectLoaded(page, 'instrumental');
  await expect(page.getByTestId('genre-picker')).toHaveAttribute('data-genre', 'pop');
  await page.getByRole('button', { name: 'Apply Sequence' }).click();
  await expect(page.getByTestId('mix-preview')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await createMixdown(page, 180_000);
  await expect(cleanupRow).toContainText('noise in the pauses 0.0 dB');
  await adjust.locator('summary').click();
  await expect(adjust.locator('[data-stage="Cleanup"] output')).toHaveText('0');
  await expect(adjust.locator('[data-stage="De-esser"] output')).toHaveText('40');
  await expect(adjust.locator('[data-stage="Space"] output')).toHaveText('100');
  // The saved mix keeps what it was rendered with (the mastering page renders its stems from it).
  const finalMix = page.getByTestId('final-mix');
  await expect(finalMix.getByRole('link', { name: 'Export to Mastering' })).toBeVisible({ timeout: 60_000 });
  const trackId = await finalMix.getAttribute('data-track-id');
  const mix = (await (await page.request.get(`/api/tracks/${trackId}`)).json()) as {
    arrangement: { genre?: string; vocalChain?: Record<string, number> } | null;
  };
  expect(mix.arrangement).toMatchObject({ genre: 'pop', vocalChain: { cleanup: 0, deEsser: 0.4 } });
  // And the restored amounts stay saved: the autosave after the restore kept them.
  expect(await latestChain()).toEqual({ cleanup: 0, deEsser: 0.4 });
});
