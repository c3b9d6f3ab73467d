/**
 * Issue 31 item 2, "versions for mixes", end to end: a mix made in the mixer (a spoken vocal by espeak-ng over
 * a real beat from Debian's asc-music) joins an album beside a plain cut, is mastered from its stems with its
 * versions under the album's plan, and the download carries its Instrumental and A cappella besides the
 * record, for one credit per track (two), the versions recorded with the spend. The versions line up with the
 * Main sample for sample: Instrumental + A cappella is the Main's file (decision 150's shared gains).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Download } from '@playwright/test';
import { cuts, openAlbum, run, samples, shot } from './helpers/album-audio';
import { currentUser, signUp } from './helpers/mastering-users';
import { createMixdown, loadAndApply } from './helpers/mixer-page';
import { expect, test, toastWith } from './helpers/web-fixtures';

test("a mix's versions in the album download, lined up with its Main, for one credit per track", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const dir = testInfo.outputPath('audio');
  const [cut] = cuts(dir);
  const beat = join(dir, 'beat.wav');
  const voice = join(dir, 'voice.wav');
  run('/usr/bin/ffmpeg', [
    '-v',
    'error',
    '-y',
    '-t',
    '24',
    '-i',
    '/usr/share/games/asc/music/frontiers.mp3',
    '-ar',
    '44100',
    beat,
  ]);
  const text = 'Master your album. Every version lines up with the main. '.repeat(2);
  expect(spawnSync('espeak-ng', ['-s', '140', '-w', voice, text]).status).toBe(0);
  const shots = testInfo.outputPath('screenshots');
  mkdirSync(shots, { recursive: true });
  await signUp(page, 'pro');

  // The mixer: both tracks on the timeline, the mixdown saved with its arrangement (its stems' recipe).
  await page.goto('/mixer');
  await loadAndApply(page, voice, beat);
  await createMixdown(page, 120_000);
  await expect(page.getByTestId('final-mix').getByRole('link', { name: 'Export to Mastering' })).toBeVisible({
    timeout: 60_000,
  });
  const library = (await (await page.request.get('/api/library')).json()) as {
    items: { kind: string; name: string }[];
  };
  const mix = library.items.find((i) => i.kind === 'mix')!;
  expect(mix).toBeTruthy();

  // The album: the mix first (from the library), then a plain cut; the mixes mastered with their versions.
  await openAlbum(page);
  await page.getByTestId('album-library-toggle').click();
  await page.getByTestId('album-library').getByLabel(mix.name).check();
  await page.getByRole('button', { name: 'Add 1 track' }).click();
  await expect(page.getByTestId('album-track').nth(0)).toHaveAttribute('data-state', 'ready', {
    timeout: 60_000,
  });
  await page.getByLabel('Add audio files').setInputFiles([cut!]);
  await expect(page.getByTestId('album-track')).toHaveCount(2);
  await expect(page.getByTestId('album-track').nth(1)).toHaveAttribute('data-state', 'ready', {
    timeout: 60_000,
  });
  await page.getByLabel('Title of track 1').fill('Spoken');
  await page.getByLabel('Title of track 2').fill('Strike');
  await page.getByTestId('album-with-versions').check();
  await page.getByTestId('album-master-button').click();
  await expect(page.getByTestId('album-progress')).toHaveAttribute('data-state', 'done', {
    timeout: 360_000,
  });
  // The toast at the bottom would cover the card in its screenshot.
  await expect(toastWith(page, 'Mastering Complete')).toBeHidden({ timeout: 15_000 });

  // The download: WAV, the Instrumental and the A cappella of the mix, for two credits (one per track).
  const card = page.getByTestId('album-download');
  const versions = card.getByTestId('album-versions');
  await expect(versions).toContainText('Versions of the mix besides the main (no extra charge)');
  await versions.getByLabel('Instrumental').check();
  await versions.getByLabel('A cappella').check();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(card, join(shots, `album-download-versions-${width}.png`));
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
  await expect(dialog).toContainText("the mixes' versions too");
  await dialog.getByTestId('album-confirm').click();
  await expect.poll(() => downloads.length, { timeout: 300_000 }).toBe(1);
  const zip = testInfo.outputPath('album.zip');
  await downloads[0]!.saveAs(zip);
  expect(spends).toHaveLength(1);
  const sent = JSON.parse(spends[0]!) as { album: { tracks: { title: string; versions?: string[] }[] } };
  expect(sent.album.tracks).toEqual([
    expect.objectContaining({ title: 'Spoken', versions: ['instrumental', 'acappella'] }),
    { title: 'Strike' },
  ]);
  const after = await currentUser(page.request);
  expect(before.masteringCredits - after.masteringCredits).toBe(2);

  const out = testInfo.outputPath('unzipped');
  run('/usr/bin/unzip', ['-q', '-o', zip, '-d', out]);
  expect(readdirSync(out).sort()).toEqual(['01 - Spoken.wav', '02 - Strike.wav', 'Versions']);
  expect(readdirSync(join(out, 'Versions')).sort()).toEqual([
    '01 - Spoken-acappella.wav',
    '01 - Spoken-instrumental.wav',
  ]);
  // Lined up: Instrumental + A cappella is the Main (the record's first track, before its gap), within the
  // 16-bit dither of three files.
  const main = samples(join(out, '01 - Spoken.wav'));
  const inst = samples(join(out, 'Versions', '01 - Spoken-instrumental.wav'));
  const acap = samples(join(out, 'Versions', '01 - Spoken-acappella.wav'));
  expect(inst.length).toBe(acap.length);
  expect(main.length).toBeGreaterThanOrEqual(inst.length);
  let signal = 0;
  let error = 0;
  for (let i = 0; i < inst.length; i++) {
    signal += main[i]! ** 2;
    error += (main[i]! - inst[i]! - acap[i]!) ** 2;
  }
  const residualDb = 10 * Math.log10(error / signal);
  testInfo.annotations.push({ type: 'versions residual (dB)', description: residualDb.toFixed(1) });
  expect(residualDb).toBeLessThan(-40);
});
