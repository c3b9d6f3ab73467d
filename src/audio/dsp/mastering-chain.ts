/**
 * Offline mastering render (spec 9 chain + loudness target + true-peak limiter), in place on Float32Array
 * channels. Runs in a Worker in the app and in Node in tests; reports progress by the stages it actually
 * passes and stops between blocks when its AbortSignal fires.
 *
 * Passes:
 * 1. analyse the input (peak, RMS, loudness, LRA, 1/3-octave spectrum, stereo: track-analysis.ts; the seven
 *    band levels) and, when a tone choice is given, plan the adaptive stages from it (adaptive-plan.ts);
 * 2. run the chain kernel (MasteringProcessor) block by block, gathering per-16-frame K-weighted energy and
 *    sample peaks of the processed signal (its loudness);
 * 3. true peaks of the blocks that could hit the ceiling, then solve the gain that brings the limited
 *    output to the target loudness (limiter in the loop, at block rate);
 * 4. apply gain and the limiter's planned gains — the same block gains the streaming limiter computes.
 */
import { type MasteringSettings, TRUE_PEAK_CEILING_DBTP } from '../../shared/mastering';
import { yieldToEventLoop } from '../event-loop';
import { type AdaptivePlan, adaptivePlanFor } from './adaptive-plan';
import { type BandLevel, measureBandLevels } from './band-levels';
import { ChainStats, type CompressorDynamics, summariseGains } from './dynamics-stats';
import { limitedLoudnessSlope } from './limited-slope';
import { LIMITER_BLOCK, type LimiterOptions, limiterLatency, type PeakCompressorOptions } from './limiter';
import { planWithLaterPart } from './limiter-plan-split';
import {
  BlockAnalysis,
  BlockTruePeaks,
  integratedFromBlocks,
  integratedWithPlan,
  type LimiterPlan,
  planLimiter,
  type TruePeakStorage,
} from './loudness-target';
import type {
  MasteringReport,
  MasteringStage,
  MasterRenderOptions,
  RenderControl,
} from './mastering-chain-types';
import { MasteringProcessor } from './mastering-processor';
import { hasPeakStage, StagedLimiterComputer } from './staged-limiter';
import { analyseTrack, type TrackAnalysis } from './track-analysis';
import { PeakShare, type PeakShareMemory } from './true-peak-share';

export {
  MASTERING_STAGES,
  type MasteringProgress,
  type MasteringReport,
  type MasteringStage,
  type MasterRenderOptions,
  type MasterTrace,
  type RenderControl,
} from './mastering-chain-types';

/** Frames per chain block (the two-worker render hands over blocks of this size). */
export const BLOCK = 4096;
/** Frames between event-loop turns (~1.5 s of audio, a few ms of work). */
export const YIELD_FRAMES = 1 << 16;

/** Share of the whole job each stage takes, for a progress bar that moves with the work. */
const STAGE_SPAN: Record<MasteringStage, [number, number]> = {
  analysing: [0, 0.04],
  spectrum: [0.04, 0.08],
  building: [0.08, 0.1],
  processing: [0.1, 0.6],
  loudness: [0.6, 0.75],
  limiting: [0.75, 1],
};

/**
 * The limiter "scaled by loudness" (spec 9): up to Loudness 65 (Balanced) it releases in 60 ms; above, the
 * release shortens 12x per 20 steps (5 ms at 85, the Loud preset), floored at 3 ms. A slow release cannot make
 * a dynamic mix dense: every kick ducks the whole mix for the release time, so loudness stops rising with gain
 * (the e2e material stalled at -11.2 LUFS for a -9 target); a fast one shapes the peaks and lets the body up.
 */
