import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { decodeWithFfmpeg } from '../src/audio/dsp/node-tools.test-helper';
import { measureVocalClarity, singingBlocks } from '../src/audio/dsp/vocal-clarity';
import { carveBeat } from '../src/audio/dsp/vocal-space';
import {
  BEATS,
  espeakVocal,
  LYRICS,
  ratioOverBlocks,
  realBeat,
  rmsDb,
  soxBand,
  soxRiseDb,
} from '../src/audio/dsp/vocal-space.test-helper';
import { MixClient } from '../src/audio/workers/mix-client';
import { createMixHandlers } from '../src/audio/workers/mix-handlers';
import type { MixApi } from '../src/audio/workers/mix-protocol';
import { type RpcEndpoint, serveRpc } from '../src/audio/workers/worker-rpc';
import type { MixArrangement } from '../src/shared/api/tracks';
import { masterTrack, maxLevel, openMastering, upload, waitForSource } from './helpers/mastering-page';
import { signUp } from './helpers/mastering-users';
import { wavBytes } from './helpers/mixer-audio';
import { expect, test } from './helpers/web-fixtures';

/**
 * Issue 18 "Vocal space", end to end: a spoken vocal (espeak-ng) over a real produced beat, saved as a mixer
 * mix with its arrangement, opened on the mastering page. The figure the page shows is the vocal-band ratio
 * rise the same engine measures on the same stems in Node, and sox's FIR band filter measures it too;
 * 'Master Track' carves before the master, and the downloaded Instrumental and A cappella of a master with
 * and one without Vocal space show the same rise.
 */
const RATE = 44_100;

/** The mix handlers over a MessageChannel: the mixer's own renderer, here in Node. */
const mixClient = () =>
  new MixClient(() => {
    const channel = new MessageChannel();
    serveRpc<MixApi>(channel.port2 as unknown as RpcEndpoint, createMixHandlers());
    return channel.port1 as unknown as Worker;
  });

