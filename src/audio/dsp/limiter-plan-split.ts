/**
 * The loudness solve's limiter plan cut in time between the two workers (decision 318): planLimiter's gains,
 * the very same values, at about half the wall time. The plan is a recursion over the blocks, so its later
 * part cannot start from nothing: the helper starts a fresh gain computer PLAN_WARM_BLOCKS before the cut and
 * writes its whole state (LimiterGainComputer.writeState) at checkpoints after the cut; the asker plans from
 * the start, and at each checkpoint the helper has passed compares its own state with the helper's. Two
 * computers in the same state give the same gains from there, so from the first equal checkpoint on the
 * helper's gains are the plan's. A fresh computer forgets its start at the next block that limits harder
 * than it releases (the envelope takes the held requirement) and at the next re-sum of the log ring; on
 * music that is within a few hundred blocks. Where no checkpoint matches (or the helper was late) the asker
 * simply plans to the end: the result is the same either way, only the time differs.
 * Only for the limiter alone (no peak compressor stage, `hasPeakStage` false): the stages' statistics and the
 * compressor's own rings are not cut.
 */
import { LimiterGainComputer, type LimiterOptions } from './limiter';
import type { LimiterPlan } from './loudness-target';
import { hasPeakStage } from './staged-limiter';

/** Blocks the helper plans before the cut to forget its fresh start (1.5 s at 44.1 kHz). */
export const PLAN_WARM_BLOCKS = 4096;
/** Checkpoints after the cut, and the blocks between them (also how often either side looks at the other). */
const CHECKS = 64;
const CHECK_EVERY = 512;
/** Progress words: checkpoints the helper has written (DONE once its part is complete), and the asker's "stop". */
const WRITTEN = 0;
const ABANDON = 1;
const DONE = CHECKS + 1;

export interface PlanSplitMemory {
  /** The helper's gains (its part of boundaryGains, the same indices). */
  gains: SharedArrayBuffer;
  /** The helper's state at each checkpoint, `stateSize` values each. */
  states: SharedArrayBuffer;
  progress: SharedArrayBuffer;
  stateSize: number;
}

/** Memory for splitting the plans of a track of `peakBlocks` block peaks, or null where plans are not split. */
export const createPlanSplitMemory = (
  peakBlocks: number,
  sampleRate: number,
  options: LimiterOptions,
): PlanSplitMemory | null => {
  if (hasPeakStage(options)) return null;
  const stateSize = new LimiterGainComputer(sampleRate, options).stateSize;
  return {
    gains: new SharedArrayBuffer((peakBlocks + 1) * 8),
    states: new SharedArrayBuffer(CHECKS * stateSize * 8),
    progress: new SharedArrayBuffer(8),
    stateSize,
  };
};

/** Pushes 0..last, where the cut is and checkpoint k's push index. */
const layout = (blocks: number, average: number) => {
  const last = blocks + average;
  const cut = (last + 1) >> 1;
  return { last, cut, check: (k: number) => cut + k * CHECK_EVERY };
};

/** The asker opens a plan: the helper's progress starts at nothing. */
export const resetPlanSplit = (memory: PlanSplitMemory): void => {
  const progress = new Int32Array(memory.progress);
  Atomics.store(progress, WRITTEN, 0);
  Atomics.store(progress, ABANDON, 0);
};

/**
 * The helper's part: the plan from PLAN_WARM_BLOCKS before the cut to the end, with its checkpoints; it stops
 * early when the asker no longer needs it.
 */