export const limiterOptionsFor = (ceilingDb: number, settings?: MasteringSettings): LimiterOptions => {
  const loudness = settings?.loudness ?? 0;
  // Named at 1:1 up to Balanced: no gain changes, but the live chain keeps one latency across presets.
  if (loudness <= LIMITER_SLOW_UNTIL) return { ceilingDb, peakCompressor: peakCompressorFor(loudness) };
  const releaseMs = Math.max(3, 60 * 12 ** (-(loudness - LIMITER_SLOW_UNTIL) / 20));
  return { ceilingDb, releaseMs, peakCompressor: peakCompressorFor(loudness) };
};
const LIMITER_SLOW_UNTIL = 65;

/**
 * Above Balanced, a lookahead peak compressor takes the peaks first (decision 265): its ratio grows from 1:1
 * at Loudness 65 to 4:1 at 85 (Loud) and stays there; its threshold sits just over the ceiling once the
 * loudness gain is applied (so, for a master at its target, a fixed distance over its loudness: the same
 * from a -23 or a -12 LUFS mix), and it lets go over 15 ms, three times the brickwall's 5 ms at Loud.
 * Measured on six real tracks and generated pop (decision 265): the brickwall's deepest reduction fell from
 * 6.5-14.6 dB to 3.2-5.2 dB; 2 dB over the ceiling and 15 ms kept the LRA within 0.12 LU of the limiter
 * alone, where 1 dB and 60 ms lost up to 1 LU of it.
 */
const peakCompressorFor = (loudness: number): PeakCompressorOptions => ({
  thresholdDb: PEAK_COMPRESSOR_OVER_CEILING_DB,
  ratio: 1 + 3 * Math.min(1, Math.max(0, (loudness - LIMITER_SLOW_UNTIL) / 20)),
  kneeDb: 6,
  releaseMs: 15,
});
const PEAK_COMPRESSOR_OVER_CEILING_DB = 2;

/** The live mastering chain's limiter latency at a rate: the same for every preset and slider position. */
export const masteringLatency = (sampleRate: number): number =>
  limiterLatency(sampleRate, limiterOptionsFor(TRUE_PEAK_CEILING_DBTP));

/** What the first pass learns about the input, and the adaptive stages planned from it. */
export interface InputFacts {
  /** The analysis of these very channels. */
  own: TrackAnalysis;
  /** What the plan is made from (`options.analysis` when handed in, else `own`). */
  analysis: TrackAnalysis;
  bands: BandLevel[];
  adaptive: AdaptivePlan | null;
}

/** The adaptive plan for these options (each worker of the two-worker render makes the same one). */
export const planFor = (
  analysis: TrackAnalysis,
  count: number,
  options: MasterRenderOptions,
): AdaptivePlan | null => (options.tone ? adaptivePlanFor(analysis, count, options.tone) : null);

/** The loudness stage's result: the gain, the limiter's block gains, and the loudness they predict. */
export interface LoudnessSolution {
  processedLufs: number;
  gainDb: number;
  predictedLufs: number;
  plan: LimiterPlan;
  /** The limiter's settings the plan was made with (replayed by the versions, decision 150). */
  limiter: LimiterOptions;
}

/** Throws on a buffer the render cannot take (spec wording for the empty one). */
export const checkRenderInput = (channels: readonly Float32Array[]): void => {
  const frames = channels[0]?.length ?? 0;
  if (channels.length === 0 || frames === 0) throw new RangeError('Invalid or empty audio buffer');
  for (const ch of channels) if (ch.length !== frames) throw new RangeError('Channels differ in length');
};

/**
 * Within a stage, progress is reported at most this often (decision 298): from a worker every report is a
 * message the page handles and may draw, and at one report per 65,536 frames the two workers of a 4-minute
 * render sent about 70 a second, a fifth of a core of page work taken from the render on two cores. A stage's
 * first report and its end always go.
 */
export const PROGRESS_INTERVAL_MS = 100;

