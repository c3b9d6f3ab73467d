/**
 * The album e2e specs' audio and page helpers (issue 31): four cuts of real music from Debian's packages (one
 * made 8 dB quieter, one made dull), ffmpeg/ffprobe readers of the delivered files, and the album view's
 * common steps.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { tiltDb } from '../../src/audio/album/album-figures';
import { analyseTrack } from '../../src/audio/dsp/track-analysis';
import { expect } from './web-fixtures';

export const RATE = 44_100;
/** Lengths that are not whole CUE frames (1/75 s), so the gapless joins must be placed to the sample. */
export const SECONDS = [20, 19.37, 21.113, 18.9];
/** Four real tracks: file, where the cut starts (s), and what is done to it. */
export const SOURCES = [
  { name: 'strike', file: '/usr/share/games/asc/music/time_to_strike.mp3', at: 30, af: null },
  { name: 'frontiers', file: '/usr/share/games/asc/music/frontiers.mp3', at: 90, af: 'volume=-8dB' },
  {
    name: 'hunting',
    file: '/usr/share/hyperrogue/music/hr-domina-hunting.ogg',
    at: 30,
    af: 'treble=g=-14:f=3000',
  },
  { name: 'machines', file: '/usr/share/games/asc/music/machine_wars.mp3', at: 30, af: null },
];
export const TITLES = ['Strike', 'Frontiers', 'Hunting', 'Machines'];
export const ISRCS = ['GB-ABC-26-00001', 'GB-ABC-26-00002', 'GB-ABC-26-00003', 'GB-ABC-26-00004'];
export const RECORD = 'Debian Nights';
export const ARTIST = 'The Packagers';

export const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { maxBuffer: 1024 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr?.toString().slice(-400)}`);
  return r;
};

/** The four cuts as 44.1 kHz stereo WAVs (the quiet and the dull one processed by ffmpeg). */
export const cuts = (dir: string): string[] => {
  mkdirSync(dir, { recursive: true });
  return SOURCES.map((s, i) => {
    const path = join(dir, `${i + 1}-${s.name}.wav`);
    const filter = s.af ? ['-af', s.af] : [];
    run('/usr/bin/ffmpeg', [
      '-v',
      'error',
      '-y',
      '-ss',
      String(s.at),
      '-t',
      String(SECONDS[i]),
      '-i',
      s.file,
      ...filter,
      '-ar',
      String(RATE),
      '-ac',
      '2',
      path,
    ]);
    return path;
  });
};

/** Stereo float samples decoded by ffmpeg (interleaved). */
export const samples = (path: string): Float32Array => {
  const b = run('/usr/bin/ffmpeg', [
    '-v',
    'error',
    '-i',
    path,
    '-f',
    'f32le',
    '-ac',
    '2',
    '-ar',
    String(RATE),
    '-',
  ]).stdout;
  return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
};

export const deinterleave = (x: Float32Array): Float32Array[] => {
  const n = x.length / 2;
  const l = new Float32Array(n);
  const r = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    l[i] = x[2 * i]!;
    r[i] = x[2 * i + 1]!;
  }
  return [l, r];
};

/** The tilt (albumcore's figure: 4-16 kHz minus 250 Hz-1 kHz) of a file, decoded by ffmpeg. */
export const tiltOf = (path: string): number => tiltDb(analyseTrack(deinterleave(samples(path)), RATE).midDb);

export const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);

export const tags = (path: string): Record<string, string> => {
  const out = JSON.parse(
    run('/usr/bin/ffprobe', ['-v', 'error', '-show_format', '-of', 'json', path]).stdout.toString(),
  ) as { format: { tags?: Record<string, string> } };
  return Object.fromEntries(Object.entries(out.format.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
};

/** The track starts of a CUE sheet, in samples (mm:ss:ff, 75 frames a second). */
export const cueStarts = (text: string): number[] =>
  [...text.matchAll(/INDEX 01 (\d+):(\d+):(\d+)/g)].map(
    ([, m, s, f]) => ((Number(m) * 60 + Number(s)) * 75 + Number(f)) * (RATE / 75),
  );

/** The offset (within ±search samples) at which `piece` best matches `whole` near `at` (left channel). */
export const bestOffset = (whole: Float32Array, piece: Float32Array, at: number, search: number): number => {
  const n = 4096;
  let best = 0;
  let bestError = Number.POSITIVE_INFINITY;
  for (let d = -search; d <= search; d++) {
    let e = 0;
    for (let i = 0; i < n; i++) {
      const w = whole[2 * (at + d + i)] ?? 0;
      e += (w - piece[2 * i]!) ** 2;
    }
    if (e < bestError) {
      bestError = e;
      best = d;
    }
  }
  return best;
};

export const rmsDb = (x: Float32Array, from: number, to: number): number => {
  let s = 0;
  for (let i = from; i < to; i++) s += x[i]! ** 2;
  return 10 * Math.log10(s / Math.max(1, to - from) + 1e-20);
};

export const shot = async (target: Locator, path: string) => {
  await target.scrollIntoViewIfNeeded();
  // The site header is sticky: in a shot of a scrolled card it would sit over the card's top.
  await target.screenshot({
    path,
    animations: 'disabled',
    style: 'header.sticky { position: static !important; }',
  });
};

export const openAlbum = async (page: Page) => {
  await page.goto('/mastering');
  await expect(page.locator('[data-state="ready"]').first()).toBeVisible();
  await page.getByTestId('album-mode').click();
  await expect(page).toHaveURL(/mode=album/);
  await expect(page.getByTestId('album').or(page.getByTestId('album-locked'))).toBeVisible();
};

export const addTracks = async (page: Page, files: string[]) => {
  await page.getByLabel('Add audio files').setInputFiles(files);
  const rows = page.getByTestId('album-track');
  await expect(rows).toHaveCount(files.length);
  for (let i = 0; i < files.length; i++)
    await expect(rows.nth(i)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
};
