/**
 * Mastering render benchmark (`npm run bench -- audio-master`, or `node --import tsx bench/audio-master.bench.ts`).
 * On generated 4- and 10-minute stereo 44.1 kHz tracks, in paired runs:
 * - ours: the product's render (the adaptive chain of issue 16: analysis, tone EQ, multiband compression,
 *   mono bass, loudness, true-peak limiter) in headless Chromium, fresh workers per run (the JIT is cold as
 *   in a one-shot export), wall time from the call to the result; on one worker (target <= 0.8x ffmpeg),
 *   on two workers (decision 141, target <= 0.5x), on two workers with the analysis made when the track
 *   loaded (issue 28's row), and the same as the screen has it readied by the time Master Track is clicked
 *   (workers primed and warmed, the track already on shared memory: decisions 158, 295 and 298; the screen's
 *   own click-to-complete is bench/mastering-screen.bench.ts), all four in every paired round;
 * - ffmpeg -filter_threads 1 with the spec's chain (highpass, acompressor, two shelves, peaking EQ,
 *   stereotools, volume, alimiter);
 * - ffmpeg -filter_threads 1 doing the same work as ours (issue 28, bench/ffmpeg-master-graphs.ts): an
 *   analysis pass (ebur128 with true peak, astats, aspectralstats), then the corrective EQ's sections,
 *   acrossover with three acompressor, the shelves, alimiter and ebur128=peak=true; timed in the same
 *   rounds, so a reader sees ours against both. Ours with the analysis from load is set against the
 *   equal-work chain pass alone (the page analysed at load, as ffmpeg's first pass would have);
 * - the analysis pass's own cost: ours (two workers minus two workers with the analysis from load,
 *   medians) beside ffmpeg's analysis pass;
 * - the spec chain alone (no analysis-driven stages) on one worker, as before issue 16;
 * - the spec chain from native Web Audio nodes (biquads + DynamicsCompressor) in an OfflineAudioContext;
 * - where the wall time of each render went, stage by stage (from the progress it reports);
 * - the longest main-thread stall during each in-page job (target < 50 ms), beside the longest stall of the
 *   same page doing nothing for as long (the machine's noise floor: other processes take the CPU too).
 * Ours and ffmpeg run in paired rounds of alternating order (bench/paired-rounds.ts): BENCH_RUNS (default 5)
 * sets the rounds; BENCH_QUICK=1 uses a 30 s track.
 */
import type { PresetId } from '../src/shared/mastering';
import {
  ffmpegAvailable,
  LENGTHS,
  ms,
  openHarness,
  printTable,
  timeFfmpeg,
  writeTracks,
} from './audio-bench-common';
import { EQUAL_WORK_ANALYSIS, equalWorkChain, type RenderPlan, specChain } from './ffmpeg-master-graphs';
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

/**
 * The one-worker, two-worker, two-worker-with-load-analysis renders, and the last as the screen has it when
 * Master Track is clicked (workers primed and warmed, the track on shared memory: masterBench's `ready`), as
 * masterBench's variant index.
 */
const VARIANTS = [
  'one worker',
  'two workers',
  'two workers, analysis from load',
  'two workers, as the screen readies them',
] as const;

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