/** Progress by stage, and the checkpoint between blocks (abort, then a turn of the event loop). */
export const renderSteps = (control: RenderControl) => {
  const { signal, onProgress } = control;
  const yieldFn = control.yieldFn ?? yieldToEventLoop;
  let lastStage: MasteringStage | null = null;
  let lastAt = 0;
  return {
    report: (stage: MasteringStage, within: number) => {
      if (!onProgress) return;
      const now = performance.now();
      if (stage === lastStage && within < 1 && now - lastAt < PROGRESS_INTERVAL_MS) return;
      lastStage = stage;
      lastAt = now;
      const [a, b] = STAGE_SPAN[stage];
      onProgress({ stage, fraction: a + (b - a) * Math.min(1, Math.max(0, within)) });
    },
    checkpoint: async () => {
      signal?.throwIfAborted();
      await yieldFn();
      signal?.throwIfAborted();
    },
  };
};

/** Where the loudness solve starts: the processed loudness, the first gain it tries, the limiter's settings. */
export interface LoudnessStart {
  processedLufs: number;
  gainDb: number;
  limiter: LimiterOptions;
  /** Where detection starts (linear): block true peaks under it at a gain ask neither stage for anything. */
  threshold: number;
}

export const loudnessStart = (
  energy: Float64Array,
  frames: number,
  sampleRate: number,
  options: MasterRenderOptions,
): LoudnessStart => {
  const ceilingDb = options.ceilingDb ?? TRUE_PEAK_CEILING_DBTP;
  const maxGainDb = options.maxGainDb ?? 30;
  const processedLufs = integratedFromBlocks(energy, frames, sampleRate);
  const limiter = { ...limiterOptionsFor(ceilingDb, options.settings), ...options.limiter, ceilingDb };
  return {
    processedLufs,
    gainDb: Number.isFinite(processedLufs) ? Math.min(maxGainDb, options.targetLufs - processedLufs) : 0,
    limiter,
    threshold: new StagedLimiterComputer(sampleRate, limiter).detectFrom,
  };
};

/**
 * The block true peaks already found at `start.gainDb` (two workers can find them in halves, decision 141);
 * the solve goes on from there. With `share`, none are found yet: every gain the solve tries has its block
 * true peaks found by both workers of the two-worker render (decision 317), into `storage`.
 */
export interface LoudnessHead {
  start: LoudnessStart;
  storage: TruePeakStorage;
  share?: PeakShareMemory;
}

/**
 * 3. Loudness: from the processed signal's block energies and sample peaks, solve the gain with the limiter
 * in the loop (the channels hold the processed signal; their true peaks are read lazily).
 */
