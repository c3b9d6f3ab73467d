/**
 * Issue 31 end to end: an album of four cuts of real music (Debian's asc-music and hyperrogue-music), one
 * made 8 dB quieter and one made dull, on the mastering page's Album view as a Pro user. Added as files,
 * analysed side by side (the two outliers said in words), reordered by keyboard and buttons, titled, given
 * ISRCs; mastered as one album; previewed (the playhead jumps, the list follows) and a transition auditioned;
 * downloaded as one ZIP (every track in WAV and MP3, the continuous FLAC with its CUE sheet) for four
 * credits, charged once. Checked with ffmpeg/ffprobe: each track's loudness on the plan's target (0.5 LU),
 * the tilt spread at most half the input's, the continuous file's track starts where the CUE says (to the
 * sample), the tags, and the MP3s decoding back to back without a gap. Then the view at 375 px on touch.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Download } from '@playwright/test';
import {
  ARTIST,
  addTracks,
  bestOffset,
  cueStarts,
  cuts,
  ISRCS,
  openAlbum,
  RATE,
  RECORD,
  rmsDb,
  run,
  SECONDS,
  samples,
  shot,
  spread,
  TITLES,
  tags,
  tiltOf,
} from './helpers/album-audio';
import { ebur128 } from './helpers/mastering-audio';
import { currentUser, signUp } from './helpers/mastering-users';
import { expect, test, toastWith } from './helpers/web-fixtures';

test('a trial account sees the album locked, with the plan named', async ({ page }) => {
  await signUp(page, 'trial');
  await openAlbum(page);
  const locked = page.getByTestId('album-locked');
  await expect(locked).toContainText('Pro plan');
  await expect(locked.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
  await expect(page.getByLabel('Add audio files')).toHaveCount(0);
});

test('an album of four real tracks: analysed, mastered, sequenced and downloaded for four credits once', async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const files = cuts(testInfo.outputPath('audio'));
  const shots = testInfo.outputPath('screenshots');
  mkdirSync(shots, { recursive: true });
  await signUp(page, 'pro');
  await openAlbum(page);
  await addTracks(page, files);

  // Side by side, the quiet and the dull track marked, in words too.
  // The quiet one by as much as ffmpeg's meter puts it under the median of the others.
  const inputLufs = files.map((f) => ebur128(f).integrated);
  const others = inputLufs.filter((_, i) => i !== 1).sort((a, b) => a - b);
  const quieter = Math.round(others[1]! - inputLufs[1]!);
  const outliers = page.getByTestId('album-outliers');
  await expect(outliers.nth(1)).toContainText(
    new RegExp(`\\b(${quieter - 1}|${quieter}|${quieter + 1}) dB quieter than the rest`),
  );
  await expect(outliers.nth(2)).toContainText(/dB duller than the rest/);
  await expect(page.getByTestId('album-analysis-row').nth(1).getByTestId('album-loudness')).toHaveAttribute(
    'data-outlier',
    'true',
  );

  // Reorder by drag, by keyboard (Alt + arrows, announced) and by the buttons, back to the first order.
  const rows = page.getByTestId('album-track');
  // From the handle (a drag that starts in a text field selects text, as everywhere).
  const handle = (i: number) => rows.nth(i).getByTitle('Drag to reorder');
  await handle(0).dragTo(rows.nth(1));
  await expect(rows.nth(1).getByLabel('Title of track 2')).toHaveValue('1-strike');
  await expect(page.getByTestId('album-announcement')).toHaveText('1-strike moved to position 2 of 4');
  await handle(1).dragTo(rows.nth(0));
  await expect(rows.nth(0).getByLabel('Title of track 1')).toHaveValue('1-strike');
  await rows.nth(3).getByLabel('Title of track 4').focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page.getByTestId('album-announcement')).toHaveText('4-machines moved to position 3 of 4');
  await expect(rows.nth(2).getByLabel('Title of track 3')).toHaveValue('4-machines');
  await rows.nth(2).getByRole('button', { name: 'Move 4-machines down' }).click();
  await expect(page.getByTestId('album-announcement')).toHaveText('4-machines moved to position 4 of 4');
  await expect(rows.nth(3).getByLabel('Title of track 4')).toHaveValue('4-machines');

  // The record, the artist, the titles and ISRCs.
  await page.getByLabel('Record title').fill(RECORD);
  await page.getByLabel('Artist').fill(ARTIST);
  for (let i = 0; i < 4; i++) {
    await page.getByLabel(`Title of track ${i + 1}`).fill(TITLES[i]!);
    await page.getByLabel(`ISRC of track ${i + 1}`).fill(ISRCS[i]!);
  }
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page.getByTestId('album-tracks'), join(shots, `album-tracks-${width}.png`));
    await shot(page.getByTestId('album-analysis'), join(shots, `album-analysis-${width}.png`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Master the album: Balanced (-14 LUFS for the loudest).
  await page.getByTestId('album-master-button').click();
  const progress = page.getByTestId('album-progress');
  await expect(progress).toHaveAttribute('data-state', 'running');
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 480_000 });
  await expect(page.getByTestId('album-result')).toHaveCount(4);
  const targets = (await page.getByTestId('album-target-lufs').allTextContents()).map(Number);
  expect(Math.max(...targets)).toBeCloseTo(-14, 1);
  await expect(toastWith(page, 'Mastering Complete')).toBeHidden({ timeout: 15_000 });
  await page.getByTestId('album-result').nth(1).getByText("The album's plan for this track").click();
  await expect(page.getByTestId('album-why').nth(1)).toContainText('LU under the album');

  // A Pro account sees each track's manual controls locked, naming the plan that has them (decision 222).
  const manual1 = page.getByTestId('album-track-manual').first();
  await manual1.getByText('Manual controls').click();
  await expect(manual1.getByTestId('plan-lock').first()).toContainText('Unlimited plan');
  await expect(manual1.getByRole('option', { name: 'Manual (Unlimited Only)' })).toBeDisabled();
  // Live preview is manual mode's, as on the single page: not offered here.
  await expect(manual1.getByRole('checkbox', { name: /Live preview/ })).toHaveCount(0);
  await manual1.getByText('Manual controls').click();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page.getByTestId('album-master'), join(shots, `album-master-${width}.png`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Sequencing: gapless, a continuous preview whose playhead jumps, and a transition auditioned.
  await page.getByTestId('album-gap').fill('0');
  await page.getByTestId('album-play').click();
  const playhead = page.getByTestId('album-playhead');
  await expect
    .poll(async () => Number(await playhead.getAttribute('data-position')), { timeout: 10_000 })
    .toBeGreaterThan(0.3);
  await expect(rows.nth(0)).toHaveAttribute('data-current', 'true');
  await page.getByRole('button', { name: 'Play from track 3, Hunting' }).click();
  await expect(rows.nth(2)).toHaveAttribute('data-current', 'true');
  await expect
    .poll(async () => Number(await playhead.getAttribute('data-position')))
    .toBeGreaterThanOrEqual(SECONDS[0]! + SECONDS[1]! - 1);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page.getByTestId('album-sequence'), join(shots, `album-sequence-${width}.png`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page
    .getByTestId('album-transition')
    .nth(0)
    .getByRole('button', { name: 'Audition transition' })
    .click();
  await expect(rows.nth(0)).toHaveAttribute('data-current', 'true');
  // 10 s before the join: the playhead is in the first track's last 10 s, then crosses into the second.
  await expect(rows.nth(1)).toHaveAttribute('data-current', 'true', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Stop' }).click();

  // Download: WAV and MP3 of every track, the continuous FLAC and its CUE; the cost shown first.
  const card = page.getByTestId('album-download');
  await expect(page.getByTestId('album-cost')).toContainText('4 mastering credits');
  await card.getByLabel(/^MP3/).check();
  await card.getByLabel(/continuous file with a CUE sheet/).check();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(card, join(shots, `album-download-${width}.png`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  const before = await currentUser(page.request);
  const spends: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/spend-album')) spends.push(r.postData() ?? '');
  });
  const downloads: Download[] = [];
  page.on('download', (d) => downloads.push(d));
  await page.getByTestId('album-download-button').click();
  const dialog = page.getByRole('dialog', { name: 'Download the album?' });
  await expect(dialog).toContainText('4 mastering credits');
  await dialog.getByTestId('album-confirm').click();
  // The files, then the charge, then the ZIP; a failure says itself in a toast (shown here if it comes).
  const failure = page
    .locator('[role="status"], [role="alert"], li[data-state]')
    .filter({ hasText: /Failed|Error/ });
  const outcome = async () =>
    downloads.length > 0
      ? 'downloaded'
      : (await failure.count()) > 0
        ? await failure.first().innerText()
        : '';
  await expect.poll(outcome, { timeout: 300_000 }).toBe('downloaded');
  const zipPath = testInfo.outputPath('album.zip');
  await downloads[0]!.saveAs(zipPath);
  expect(downloads[0]!.suggestedFilename()).toMatch(/^Debian Nights-\d+\.zip$/);

  // Charged once: one request, four credits, and the same key again changes nothing.
  expect(spends).toHaveLength(1);
  const after = await currentUser(page.request);
  expect(before.masteringCredits - after.masteringCredits).toBe(4);
  expect(after.crowns).toBe(before.crowns);
  const replay = await page.request.post('/api/spend-album', { data: JSON.parse(spends[0]!) });
  expect(replay.ok()).toBe(true);
  expect(((await replay.json()) as { charged: number }).charged).toBe(4);
  expect((await currentUser(page.request)).masteringCredits).toBe(after.masteringCredits);

  // The files.
  const out = testInfo.outputPath('unzipped');
  run('/usr/bin/unzip', ['-q', '-o', zipPath, '-d', out]);
  const names = readdirSync(out).sort();
  const wavs = TITLES.map((t, i) => `0${i + 1} - ${t}.wav`);
  const mp3s = TITLES.map((t, i) => `0${i + 1} - ${t}.mp3`);
  expect(names).toEqual([...wavs, ...mp3s, `${RECORD}.cue`, `${RECORD}.flac`].sort());

  // Loudness of every track on the plan's target; the tone made alike (tilt spread at most half the input's).
  for (const [i, name] of wavs.entries()) {
    const { integrated, truePeak } = ebur128(join(out, name));
    expect(Math.abs(integrated - targets[i]!), `${name}: ${integrated} vs ${targets[i]}`).toBeLessThanOrEqual(
      0.5,
    );
    expect(truePeak).toBeLessThanOrEqual(-0.9);
  }
  const inputTilt = spread(files.map(tiltOf));
  const outputTilt = spread(wavs.map((n) => tiltOf(join(out, n))));
  testInfo.annotations.push({
    type: 'tilt spread (dB)',
    description: `${inputTilt.toFixed(2)} → ${outputTilt.toFixed(2)}`,
  });
  expect(outputTilt).toBeLessThanOrEqual(inputTilt / 2);

  // The continuous record: its tracks start where the CUE says, to the sample.
  const cue = readFileSync(join(out, `${RECORD}.cue`), 'utf8');
  expect(cue).toContain(`TITLE "${RECORD}"`);
  expect(cue).toContain(`PERFORMER "${ARTIST}"`);
  for (const [i, title] of TITLES.entries()) {
    expect(cue).toContain(`TITLE "${title}"`);
    expect(cue).toContain(`ISRC ${ISRCS[i]!.replaceAll('-', '')}`);
  }
  const starts = cueStarts(cue);
  expect(starts).toHaveLength(4);
  const record = samples(join(out, `${RECORD}.flac`));
  let cumulative = 0;
  for (const [i, name] of wavs.entries()) {
    const track = samples(join(out, name));
    // Gapless: each track's file is the record from its CUE start to the next's.
    expect(starts[i]).toBe(cumulative);
    expect(bestOffset(record, track, starts[i]!, 300)).toBe(0);
    cumulative += track.length / 2;
  }
  expect(record.length / 2).toBe(cumulative);

  // Tags read back (WAV, MP3, FLAC).
  const wavTags = tags(join(out, wavs[1]!));
  expect(wavTags.title).toBe('Frontiers');
  expect(wavTags.artist).toBe(ARTIST);
  const mp3Tags = tags(join(out, mp3s[2]!));
  expect(mp3Tags.title).toBe('Hunting');
  expect(mp3Tags.album).toBe(RECORD);
  expect(mp3Tags.artist).toBe(ARTIST);
  expect(mp3Tags.track).toMatch(/^3(\/4)?$/);
  expect(mp3Tags.tsrc ?? mp3Tags.isrc).toBe(ISRCS[2]!.replaceAll('-', ''));
  expect(tags(join(out, `${RECORD}.flac`)).album).toBe(RECORD);

  // The MP3s decoded one after another join without a gap: together exactly the record's length, and at
  // each join they differ from the record no more than in the middle of a track (a gap or a click at a join
  // would differ by the music's own level there).
  const decoded = mp3s.map((n) => samples(join(out, n)));
  const joined = new Float32Array(decoded.reduce((n, d) => n + d.length, 0));
  let at = 0;
  for (const d of decoded) {
    joined.set(d, at);
    at += d.length;
  }
  expect(joined.length).toBe(record.length);
  const errorDb = (from: number, frames: number) => {
    const diff = new Float32Array(2 * frames);
    for (let k = 0; k < diff.length; k++) diff[k] = joined[2 * from + k]! - record[2 * from + k]!;
    return rmsDb(diff, 0, diff.length) - rmsDb(record, 2 * from, 2 * (from + frames));
  };
  for (let i = 1; i < 4; i++) {
    const atJoin = errorDb(starts[i]! - 2048, 4096);
    const inTrack = errorDb(starts[i]! - RATE * 5, 4096);
    testInfo.annotations.push({
      type: `MP3 join ${i}`,
      description: `${atJoin.toFixed(1)} dB (mid-track ${inTrack.toFixed(1)} dB)`,
    });
    expect(atJoin).toBeLessThanOrEqual(Math.max(inTrack + 6, -30));
  }

  // A crossfade on the first transition overlaps the two tracks on the record (3 s of ~79 s).
  await page
    .getByTestId('album-transition')
    .nth(0)
    .getByLabel(/Crossfade/)
    .check();
  const segments = page.getByTestId('album-timeline').getByRole('button');
  const first = (await segments.nth(0).boundingBox())!;
  const second = (await segments.nth(1).boundingBox())!;
  expect(second.x).toBeLessThan(first.x + first.width - 10);

  // Kept in the library as paid masters are (decision 226): the very ZIP, downloaded again byte for byte
  // from the library's own link, with no charge.
  type Kept = { kind: string; name: string; files: { url: string }[]; keptUntil: string };
  const keptAlbum = async () =>
    ((await (await page.request.get('/api/library')).json()) as { items: Kept[] }).items.find(
      (i) => i.kind === 'master' && i.name === RECORD,
    );
  await expect.poll(async () => (await keptAlbum())?.files.length ?? 0, { timeout: 60_000 }).toBe(1);
  await page.goto('/library');
  const libraryRow = page.getByTestId('library-item').filter({ hasText: RECORD });
  await expect(libraryRow).toContainText('Album of 4 tracks');
  await expect(libraryRow).toContainText('Paid for: 4 tracks in');
  const [again] = await Promise.all([
    page.waitForEvent('download'),
    libraryRow.getByRole('button', { name: 'Download again' }).click(),
  ]);
  const againPath = testInfo.outputPath('album-again.zip');
  await again.saveAs(againPath);
  const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
  expect(sha(againPath)).toBe(sha(zipPath));
  const afterAgain = await currentUser(page.request);
  expect([afterAgain.masteringCredits, afterAgain.crowns]).toEqual([after.masteringCredits, after.crowns]);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(libraryRow, join(shots, `album-library-${width}.png`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('the album view works at 375 px on touch', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  const files = cuts(testInfo.outputPath('audio')).slice(0, 2);
  await signUp(page, 'pro');
  await openAlbum(page);
  await addTracks(page, files);
  await page.screenshot({ path: testInfo.outputPath('album-375-touch-added.png'), fullPage: true });
  // Nothing wider than the screen; the move buttons are big enough to tap and work by tap.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const down = page.getByRole('button', { name: 'Move 1-strike down' });
  const box = await down.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(36);
  await down.tap();
  await expect(page.getByTestId('album-track').nth(1).getByLabel('Title of track 2')).toHaveValue('1-strike');
  // A saved upload joins from the library (GET /api/library), by taps.
  const saved = await page.request.post('/api/tracks', {
    multipart: {
      type: 'instrumental',
      name: 'Saved beat',
      duration: '0',
      audio: { name: 'saved-beat.wav', mimeType: 'audio/wav', buffer: readFileSync(files[0]!) },
    },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  await page.getByTestId('album-library-toggle').tap();
  await page
    .getByTestId('album-library')
    .getByLabel(/Saved beat/)
    .tap();
  await page.getByRole('button', { name: 'Add 1 track' }).tap();
  await expect(page.getByTestId('album-track')).toHaveCount(3);
  await expect(page.getByLabel('Title of track 3')).toHaveValue('Saved beat');
  await expect(page.getByTestId('album-track').nth(2)).toHaveAttribute('data-state', 'ready', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('album-master-button')).toBeEnabled();
  // The loudness plan: a distance of 0 LU under the loudest puts that track at the preset's target.
  await page.getByLabel('LU under the loudest, track 2').fill('0');
  await expect(page.getByTestId('album-planned-lufs').nth(1)).toHaveText('-14.0');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: testInfo.outputPath('album-375-touch.png'), fullPage: true });
  await context.close();
});
