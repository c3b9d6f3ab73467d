/**
 * Encoder and peaks benchmark, in headless Chromium against native references measured in the same run:
 *   npx tsx bench/audio-encode.ts            (4- and 10-minute stereo 44.1 kHz tracks)
 *   npx tsx bench/audio-encode.ts 240        (only the given lengths, in seconds)
 *   BENCH_JOBS=wav npx tsx bench/audio-encode.ts   (only the named jobs of mp3, wav, peaks)
 * MP3: our encoder client (LAME in WebAssembly, 320 kbps CBR; tracks of 20 s or more split over two workers
 * and joined at a frame, docs/decisions/071) vs `lame -b 320 --cbr`; WAV: our worker (16-bit, TPDF
 * dither) vs ffmpeg converting float to 16-bit with triangular dither; peaks: absolute time.
 * Every figure is a cold run on a fresh worker, as a one-shot export is, in paired rounds of alternating order
 * with its reference (bench/paired-rounds.ts, BENCH_RUNS rounds); "main stall" is the longest time
 * the page's main thread was blocked during the job (target < 50 ms).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHarness } from '../e2e/audio-harness-mix/harness-browser';
import { musicLike } from '../e2e/audio-harness-mix/harness-signals';
import { encodeWav } from '../src/audio/codecs/wav-encoder';
import { type BenchRow, printTable, runJobRounds, timeCommand } from './audio-encode-table';
import { label, printEnvironment } from './paired-rounds';

const lengths = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SECONDS = lengths.length ? lengths : [240, 600];
const SR = 44_100;
const JOBS = new Set((process.env.BENCH_JOBS ?? 'mp3,wav,peaks').split(',').map((j) => j.trim()));

const dir = mkdtempSync(join(tmpdir(), 'bench-encode-'));
const { page, browser, close } = await openHarness(['encode-worker', 'peaks-worker']);
printEnvironment(browser.version());
const rows: BenchRow[] = [];
try {
  for (const seconds of SECONDS) {
    const track = `${label(seconds)} stereo`;
    // The same material the page generates, on disk for the native tools.
    const channels = musicLike(seconds, SR, 2, 1);
    const wav = join(dir, `in-${seconds}.wav`);
    writeFileSync(wav, Buffer.concat(encodeWav(channels, SR, { dither: false, maxBytes: Infinity })));
    const raw = join(dir, `in-${seconds}.f32`);
    const interleaved = new Float32Array(channels[0]!.length * 2);
    for (let i = 0; i < channels[0]!.length; i++) {
      interleaved[2 * i] = channels[0]![i]!;
      interleaved[2 * i + 1] = channels[1]![i]!;
    }
    writeFileSync(raw, new Uint8Array(interleaved.buffer));

    if (JOBS.has('mp3')) {
      const lame = () =>
        timeCommand('/usr/bin/lame', ['-S', '-b', '320', '--cbr', wav, join(dir, 'lame.mp3')]);
      const mp3 = await runJobRounds(browser, page, 'mp3', seconds, lame);
      rows.push({
        job: 'MP3 320k encode',
        track,
        ...mp3,
        reference: 'lame -b 320 --cbr',
        target: 1.0,
        note: mp3.last.error ?? `${(mp3.last.bytes / 1e6).toFixed(1)} MB, two workers`,
      });
    }

    if (JOBS.has('wav')) {
      const ffmpegWav = () =>
        timeCommand('/usr/bin/ffmpeg', [
          ...['-v', 'error', '-y', '-filter_threads', '1', '-f', 'f32le', '-ar', String(SR), '-ac', '2'],
          ...['-i', raw, '-af', 'aresample=osf=s16:dither_method=triangular', '-c:a', 'pcm_s16le'],
          join(dir, 'ffmpeg.wav'),
        ]);
      const wavOurs = await runJobRounds(browser, page, 'wav', seconds, ffmpegWav);
      rows.push({
        job: 'WAV 16-bit encode',
        track,
        ...wavOurs,
        reference: 'ffmpeg s16 tpdf',
        target: 1.0,
        note: wavOurs.last.error
          ? `refused: ${wavOurs.last.error} (spec cap 100 MB)`
          : `${(wavOurs.last.bytes / 1e6).toFixed(1)} MB`,
      });
    }

    if (JOBS.has('peaks')) {
      const peaks = await runJobRounds(browser, page, 'peaks', seconds);
      rows.push({ job: 'peaks (7 zoom levels)', track, ...peaks, targetText: 'stall < 50 ms' });
    }
  }
} finally {
  await close();
  rmSync(dir, { recursive: true, force: true });
}
printTable('Audio encode benchmark (headless Chromium, cold workers)', rows);