export const solveLoudness = async (
  channels: readonly Float32Array[],
  energy: Float64Array,
  sampleMax: Float64Array,
  sampleRate: number,
  options: MasterRenderOptions,
  control: RenderControl = {},
  head?: LoudnessHead,
): Promise<LoudnessSolution> => {
  const { report, checkpoint } = renderSteps(control);
  const frames = channels[0]!.length;
  const maxGainDb = options.maxGainDb ?? 30;
  report('loudness', 0);
  const blocks = Math.ceil(frames / LIMITER_BLOCK);
  const start = head?.start ?? loudnessStart(energy, frames, sampleRate, options);
  const { processedLufs, gainDb, limiter: limiterOptions } = start;
  // Block true peaks are interpolated lazily, for the blocks that can matter at the gains tried.
  const firstGain = 10 ** (gainDb / 20);
  const share = head?.share ? new PeakShare(head.share, sampleMax.length) : null;
  const blockPeaks = head
    ? new BlockTruePeaks(channels, sampleMax, start.threshold, head.storage, share ? 0 : firstGain, share)
    : new BlockTruePeaks(channels, sampleMax, start.threshold);
  const peaks = blockPeaks.peaks;
  blockPeaks.ensure(firstGain);
  report('loudness', 0.5);
  await checkpoint();
  // The limiter flattens the curve loudness(gain) where it works, so a plain "add the error" step would
  // crawl: each step follows the curve's slope at the last try.
  const split = share && head?.share?.plan;
  // Each try's plan replaces the last as `best` once the next gain is chosen from it: the split plan writes
  // over the last try's gains (5 MB of fresh memory less per try at 4 minutes, decision 323).
  let spare: Float64Array | undefined;
  const plan = (g: number) => {
    if (!split || !share) return planLimiter(peaks, blocks, g, sampleRate, limiterOptions);
    share.openPlan(g, split);
    const p = planWithLaterPart(
      peaks,
      blocks,
      g,
      sampleRate,
      limiterOptions,
      split,
      () => share.settlePlan(),
      spare,
    );
    spare = p.boundaryGains;
    return p;
  };
  const tryGain = (db: number) => {
    const g = 10 ** (db / 20);
    blockPeaks.ensure(g);
    const p = plan(g);
    return {
      db,
      plan: p,
      lufs: integratedWithPlan(energy, frames, sampleRate, p, g),
    };
  };
  let best = tryGain(gainDb);
  for (let iteration = 0; iteration < 12 && Number.isFinite(processedLufs); iteration++) {
    const error = options.targetLufs - best.lufs;
    if (Math.abs(error) < 0.02 || (error > 0 && best.db >= maxGainDb)) break;
    // Along the slope the last plan gives (limited-slope.ts), clamped to a sane range.
    const slope = Math.min(1, Math.max(0.05, limitedLoudnessSlope(energy, best.plan.boundaryGains)));
    const nextDb = Math.min(maxGainDb, best.db + error / slope);
    best = tryGain(nextDb);
    report('loudness', 0.5 + 0.04 * (iteration + 1));
    control.signal?.throwIfAborted();
  }
  // With a peak compressor, the report tells its work from the brickwall's: the chosen plan once more,
  // summarising each stage (the same gains; without one, the plan's gains are the limiter's).
  if (hasPeakStage(limiterOptions))
    best.plan = planLimiter(peaks, blocks, 10 ** (best.db / 20), sampleRate, limiterOptions, true);
  await checkpoint();
  return {
    processedLufs,
    gainDb: best.db,
    predictedLufs: Number.isFinite(processedLufs) ? best.lufs : processedLufs,
    plan: best.plan,
    limiter: limiterOptions,
  };
};

/** 4. Gain and the planned limiter gains over frames [from, to), with progress over the whole track. */
export const applyLimiterPlan = async (
  channels: readonly Float32Array[],
  solution: { gainDb: number; boundaryGains: Float64Array },
  from: number,
  to: number,
  control: RenderControl = {},
): Promise<void> => {
  const { report, checkpoint } = renderSteps(control);
  const frames = channels[0]!.length;
  const g = 10 ** (solution.gainDb / 20);
  for (let start = from; start < to; start += YIELD_FRAMES) {
    const end = Math.min(to, start + YIELD_FRAMES);
    for (const ch of channels) applyPlannedGain(ch, solution.boundaryGains, g, start, end);
    report('limiting', end / frames);
    await checkpoint();
  }
};

/** The report of a finished render. */
export const masteringReport = (
  channels: readonly Float32Array[],
  sampleRate: number,
  options: MasterRenderOptions,
  facts: InputFacts,
  solution: LoudnessSolution,
  /** What the compressors did, recorded while they ran (ChainStats, decision 126). */
  compressors: CompressorDynamics,
): MasteringReport => ({
  sampleRate,
  frames: channels[0]!.length,
  channels: channels.length,
  targetLufs: options.targetLufs,
  ceilingDbtp: options.ceilingDb ?? TRUE_PEAK_CEILING_DBTP,
  input: { peakDb: facts.own.peakDb, rmsDb: facts.own.rmsDb, bands: facts.bands },
  analysis: facts.analysis,
  adaptive: facts.adaptive,
  processedLufs: solution.processedLufs,
  gainDb: solution.gainDb,
  predictedLufs: solution.predictedLufs,
  limiterMinGainDb: solution.plan.minGainDb,
  peakCompressorMinGainDb: solution.plan.compressorMinGainDb ?? 0,
  dynamics: {
    ...compressors,
    limiter:
      solution.plan.stages?.limiter ??
      summariseGains(solution.plan.boundaryGains, Math.ceil(channels[0]!.length / LIMITER_BLOCK)),
    peakCompressor: solution.plan.stages?.peakCompressor ?? null,
  },
});

