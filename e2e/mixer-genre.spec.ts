/**
 * Issue 26, the mixer page's side, end to end: the espeak-ng dirty take (hiss at −50 dBFS, one sentence 8 dB
 * quieter, breaths, sibilant lines) is analysed in the listening worker as it loads and described in plain
 * words; a real beat (Debian's asc-music) gets a Suggested genre with its reasons; the genre picked is kept in
 * the saved session and the mix's arrangement, drives the mixdown ("What the mix did"), and arrives on the
 * mastering page as that track's default. Screenshots of the panels at 1280 and 375 px.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dirtyTake } from '../src/audio/dsp/vocal/dirty-take.test-helper';
import { BEATS, realBeat } from '../src/audio/dsp/vocal-space.test-helper';
import { wavBytes } from './helpers/mixer-audio';
import { createMixdown, expectLoaded, uploadTrack } from './helpers/mixer-page';
import { expect, registerViaApi, test } from './helpers/web-fixtures';

const RATE = 44_100;

test('genre step with Suggested and why, the vocal analysis in plain words, the genre kept and carried to mastering', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const take = await dirtyTake(RATE);
  if (!take) throw new Error('espeak-ng and ffmpeg are needed for the dirty take');
  const beat = await realBeat(BEATS[0]!, RATE, 20, take.vocal.length);
  if (!beat) throw new Error(`ffmpeg could not decode ${BEATS[0]}`);
  const dir = testInfo.outputPath('audio');
  await mkdir(dir, { recursive: true });
  const vocalPath = join(dir, 'dirty-take.wav');
  const beatPath = join(dir, 'beat.wav');
  await writeFile(vocalPath, wavBytes({ sampleRate: RATE, channels: [take.vocal] }));
  await writeFile(beatPath, wavBytes({ sampleRate: RATE, channels: beat }));

  await page.setViewportSize({ width: 1280, height: 900 });
  await registerViaApi(page);
  await page.goto('/mixer');

  // The vocal: its analysis runs in the worker with progress, then reads in plain words.
  await uploadTrack(page, 'vocals', vocalPath);
  await expectLoaded(page, 'vocals');
  const panel = page.getByTestId('vocal-analysis');
  await expect(panel).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  const finding = (id: string) => panel.locator(`[data-finding="${id}"]`);
  await expect(finding('noise')).toHaveText(/Steady hiss around −(4[7-9]|5[0-3]) dBFS — we'll clean it/);
  await expect(finding('phrases')).toHaveText(
    /One phrase ([6-9]|10) dB quieter than the rest — we'll ride it up/,
  );
  await expect(finding('breaths')).toHaveText(/\d+ breaths? — we'll lower them, not remove them/);
  await expect(finding('sibilance')).toHaveText(/Sibilance at [\d.]+–[\d.]+ kHz/);
  // The numbers are one click away.
  await expect(finding('noise').getByText('Noise floor (pauses, RMS)')).toBeHidden();
  await finding('noise').locator('summary').click();
  await expect(finding('noise').getByText('Noise floor (pauses, RMS)')).toBeVisible();
  const texts = await panel.locator('[data-finding] summary').allInnerTexts();
  testInfo.annotations.push({ type: 'vocal analysis', description: texts.join(' | ') });
  await panel.screenshot({ path: testInfo.outputPath('vocal-analysis-1280.png') });

  // The beat: Suggested, with why.
  await uploadTrack(page, 'instrumental', beatPath);
  await expectLoaded(page, 'instrumental');
  await page.getByRole('button', { name: 'Apply Sequence' }).click();
  await expect(page.getByTestId('mix-preview')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  const picker = page.getByTestId('genre-picker');
  const suggested = page.getByTestId('genre-suggested');
  await expect(suggested).toHaveText(
    /^Suggested: (Hip-hop \/ Trap|Pop|R&B|Rock|EDM|Acoustic \/ Folk|Jazz \/ Classical)$/,
    {
      timeout: 60_000,
    },
  );
  await expect(suggested).toHaveAttribute('aria-pressed', 'true');
  const why = page.getByTestId('genre-why');
  await expect(why).toHaveText(/^Why .+: .+ dB/);
  testInfo.annotations.push({
    type: 'suggested',
    description: `${await suggested.innerText()} — ${await why.innerText()}`,
  });
  await page.getByTestId('mix-style').screenshot({ path: testInfo.outputPath('genre-step-1280.png') });

  // The user's pick overrides the suggestion, and the session keeps it.
  await picker.getByRole('button', { name: 'R&B', exact: true }).click();
  await expect(picker).toHaveAttribute('data-genre', 'rnb');
  await expect(suggested).toHaveAttribute('aria-pressed', 'false');
  const latestSessionGenre = async () => {
    const list = (await (await page.request.get('/api/sessions?limit=1')).json()) as {
      sessions: { id: number }[];
    };
    const first = list.sessions[0];
    if (!first) return null;
    return ((await (await page.request.get(`/api/sessions/${first.id}`)).json()) as { genre: string | null })
      .genre;
  };
  await expect.poll(latestSessionGenre, { timeout: 20_000 }).toBe('rnb');

  // The mixdown aims at R&B and says what it did; the arrangement keeps the genre.
  await createMixdown(page, 180_000);
  const finalMix = page.getByTestId('final-mix');
  const moves = page.getByTestId('mix-moves');
  await expect(moves).toContainText('Aimed at R&B');
  await expect(moves.locator('[data-stage="Cleanup"]')).toContainText(/noise in the pauses −\d+\.\d dB/);
  await expect(moves.locator('[data-stage="De-esser"]')).toContainText(/kHz, up to −/);
  testInfo.annotations.push({
    type: 'what the mix did',
    description: (await moves.innerText()).replace(/\n/g, ' | '),
  });
  await finalMix.screenshot({ path: testInfo.outputPath('mix-moves-1280.png') });
  const exportLink = finalMix.getByRole('link', { name: 'Export to Mastering' });
  await expect(exportLink).toBeVisible({ timeout: 30_000 });
  const trackId = await finalMix.getAttribute('data-track-id');
  await expect(exportLink).toHaveAttribute('href', `/mastering?trackId=${trackId}&genre=rnb`);
  const saved = (await (await page.request.get(`/api/tracks/${trackId}`)).json()) as {
    arrangement: { genre?: string } | null;
  };
  expect(saved.arrangement?.genre).toBe('rnb');

  // The narrow screen: the same panels at 375 px (once the mixdown's toast has gone, it covers the top).
  await expect(page.getByText('Your mixdown is ready')).toHaveCount(0, { timeout: 30_000 });
  await page.setViewportSize({ width: 375, height: 800 });
  await panel.screenshot({ path: testInfo.outputPath('vocal-analysis-375.png') });
  await page.getByTestId('mix-style').screenshot({ path: testInfo.outputPath('genre-step-375.png') });
  await finalMix.screenshot({ path: testInfo.outputPath('mix-moves-375.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  // On the mastering page the mix arrives with R&B as its default genre, from the saved arrangement.
  await exportLink.click();
  const source = page.getByTestId('audio-source');
  await expect(source).toHaveAttribute('data-state', 'loaded', { timeout: 60_000 });
  await expect(source).toHaveAttribute('data-mix-genre', 'rnb');
});
