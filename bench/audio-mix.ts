/**
 * Mixdown benchmark in headless Chromium:
 *   npx tsx bench/audio-mix.ts            (4- and 10-minute stereo 44.1 kHz instrumental + mono vocal)
 *   npx tsx bench/audio-mix.ts 240        (only the given lengths, in seconds)
 * Our mix worker (seven stages: organise, loudness match, pan, EQ, vocal compressor, reverb, true-peak
 * limiter) against ffmpeg running a comparable graph single-threaded in the same run (amix of a high-passed,
 * peaking-EQ'd, compressed, reverberated vocal with a dipped instrumental, then alimiter). The job includes
 * sending both sources to the worker; ours and ffmpeg run in paired rounds of alternating order
 * (bench/paired-rounds.ts, BENCH_RUNS rounds). "main stall" is the longest main-thread block during the job.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHarness } from '../e2e/audio-harness-mix/harness-browser';
import { musicLike, voiceLike } from '../e2e/audio-harness-mix/harness-signals';
import { encodeWav } from '../src/audio/codecs/wav-encoder';
import { type BenchRow, printTable, runJobRounds, timeCommand } from './audio-encode-table';
import { label, printEnvironment } from './paired-rounds';

const lengths = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SECONDS = lengths.length ? lengths : [240, 600];
const SR = 44_100;

const FFMPEG_GRAPH = [
  '[0:a]highpass=f=80,equalizer=f=3500:t=q:w=0.9:g=2.5,acompressor=threshold=0.1:ratio=3:attack=5:release=120,',
  'aecho=0.8:0.5:40|57:0.25|0.2,pan=stereo|c0=c0|c1=c0[v];',
  '[1:a]equalizer=f=2500:t=q:w=0.8:g=-2.5[i];',
  '[v][i]amix=inputs=2:normalize=0,alimiter=limit=0.89:level=0',
].join('');

const dir = mkdtempSync(join(tmpdir(), 'bench-mix-'));
const { page, browser, close } = await openHarness(['mix-worker']);
printEnvironment(browser.version());
const rows: BenchRow[] = [];
try {
  for (const seconds of SECONDS) {
    const track = `${label(seconds)} stereo`;
    const vocal = join(dir, 'vocal.wav');
    const inst = join(dir, 'inst.wav');
    writeFileSync(
      vocal,
      Buffer.concat(encodeWav(voiceLike(seconds, SR), SR, { dither: false, maxBytes: Infinity })),
    );
    writeFileSync(
      inst,
      Buffer.concat(encodeWav(musicLike(seconds, SR, 2, 3), SR, { dither: false, maxBytes: Infinity })),
    );
    const ffmpeg = () =>
      timeCommand('/usr/bin/ffmpeg', [
        ...['-v', 'error', '-y', '-filter_threads', '1', '-i', vocal, '-i', inst],
        ...['-filter_complex', FFMPEG_GRAPH, '-f', 'f32le', '-c:a', 'pcm_f32le', join(dir, 'mix.raw')],
      ]);
    const ours = await runJobRounds(browser, page, 'mixdown', seconds, ffmpeg);
    rows.push({
      job: 'mixdown render',
      track,
      ...ours,
      reference: 'ffmpeg equivalent graph',
      target: 1.0,
      note: 'stall target < 50 ms',
    });
  }
} finally {
  await close();
  rmSync(dir, { recursive: true, force: true });
}
printTable('Mixdown benchmark (headless Chromium, cold worker)', rows);