/** Masters `channels` in place and returns what it measured and did. */
export const renderMaster = async (
  channels: Float32Array[],
  sampleRate: number,
  options: MasterRenderOptions,
  control: RenderControl = {},
): Promise<MasteringReport> => {
  checkRenderInput(channels);
  const { report, checkpoint } = renderSteps(control);
  const frames = channels[0]!.length;
  const count = channels.length;

  // 1. The input as it arrives: one analysis pass (unless it was made before), then the spectrum.
  report('analysing', 0);
  const own = options.inputAnalysis ?? analyseTrack(channels, sampleRate);
  const analysis = options.analysis ?? own;
  await checkpoint();
  report('spectrum', 0);
  const bands = options.inputBands ?? measureBandLevels(channels, sampleRate);
  await checkpoint();

  // 2. The chain kernel, block by block, measuring what it produces.
  report('building', 0);
  const adaptive = planFor(analysis, count, options);
  const processor = new MasteringProcessor(sampleRate, count, options.settings, adaptive);
  // A few counters per 16 frames, kept apart from the kernel's loops (decision 126).
  const stats = new ChainStats();
  processor.attachStats(stats);
  if (options.trace) processor.setDynamicsTrace(options.trace.dynamics);
  const blockAnalysis = new BlockAnalysis(sampleRate, count, frames);
  report('processing', 0);
  for (let start = 0; start < frames; start += BLOCK) {
    const end = Math.min(frames, start + BLOCK);
    processor.process(channels, start, end);
    blockAnalysis.push(channels, start, end);
    if ((end & (YIELD_FRAMES - 1)) === 0 || end === frames) {
      report('processing', end / frames);
      await checkpoint();
    }
  }

  // 3. Loudness: measure, then solve the gain with the limiter in the loop.
  const solution = await solveLoudness(
    channels,
    blockAnalysis.energy,
    blockAnalysis.sampleMax,
    sampleRate,
    options,
    control,
  );

  if (options.trace) {
    const { gainDb, plan, limiter } = solution;
    options.trace.output = { gain: 10 ** (gainDb / 20), boundaryGains: plan.boundaryGains, limiter };
  }

  // 4. Gain and the planned limiter gains, frame by frame.
  report('limiting', 0);
  if (options.planOnly) report('limiting', 1);
  else
    await applyLimiterPlan(
      channels,
      { gainDb: solution.gainDb, boundaryGains: solution.plan.boundaryGains },
      0,
      frames,
      control,
    );
  return masteringReport(
    channels,
    sampleRate,
    options,
    { own, analysis, bands, adaptive },
    solution,
    stats.compressors(),
  );
};

/** out[m] = x[m] * g * (gain ramp of m's block), the streaming limiter's output without its delay. */
export const applyPlannedGain = (
  data: Float32Array,
  gains: Float64Array,
  g: number,
  start: number,
  end: number,
): void => {
  // Block by block: each block's two boundary gains and their difference read once (the same operations on
  // the same values per frame as one frame at a time, so the same samples; decision 293).
  let m = start;
  while (m < end) {
    const block = m >> 4;
    const g0 = gains[block]!;
    const step = gains[block + 1]! - g0;
    const stop = Math.min(end, (block + 1) << 4);
    for (; m < stop; m++) data[m] = data[m]! * g * (g0 + step * ((m & 15) * 0.0625));
  }
};