export const planLaterPart = (
  peaks: Float64Array,
  blocks: number,
  inputGain: number,
  sampleRate: number,
  options: LimiterOptions,
  memory: PlanSplitMemory,
): void => {
  const limiter = new LimiterGainComputer(sampleRate, options);
  const A = limiter.average;
  const { last, cut, check } = layout(blocks, A);
  const gains = new Float64Array(memory.gains);
  const states = new Float64Array(memory.states);
  const progress = new Int32Array(memory.progress);
  const from = Math.max(0, cut - PLAN_WARM_BLOCKS);
  limiter.startAt(from);
  let k = 0;
  for (let b = from; b <= last; b++) {
    if ((b - from) % CHECK_EVERY === 0 && Atomics.load(progress, ABANDON) !== 0) return;
    if (k < CHECKS && b === check(k)) {
      limiter.writeState(states, k * memory.stateSize);
      Atomics.store(progress, WRITTEN, ++k);
    }
    const s = limiter.push(b < peaks.length ? peaks[b]! * inputGain : 0);
    const j = b - A;
    if (b >= cut && j >= 0 && j <= blocks) gains[j] = s;
  }
  // Checkpoints past the end (a short track) stay unwritten: the asker compares only those it can read.
  Atomics.store(progress, WRITTEN, DONE);
};

/**
 * The asker's part: planLimiter(peaks, blocks, inputGain, sampleRate, options) (without the stages'
 * statistics). From the first checkpoint whose state is its own it goes on planning, and takes the helper's
 * gains for the rest as soon as the helper has finished, so it never waits for a helper that is behind it.
 * `settle()` returns once the helper has stopped, or will never start.
 */
export const planWithLaterPart = (
  peaks: Float64Array,
  blocks: number,
  inputGain: number,
  sampleRate: number,
  options: LimiterOptions,
  memory: PlanSplitMemory,
  settle: () => void,
  /** Where the gains go (blocks + 1 of them, overwritten): an earlier try's, which the solve no longer needs. */
  into?: Float64Array,
): LimiterPlan => {
  const limiter = new LimiterGainComputer(sampleRate, options);
  const A = limiter.average;
  const { last, cut } = layout(blocks, A);
  const progress = new Int32Array(memory.progress);
  const states = new Float64Array(memory.states);
  const mine = new Float64Array(memory.stateSize);
  // On shared memory: the solve's result goes to both workers' final pass as it is (no copy of 5 MB of
  // fresh memory at 4 minutes at the solve's end).
  const gains = (
    into?.length === blocks + 1 ? into : new Float64Array(new SharedArrayBuffer((blocks + 1) * 8))
  ).fill(1);
  let minGain = 1;
  let k = 0;
  let matched = false;
  let takeFrom = -1;
  for (let b = 0; b <= last; b++) {
    if (b >= cut && (b - cut) % CHECK_EVERY === 0) {
      const written = Atomics.load(progress, WRITTEN);
      if (!matched && k < CHECKS) {
        matched = written > k && sameState(limiter, mine, states, k * memory.stateSize);
        // Past the last checkpoint without a match: the helper's work is of no use, stop it.
        if (!matched && ++k === CHECKS) Atomics.store(progress, ABANDON, 1);
      }
      // Same state at a checkpoint, so the same state here as the helper had: its gains from here are ours.
      if (matched && written === DONE) {
        takeFrom = b;
        break;
      }
    }
    const s = limiter.push(b < peaks.length ? peaks[b]! * inputGain : 0);
    const j = b - A;
    if (j >= 0 && j <= blocks) {
      gains[j] = s;
      if (s < minGain) minGain = s;
    }
  }
  Atomics.store(progress, ABANDON, 1);
  settle();
  if (takeFrom >= 0) {
    const theirs = new Float64Array(memory.gains);
    for (let j = Math.max(0, takeFrom - A); j <= blocks; j++) {
      const s = theirs[j]!;
      gains[j] = s;
      if (s < minGain) minGain = s;
    }
  }
  return {
    boundaryGains: gains,
    minGainDb: 20 * Math.log10(minGain),
    compressorMinGainDb: 20 * Math.log10(1),
  };
};

const sameState = (
  limiter: LimiterGainComputer,
  mine: Float64Array,
  states: Float64Array,
  at: number,
): boolean => {
  limiter.writeState(mine, 0);
  for (let i = 0; i < mine.length; i++) if (mine[i] !== states[at + i]) return false;
  return true;
};