const main = async () => {
  console.log(`Mastering render, preset ${PRESET}.`);
  if (!ffmpegAvailable()) console.log('ffmpeg is not installed: the ffmpeg column is skipped.');
  const tracks = writeTracks(LENGTHS);
  const bench = await openHarness();
  printEnvironment(bench.page.context().browser()?.version());
  const rows: (string | number)[][] = [];
  const stageRows: (string | number)[][] = [];
  const equalRows: (string | number)[][] = [];
  try {
    for (const seconds of LENGTHS) {
      await bench.page.evaluate((s) => window.audioHarness.prepare(s), seconds);
      const oursStall: number[] = [];
      const oursTask: number[] = [];
      const idle: number[] = [];
      const two: number[] = [];
      const loaded: number[] = [];
      const readied: number[] = [];
      const timelines = Object.fromEntries(VARIANTS.map((v) => [v, [] as Stages[]]));
      let plan: RenderPlan = { gainDb: 0, toneEqDb: null, bandDynamics: null };
      const run = (pair: boolean, preAnalysed: boolean, ready: boolean) =>
        bench.page.evaluate(
          ([s, p, two, pre, r]) => window.audioHarness.masterBench(s, p, true, two, pre, r),
          [seconds, PRESET, pair, preAnalysed, ready] as const,
        );
      let round = 0;
      // One worker (the paired figure), two workers, two workers with the load-time analysis, and readied as
      // the screen readies them: the order turns every round, like ours and the reference's.
      const ours = async () => {
        const order = VARIANTS.map((_, k) => (k + round) % VARIANTS.length);
        round++;
        let one = 0;
        for (const k of order) {
          const r = await run(k > 0, k >= 2, k === 3);
          timelines[VARIANTS[k]!]!.push({ ...r.stages, end: r.ms });
          oursStall.push(r.longestMs);
          oursTask.push(r.longTaskMs);
          if (k === 0) {
            one = r.ms;
            plan = { gainDb: r.gainDb, toneEqDb: r.toneEqDb, bandDynamics: r.bandDynamics };
            idle.push(await bench.page.evaluate((t) => window.audioHarness.idleStall(t), r.ms));
          } else [two, loaded, readied][k - 1]!.push(r.ms);
        }
        return one;
      };
      // The reference's chain takes the gain our analysis chose; round 0 runs ours first, so it is known.
      // The equal-work graph runs in the same round, right after the spec chain (its own column).
      const refs: number[] = [];
      const eqAnalysis: number[] = [];
      const eqChain: number[] = [];
      const reference = () => {
        const input = tracks.wav(seconds);
        const t = timeFfmpeg(['-i', input, '-af', specChain(PRESET, plan.gainDb), '-f', 'null', '-']).ms;
        refs.push(t);
        eqAnalysis.push(timeFfmpeg(['-i', input, '-af', EQUAL_WORK_ANALYSIS, '-f', 'null', '-']).ms);
        eqChain.push(
          timeFfmpeg([
            '-i',
            input,
            '-filter_complex',
            equalWorkChain(PRESET, plan),
            '-map',
            '[out]',
            '-f',
            'null',
            '-',
          ]).ms,
        );
        return t;
      };
      const nativeRun = async () =>
        bench.page.evaluate(([s, p, g]) => window.audioHarness.nativeBench(s, p, g), [
          seconds,
          PRESET,
          plan.gainDb,
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
      const readiedPair = against(readied);
      // Against the equal-work graph, round by round: the full render against both passes, the render with
      // the analysis from load against the chain pass alone.
      const equalWork = eqChain.map((c, i) => c + eqAnalysis[i]!);
      const per = (values: number[], refs: number[]) =>
        values.length === refs.length && refs.length > 0
          ? fmtRatio(spread(values.map((v, i) => v / refs[i]!)))
          : 'n/a';
      equalRows.push([
        label(seconds),
        equalWork.length ? fmtMs(spread(equalWork)) : 'n/a',
        eqAnalysis.length ? fmtMs(spread(eqAnalysis)) : 'n/a',
        eqChain.length ? fmtMs(spread(eqChain)) : 'n/a',
        twoPair ? fmtMs(twoPair.ours) : 'n/a',
        per(two, equalWork),
        loadedPair ? fmtMs(loadedPair.ours) : 'n/a',
        per(loaded, eqChain),
        per(loaded, equalWork),
        two.length && loaded.length ? `${Math.round(spread(two).median - spread(loaded).median)} ms` : 'n/a',
        eqAnalysis.length ? `${Math.round(spread(eqAnalysis).median)} ms` : 'n/a',
      ]);
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
        readiedPair ? fmtMs(readiedPair.ours) : 'n/a',
        readiedPair ? fmtRatio(readiedPair.ratio) : 'n/a',
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
      'two workers, as the screen readies them ms',
      'readied/ffmpeg per round',
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
    '\nAgainst ffmpeg doing the same work (analysis pass; EQ sections, acrossover + 3 acompressor, shelves, alimiter, ebur128=peak=true), same rounds; ms and per-round ratios min / median / max.',
  );
  printTable(
    [
      'track',
      'ffmpeg equal work ms (analysis + chain)',
      'ffmpeg analysis pass ms',
      'ffmpeg equal-work chain ms',
      'ours, two workers ms',
      'two workers/equal work',
      'ours, two workers, analysis from load ms',
      'analysis from load/equal-work chain',
      'analysis from load/equal work',
      'our analysis pass (two workers - from load, medians)',
      'ffmpeg analysis pass (median)',
    ],
    equalRows,
  );
  console.log(
    "\nWhere the wall time went: median ms from one reported stage to the next (the harness's progress).",
  );
  printTable(['track', 'render', ...STAGE_COLUMNS.map(([name]) => name)], stageRows);
};

await main();