const uploadTrack = async (
  page: Page,
  type: string,
  name: string,
  bytes: Buffer,
  arrangement?: MixArrangement,
) => {
  const res = await page.request.post('/api/tracks', {
    multipart: {
      audio: { name: `${name}.wav`, mimeType: 'audio/wav', buffer: bytes },
      type,
      name,
      duration: '0',
      ...(arrangement ? { arrangement: JSON.stringify(arrangement) } : {}),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
};

/**
 * A spoken vocal 6 dB under a real beat, uploaded as the two sources and as a mixer mix with its arrangement
 * (the mixdown rendered by the mixer's own renderer, as the page renders it again); null when espeak-ng or
 * the music is not installed.
 */
const prepareMix = async (page: Page, testInfo: TestInfo, plan: 'pro' | 'unlimited') => {
  const spoken = await espeakVocal(LYRICS, RATE);
  if (!spoken) return null;
  const frames = spoken[0]!.length;
  const beatSource = await realBeat(BEATS[0]!, RATE, 30, frames);
  if (!beatSource) return null;
  // The vocal 6 dB under the beat: a dense beat that masks it.
  const g = 10 ** ((rmsDb(beatSource) - 6 - rmsDb(spoken)) / 20);
  const vocalSource = spoken.map((c) => c.map((x) => x * g));

  const dir = testInfo.outputPath('audio');
  await mkdir(dir, { recursive: true });
  const vocalBytes = wavBytes({ sampleRate: RATE, channels: vocalSource });
  const beatBytes = wavBytes({ sampleRate: RATE, channels: beatSource });
  // The sources as the page decodes them (16-bit PCM back to float).
  await writeFile(`${dir}/vocal.wav`, vocalBytes);
  await writeFile(`${dir}/beat.wav`, beatBytes);
  const vocals = (await decodeWithFfmpeg(`${dir}/vocal.wav`, RATE))!;
  const instrumental = (await decodeWithFfmpeg(`${dir}/beat.wav`, RATE))!;

  await signUp(page, plan);
  const vocalTrackId = await uploadTrack(page, 'vocals', 'Spoken vocal', vocalBytes);
  const instrumentalTrackId = await uploadTrack(page, 'instrumental', 'Machine wars', beatBytes);
  const arrangement: MixArrangement = {
    vocalTrackId,
    instrumentalTrackId,
    sampleRate: RATE,
    length: frames,
    vocalShare: 50,
    outputVolume: 80,
    clips: [
      { id: 'v', trackType: 'vocals', sourceStart: 0, sourceEnd: frames, position: 0 },
      { id: 'i', trackType: 'instrumental', sourceStart: 0, sourceEnd: frames, position: 0 },
    ],
  };
  // The mixdown and its stems, rendered by the mixer's own renderer (as the page will render them again).
  const mixer = mixClient();
  await mixer.setSource('vocals', vocals, RATE);
  await mixer.setSource('instrumental', instrumental, RATE);
  const timeline = { clips: arrangement.clips, sampleRate: RATE, length: frames };
  const rendered = await mixer.stems(timeline, { vocalShare: 50, outputVolume: 80 });
  mixer.dispose();
  const mixId = await uploadTrack(
    page,
    'mixed',
    'Final Mix',
    wavBytes({ sampleRate: RATE, channels: rendered.channels }),
    arrangement,
  );

  return { mixId, stems: rendered.stems };
};

test('Vocal space on a mixer mix: the figure shown is the vocal-band rise of the stems and of the downloaded versions', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const mix = await prepareMix(page, testInfo, 'pro');
  test.skip(!mix, 'espeak-ng or asc-music is not installed');
  const { mixId, stems } = mix!;
  await openMastering(page, `?trackId=${mixId}`);
  await waitForSource(page);
  const control = page.getByTestId('vocal-space');
  // Available once the stems are rendered again; 0 = off.
  await expect(control).toHaveAttribute('data-state', 'off', { timeout: 120_000 });
  await page.getByLabel('Vocal space').focus();
  await page.keyboard.press('End');
  await expect(control).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
  const text = (await page.getByTestId('vocal-clarity').textContent()) ?? '';
  const shown = Number(text.match(/^([+-]\d+\.\d) dB vocal clarity$/)?.[1]);

  // The same carve of the same stems in Node, and the rise by sox's FIR band filter (independent).
  const carved = stems.instrumental.map((c) => c.slice());
  const profile = await carveBeat(carved, stems.vocals, RATE, { amount: 100 });
  const engine = measureVocalClarity(stems.vocals, stems.instrumental, carved, RATE, profile);
  // An independent measurement of the same rise: sox's FIR band filter over the same singing blocks.
  const soxRise = await soxRiseDb(stems.vocals, stems.instrumental, carved, RATE, profile);
  const figures = `shown ${text}; engine in Node +${engine.clarityDb.toFixed(2)} dB (${engine.before.ratioDb.toFixed(2)} -> ${engine.after.ratioDb.toFixed(2)} dB); sox +${soxRise.toFixed(2)} dB`;
  testInfo.annotations.push({ type: 'vocal clarity', description: figures });
  console.log(`[vocal space] ${figures}`);
  expect(shown).toBeGreaterThanOrEqual(1);
  expect(Math.abs(shown - engine.clarityDb)).toBeLessThanOrEqual(0.051);
  expect(Math.abs(shown - soxRise)).toBeLessThanOrEqual(0.3);
  await expect(page.getByTestId('vocal-clarity-ratio')).toContainText(
    `${engine.before.ratioDb.toFixed(1)} dB → ${engine.after.ratioDb.toFixed(1)} dB`,
  );

  // Screenshots of the control with its figure, as a user sees it.
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 900 : 1000 });
    await control.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`vocal-space-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 1000 });

  // Master Track carves the beat first (its own status line), then masters as usual.
  const { statuses } = await masterTrack(page, 240_000);
  expect(statuses[0]).toBe('Making space for the vocal...');
  await expect(page.getByTestId('vocal-clarity')).toHaveText(text);
  const withSpace = await downloadBeatAndVocal(page, testInfo, 'with-space');

  // The same master without Vocal space: the exported versions show the rise the page announced.
  await page.getByLabel('Vocal space').focus();
  await page.keyboard.press('Home');
  await expect(control).toHaveAttribute('data-state', 'off');
  const again = await masterTrack(page, 240_000);
  expect(again.statuses[0]).not.toBe('Making space for the vocal...');
  const without = await downloadBeatAndVocal(page, testInfo, 'without');
  // A cappella over Instrumental in each master's delivered WAVs (one master's gains on both, so the ratio
  // does not depend on that master's level), 1-5 kHz by sox, over the same singing blocks: with minus without.
  const gate = singingBlocks(stems.vocals, RATE, profile);
  const exportedRatio = async (v: { acappella: Float32Array[]; instrumental: Float32Array[] }) => {
    const [a, b] = await Promise.all([
      soxBand(v.acappella, RATE, 1000, 5000),
      soxBand(v.instrumental, RATE, 1000, 5000),
    ]);
    return ratioOverBlocks(a, b, gate);
  };
  const exportedRise = (await exportedRatio(withSpace)) - (await exportedRatio(without));
  console.log(`[vocal space] exported versions: +${exportedRise.toFixed(2)} dB (shown ${text})`);
  expect(Math.abs(exportedRise - shown)).toBeLessThanOrEqual(0.3);
});

/**
 * Downloads the Instrumental and A cappella versions of the current master as WAV (one ZIP, one credit) and
 * returns them decoded by ffmpeg.
 */
const downloadBeatAndVocal = async (page: Page, testInfo: TestInfo, tag: string) => {
  await page.getByTestId('download-button').click();
  const dialog = page.getByRole('dialog', { name: 'Choose Download Format' });
  const choices = dialog.getByTestId('version-choices');
  await choices.getByLabel('Instrumental').check();
  await choices.getByLabel('A cappella').check();
  const download = page.waitForEvent('download', { timeout: 240_000 });
  await dialog.getByRole('button', { name: 'Download (1 format(s))' }).click();
  const zip = await download;
  const zipPath = testInfo.outputPath(`${tag}.zip`);
  await zip.saveAs(zipPath);
  const out = testInfo.outputPath(tag);
  await mkdir(out, { recursive: true });
  const unzip = spawnSync('/usr/bin/unzip', ['-q', '-o', zipPath, '-d', out], { encoding: 'utf8' });
  expect(unzip.status, unzip.stderr).toBe(0);
  const file = (version: string) => {
    const name = readdirSync(out).find((n) => n.endsWith(`-${version}.wav`));
    if (!name) throw new Error(`no ${version} WAV in ${readdirSync(out).join(', ')}`);
    return join(out, name);
  };
  return {
    instrumental: (await decodeWithFfmpeg(file('instrumental'), RATE))!,
    acappella: (await decodeWithFfmpeg(file('acappella'), RATE))!,
  };
};

test('Vocal space live: in manual mode the stems play through the worklet (beat and vocal inputs) while the slider moves; a single file has no control', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const mix = await prepareMix(page, testInfo, 'unlimited');
  test.skip(!mix, 'espeak-ng or asc-music is not installed');
  await openMastering(page, `?trackId=${mix!.mixId}`);
  await waitForSource(page);
  const control = page.getByTestId('vocal-space');
  await expect(control).toHaveAttribute('data-state', 'off', { timeout: 120_000 });
  await page.getByLabel('Mode').selectOption('manual');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.getByText('Live preview: you hear your manual settings')).toBeVisible();
  // Sound flows through the two-input chain, before and after the carve is switched on.
  await expect.poll(() => maxLevel(page, 300), { timeout: 15_000 }).toBeGreaterThan(5);
  await page.getByLabel('Vocal space').focus();
  await page.keyboard.press('End');
  await expect(control).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
  await expect.poll(() => maxLevel(page, 300), { timeout: 15_000 }).toBeGreaterThan(5);
  await expect(page.getByTestId('vocal-clarity')).toHaveText(/^\+\d+\.\d dB vocal clarity$/);
  await page.getByRole('button', { name: 'Stop' }).click();

  // A single uploaded file has no stems: no Vocal space control at all.
  await page.getByRole('button', { name: 'Upload different file' }).click();
  await upload(page, testInfo.outputPath('audio', 'beat.wav'));
  await waitForSource(page);
  await expect(page.getByTestId('mastering-controls')).toBeVisible();
  await expect(page.getByTestId('vocal-space')).toHaveCount(0);
});
