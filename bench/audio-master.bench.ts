/**
 * Mastering render benchmark (`npm run bench -- audio-master`, or `node --import tsx bench/audio-master.bench.ts`).
 * On generated 4- and 10-minute stereo 44.1 kHz tracks, in paired runs:
 * - ours: the product's render (the adaptive chain of issue 16: analysis, tone EQ, multiband compression,
 *   mono bass, loudness, true-peak limiter) in headless Chromium, fresh workers per run (the JIT is cold as
 *   in a one-shot export), wall time from the call to the result; on one worker (target <= 0.8x ffmpeg),
 *   on two workers (decision 141, target <= 0.5x), and on two workers with the analysis made when the track
 *   loaded (what the screen does: the click-to-complete time), all three in every paired round;
 * - ffmpeg -filter_threads 1 with the spec's chain (highpass, acompressor, two shelves, peaking EQ,
 *   stereotools, volume, alimiter);
 * - the spec chain alone (no analysis-driven stages) on one worker, as before issue 16;
 * - the spec chain from native Web Audio nodes (biquads + DynamicsCompressor) in an OfflineAudioContext;
 * - where the wall time of each render went, stage by stage (from the progress it reports);
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

/** The one-worker, two-worker and two-worker-with-load-analysis renders, as masterBench's variant index. */
const VARIANTS = ['one worker', 'two workers', 'two workers, analysis from load'] as const;

/** When each stage began (ms from the call) and when the call returned. */
type Stages = Record<string, number>;
const STAGE_COLUMNS: [string, string, string][] = [
  ['copy in (call -> analysing)', 'start', 'analysing'],
  ['analysis', 'analysing', 'building'],
  ['chain', 'building', 'loudness'],
  ['loudness solve', 'loudness', 'limiting'],
  ['final gain and return', 'limiting', 'end'],
];
const stageSpans = (runs: Stages[]): string[] =>
  STAGE_COLUMNS.map(([, from, to]) => {
    const spans = runs.map((r) => (r[to] ?? Number.NaN) - (from === 'start' ? 0 : (r[from] ?? Number.NaN)));
    return spans.some(Number.isNaN) ? 'n/a' : `${Math.round(spread(spans).median)}`;
  });

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
  const stageRows: (string | number)[][] = [];
  try {
    for (const seconds of LENGTHS) {
      await bench.page.evaluate((s) => window.audioHarness.prepare(s), seconds);
      const oursStall: number[] = [];
      const oursTask: number[] = [];
      const idle: number[] = [];
      const two: number[] = [];
      const loaded: number[] = [];
      const timelines: Record<string, Stages[]> = {
        'one worker': [],
        'two workers': [],
        'two workers, analysis from load': [],
      };
      let gainDb = 0;
      const run = (pair: boolean, preAnalysed: boolean) =>
        bench.page.evaluate(([s, p, two, pre]) => window.audioHarness.masterBench(s, p, true, two, pre), [
          seconds,
          PRESET,
          pair,
          preAnalysed,
        ] as const);
      let round = 0;
      // One worker (the paired figure), two workers, two workers with the load-time analysis: the order
      // turns every round, like ours and the reference's.
      const ours = async () => {
        const order = [0, 1, 2].map((k) => (k + round) % 3);
        round++;
        let one = 0;
        for (const k of order) {
          const r = await run(k > 0, k === 2);
          timelines[VARIANTS[k]!]!.push({ ...r.stages, end: r.ms });
          oursStall.push(r.longestMs);
          oursTask.push(r.longTaskMs);
          if (k === 0) {
            one = r.ms;
            gainDb = r.gainDb;
            idle.push(await bench.page.evaluate((t) => window.audioHarness.idleStall(t), r.ms));
          } else (k === 1 ? two : loaded).push(r.ms);
        }
        return one;
      };
      // The reference's chain takes the gain our analysis chose; round 0 runs ours first, so it is known.
      const refs: number[] = [];
      const reference = () => {
        const t = timeFfmpeg(['-i', tracks.wav(seconds), '-af', ffmpegChain(gainDb), '-f', 'null', '-']).ms;
        refs.push(t);
        return t;
      };
      const nativeRun = async () =>
        bench.page.evaluate(([s, p, g]) => window.audioHarness.nativeBench(s, p, g), [
          seconds,
          PRESET,
          gainDb,
        ] as const);
      const pair = ffmpegAvailable() ? await pairedRounds(ours, reference) : undefined;
      if (!pair) for (let i = 0; i < ROUNDS; i++) await ours();
      const plain: number[] = [];
      const native: number[] = [];
      const nativeStall: number[] = [];
      const nativeTask: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const a = await bench.page.evaluate(([s, p]) => window.audioHarness.masterBench(s, p), [
          seconds,
          PRESET,
        ] as const);
        plain.push(a.ms);
        const n = await nativeRun();
        native.push(n.ms);
        nativeStall.push(n.longestMs);
        nativeTask.push(n.longTaskMs);
      }
      const nn = spread(native);
      const pl = spread(plain);
      // The two-worker figures paired with the same rounds' reference.
      const against = (values: number[]) =>
        pair
          ? { ...pair, ours: spread(values), ratio: spread(values.map((v, i) => v / refs[i]!)) }
          : undefined;
      const twoPair = against(two);
      const loadedPair = against(loaded);
      rows.push([
        label(seconds),
        pair ? fmtMs(pair.ours) : 'n/a',
        pair ? fmtMs(pair.reference) : 'n/a',
        pair ? fmtRatio(pair.ratio) : 'n/a',
        pair ? verdict(pair, 0.8) : 'n/a',
        twoPair ? fmtMs(twoPair.ours) : 'n/a',
        twoPair ? fmtRatio(twoPair.ratio) : 'n/a',
        twoPair ? verdict(twoPair, 0.5) : 'n/a',
        loadedPair ? fmtMs(loadedPair.ours) : 'n/a',
        loadedPair ? fmtRatio(loadedPair.ratio) : 'n/a',
        fmtMs(pl),
        pair ? `${(pl.median / pair.reference.median).toFixed(2)}x` : 'n/a',
        fmtMs(nn),
        `${(pl.median / nn.median).toFixed(2)}x`,
        `${ms(Math.max(...oursTask))} / ${ms(Math.max(...oursStall))}`,
        `${ms(Math.max(...nativeTask))} / ${ms(Math.max(...nativeStall))}`,
        ms(Math.max(...idle)),
      ]);
      for (const [variant, runs] of Object.entries(timelines))
        stageRows.push([label(seconds), variant, ...stageSpans(runs)]);
    }
  } finally {
    await bench.close();
    tracks.cleanup();
  }
  printTable(
    [
      'track',
      'ours, one worker ms',
      'ffmpeg -filter_threads 1 ms',
      'one worker/ffmpeg per round',
      'verdict (median, target <= 0.8x)',
      'ours, two workers ms',
      'two workers/ffmpeg per round',
      'verdict (median, target <= 0.5x)',
      'two workers, analysis from load ms',
      'analysis from load/ffmpeg per round',
      'spec chain only, one worker ms',
      'spec chain/ffmpeg (medians)',
      'native Web Audio nodes (spec chain) ms',
      'spec chain/native (medians)',
      'main thread ours: longest task / heartbeat gap (< 50 ms)',
      'native: task / gap',
      'idle page stall (noise floor)',
    ],
    rows,
  );
  console.log(
    "\nWhere the wall time went: median ms from one reported stage to the next (the harness's progress).",
  );
  printTable(['track', 'render', ...STAGE_COLUMNS.map(([name]) => name)], stageRows);
};

await main();
