/**
 * Encoder and peaks benchmark, in headless Chromium against native references measured in the same run:
 *   npx tsx bench/audio-encode.ts            (4- and 10-minute stereo 44.1 kHz tracks)
 *   npx tsx bench/audio-encode.ts 240        (only the given lengths, in seconds)
 * MP3: our encoder client (LAME in WebAssembly, 320 kbps CBR; tracks of 20 s or more split over two workers
 * and joined at a frame, docs/decisions/071) vs `lame -b 320 --cbr`; WAV: our worker (16-bit, TPDF
 * dither) vs ffmpeg converting float to 16-bit with triangular dither; peaks: absolute time.
 * Every figure is a cold run on a fresh worker, as a one-shot export is; "main stall" is the longest time
 * the page's main thread was blocked during the job (target < 50 ms).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHarness } from '../e2e/audio-harness-mix/harness-browser';
import { musicLike } from '../e2e/audio-harness-mix/harness-signals';
import { encodeWav } from '../src/audio/codecs/wav-encoder';
import { type BenchRow, printTable, runJob, timeCommand } from './audio-encode-table';

const lengths = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SECONDS = lengths.length ? lengths : [240, 600];
const SR = 44_100;

const dir = mkdtempSync(join(tmpdir(), 'bench-encode-'));
const { page, browser, close } = await openHarness(['encode-worker', 'peaks-worker']);
const rows: BenchRow[] = [];
try {
  for (const seconds of SECONDS) {
    const track = `${seconds / 60} min stereo`;
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

    const lameMs = timeCommand('/usr/bin/lame', ['-S', '-b', '320', '--cbr', wav, join(dir, 'lame.mp3')]);
    const mp3 = await runJob(browser, page, 'mp3', seconds);
    rows.push({
      job: 'MP3 320k encode',
      track,
      oursMs: mp3.ms,
      reference: 'lame -b 320 --cbr',
      referenceMs: lameMs,
      target: '<= 1.5x',
      stallMs: mp3.stallMs,
      taskCpuMs: mp3.taskCpuMs,
      idleStallMs: mp3.idleStallMs,
      note: mp3.error ?? `${(mp3.bytes / 1e6).toFixed(1)} MB`,
    });

    const ffmpegWavMs = timeCommand('/usr/bin/ffmpeg', [
      ...[
        '-v',
        'error',
        '-y',
        '-filter_threads',
        '1',
        '-f',
        'f32le',
        '-ar',
        String(SR),
        '-ac',
        '2',
        '-i',
        raw,
      ],
      ...['-af', 'aresample=osf=s16:dither_method=triangular', '-c:a', 'pcm_s16le', join(dir, 'ffmpeg.wav')],
    ]);
    const wavOurs = await runJob(browser, page, 'wav', seconds);
    rows.push({
      job: 'WAV 16-bit encode',
      track,
      oursMs: wavOurs.ms,
      reference: 'ffmpeg s16 tpdf',
      referenceMs: wavOurs.error ? undefined : ffmpegWavMs,
      stallMs: wavOurs.error ? undefined : wavOurs.stallMs,
      taskCpuMs: wavOurs.error ? undefined : wavOurs.taskCpuMs,
      idleStallMs: wavOurs.error ? undefined : wavOurs.idleStallMs,
      note: wavOurs.error
        ? `refused: ${wavOurs.error} (spec cap 100 MB)`
        : `${(wavOurs.bytes / 1e6).toFixed(1)} MB`,
    });

    const peaks = await runJob(browser, page, 'peaks', seconds);
    rows.push({
      job: 'peaks (7 zoom levels)',
      track,
      oursMs: peaks.ms,
      stallMs: peaks.stallMs,
      taskCpuMs: peaks.taskCpuMs,
      idleStallMs: peaks.idleStallMs,
      target: 'stall < 50 ms',
    });
  }
} finally {
  await close();
  rmSync(dir, { recursive: true, force: true });
}
printTable('Audio encode benchmark (headless Chromium, cold workers)', rows);
