/**
 * Mastering render benchmark (`npm run bench -- audio-master`, or `node --import tsx bench/audio-master.bench.ts`).
 * On generated 4- and 10-minute stereo 44.1 kHz tracks, in paired runs:
 * - ours: the master Worker in headless Chromium (fresh worker per run, so the JIT is cold as in a one-shot
 *   export), wall time from the call to the transferred result;
 * - ffmpeg -filter_threads 1 with the equivalent chain (highpass, acompressor, two shelves, peaking EQ,
 *   stereotools, volume, alimiter) — target ours <= 1.0x;
 * - the same chain from native Web Audio nodes (biquads + DynamicsCompressor) in an OfflineAudioContext;
 * - the adaptive chain (issue 16: analysis, tone EQ, multiband compression, mono bass) in the same worker,
 *   as a ratio to today's chain and to ffmpeg (medians);
 * - the longest main-thread stall during each in-page job (target < 50 ms), beside the longest stall of the
 *   same page doing nothing for as long (the machine's noise floor: other processes take the CPU too).
 * Ours and ffmpeg run in paired rounds of alternating order (bench/paired-rounds.ts): BENCH_RUNS (default 5)
 * sets the rounds; BENCH_QUICK=1 uses a 30 s track.
 */
import { masteringChainParams } from '../src/audio/dsp/mastering-processor';
import { PRESETS, type PresetId, TRUE_PEAK_CEILING_DBTP } from '../src/shared/mastering';
import {
  ffmpegAvailable,
  LENGTHS,
  ms,
  openHarness,
  printTable,
  RATE,
  timeFfmpeg,
  writeTracks,
} from './audio-bench-common';
import {
  fmtMs,
  fmtRatio,
  label,
  pairedRounds,
  printEnvironment,
  ROUNDS,
  spread,
  verdict,
} from './paired-rounds';

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
  console.log(`Mastering render, preset ${PRESET}.`);
  if (!ffmpegAvailable()) console.log('ffmpeg is not installed: the ffmpeg column is skipped.');
  const tracks = writeTracks(LENGTHS);
  const bench = await openHarness();
  printEnvironment(bench.page.context().browser()?.version());
  const rows: (string | number)[][] = [];
  try {
    for (const seconds of LENGTHS) {
      await bench.page.evaluate((s) => window.audioHarness.prepare(s), seconds);
      const oursStall: number[] = [];
      const oursTask: number[] = [];
      const idle: number[] = [];
      let gainDb = 0;
      const ours = async () => {
        const r = await bench.page.evaluate(([s, p]) => window.audioHarness.masterBench(s, p), [
          seconds,
          PRESET,
        ] as const);
        oursStall.push(r.longestMs);
        oursTask.push(r.longTaskMs);
        idle.push(await bench.page.evaluate((t) => window.audioHarness.idleStall(t), r.ms));
        gainDb = r.gainDb;
        return r.ms;
      };
      // The reference's chain takes the gain our analysis chose; round 0 runs ours first, so it is known.
      const reference = () =>
        timeFfmpeg(['-i', tracks.wav(seconds), '-af', ffmpegChain(gainDb), '-f', 'null', '-']).ms;
      const nativeRun = async () =>
        bench.page.evaluate(([s, p, g]) => window.audioHarness.nativeBench(s, p, g), [
          seconds,
          PRESET,
          gainDb,
        ] as const);
      const pair = ffmpegAvailable() ? await pairedRounds(ours, reference) : undefined;
      if (!pair) for (let i = 0; i < ROUNDS; i++) await ours();
      const adaptive: number[] = [];
      const native: number[] = [];
      const nativeStall: number[] = [];
      const nativeTask: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const a = await bench.page.evaluate(([s, p]) => window.audioHarness.masterBench(s, p, true), [
          seconds,
          PRESET,
        ] as const);
        adaptive.push(a.ms);
        const n = await nativeRun();
        native.push(n.ms);
        nativeStall.push(n.longestMs);
        nativeTask.push(n.longTaskMs);
      }
      const nn = spread(native);
      const ad = spread(adaptive);
      rows.push([
        label(seconds),
        pair ? fmtMs(pair.ours) : 'n/a',
        pair ? fmtMs(pair.reference) : 'n/a',
        pair ? fmtRatio(pair.ratio) : 'n/a',
        pair ? verdict(pair, 0.8) : 'n/a',
        fmtMs(ad),
        pair ? `${(ad.median / pair.ours.median).toFixed(2)}x` : 'n/a',
        pair ? `${(ad.median / pair.reference.median).toFixed(2)}x` : 'n/a',
        fmtMs(nn),
        pair ? `${(pair.ours.median / nn.median).toFixed(2)}x` : 'n/a',
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
      'ours (worker) ms',
      'ffmpeg -filter_threads 1 ms',
      'ours/ffmpeg per round',
      'verdict (median, target <= 0.8x)',
      'adaptive chain ms',
      'adaptive/ours (medians)',
      'adaptive/ffmpeg (medians)',
      'native Web Audio nodes ms',
      'ours/native (medians)',
      'main thread ours: longest task / heartbeat gap (< 50 ms)',
      'native: task / gap',
      'idle page stall (noise floor)',
    ],
    rows,
  );
};

await main();
