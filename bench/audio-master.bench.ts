/**
 * Mastering render benchmark (`npm run bench -- audio-master`, or `node --import tsx bench/audio-master.bench.ts`).
 * On generated 4- and 10-minute stereo 44.1 kHz tracks, in paired runs:
 * - ours: the master Worker in headless Chromium (fresh worker per run, so the JIT is cold as in a one-shot
 *   export), wall time from the call to the transferred result;
 * - ffmpeg -filter_threads 1 with the equivalent chain (highpass, acompressor, two shelves, peaking EQ,
 *   stereotools, volume, alimiter) — target ours <= 1.0x;
 * - the same chain from native Web Audio nodes (biquads + DynamicsCompressor) in an OfflineAudioContext;
 * - the longest main-thread stall during each in-page job (target < 50 ms), beside the longest stall of the
 *   same page doing nothing for as long (the machine's noise floor: other processes take the CPU too).
 * BENCH_RUNS (default 3) sets the runs per figure; BENCH_QUICK=1 uses a 30 s track.
 */
import { masteringChainParams } from '../src/audio/dsp/mastering-processor';
import { PRESETS, type PresetId, TRUE_PEAK_CEILING_DBTP } from '../src/shared/mastering';
import {
  ffmpegAvailable,
  LENGTHS,
  label,
  median,
  ms,
  openHarness,
  printTable,
  RATE,
  RUNS,
  ratio,
  timeFfmpeg,
  writeTracks,
} from './audio-bench-common';

const PRESET: PresetId = (process.env.BENCH_PRESET as PresetId) ?? 'balanced';

const ffmpegChain = (gainDb: number) => {
  const p = masteringChainParams(PRESETS[PRESET].settings, RATE);
  const c = p.compressor;
  const lin = (db: number) => (10 ** (db / 20)).toFixed(6);
  return [
    'highpass=f=30:p=2',
    `acompressor=threshold=${lin(c.thresholdDb)}:ratio=${c.ratio}:knee=${lin(c.kneeDb)}:attack=${c.attackMs}:release=${c.releaseMs}:makeup=1`,
    `lowshelf=f=200:g=${p.warmthDb}`,
    `highshelf=f=8000:g=${p.brightnessDb}`,
    `equalizer=f=3000:t=q:w=1:g=${p.presenceDb}`,
    `stereotools=slev=${p.stereoWidth / 50}`,
    `volume=${gainDb.toFixed(2)}dB`,
    `alimiter=limit=${lin(TRUE_PEAK_CEILING_DBTP)}:attack=5:release=50:level=0`,
  ].join(',');
};

const main = async () => {
  console.log(`Mastering render, preset ${PRESET}, ${RUNS} paired runs per figure (medians).`);
  if (!ffmpegAvailable()) console.log('ffmpeg is not installed: the ffmpeg column is skipped.');
  const tracks = writeTracks(LENGTHS);
  const bench = await openHarness();
  const rows: (string | number)[][] = [];
  try {
    for (const seconds of LENGTHS) {
      await bench.page.evaluate((s) => window.audioHarness.prepare(s), seconds);
      const ours: number[] = [];
      const oursStall: number[] = [];
      const ff: number[] = [];
      const native: number[] = [];
      const nativeStall: number[] = [];
      const idle: number[] = [];
      const oursTask: number[] = [];
      const nativeTask: number[] = [];
      let gainDb = 0;
      for (let run = 0; run < RUNS; run++) {
        const r = await bench.page.evaluate(([s, p]) => window.audioHarness.masterBench(s, p), [
          seconds,
          PRESET,
        ] as const);
        ours.push(r.ms);
        oursStall.push(r.longestMs);
        oursTask.push(r.longTaskMs);
        idle.push(await bench.page.evaluate((t) => window.audioHarness.idleStall(t), r.ms));
        gainDb = r.gainDb;
        if (ffmpegAvailable()) {
          ff.push(timeFfmpeg(['-i', tracks.wav(seconds), '-af', ffmpegChain(gainDb), '-f', 'null', '-']).ms);
        }
        const n = await bench.page.evaluate(([s, p, g]) => window.audioHarness.nativeBench(s, p, g), [
          seconds,
          PRESET,
          gainDb,
        ] as const);
        native.push(n.ms);
        nativeStall.push(n.longestMs);
        nativeTask.push(n.longTaskMs);
      }
      const o = median(ours);
      const f = ff.length ? median(ff) : Number.NaN;
      const nn = median(native);
      rows.push([
        label(seconds),
        ms(o),
        ff.length ? ms(f) : 'n/a',
        ff.length ? ratio(o, f) : 'n/a',
        ms(nn),
        ratio(o, nn),
        `${ms(Math.max(...oursTask))} / ${ms(Math.max(...oursStall))}`,
        `${ms(Math.max(...nativeTask))} / ${ms(Math.max(...nativeStall))}`,
        ms(Math.max(...idle)),
      ]);
    }
  } finally {
    await bench.close();
    tracks.cleanup();
  }
  printTable(
    [
      'track',
      'ours (worker)',
      'ffmpeg -filter_threads 1',
      'ours/ffmpeg (target <= 1.0x)',
      'native Web Audio nodes',
      'ours/native',
      'main thread ours: longest task / heartbeat gap (< 50 ms)',
      'native: task / gap',
      'idle page stall (noise floor)',
    ],
    rows,
  );
};

await main();
