/**
 * True peak per limiter block for the loudness solve (loudness-target.ts): the storage two workers fill
 * halves of, and BlockTruePeaks, which interpolates only the blocks whose peak could matter at a gain.
 */
import { LIMITER_BLOCK } from './limiter';
import { HISTORY, interpolatePeaks, TRUE_PEAK_DELAY, TRUE_PEAK_TAP_L1 } from './true-peak';
import { centrePeak, truePeakBound } from './true-peak-centre';
import type { PeakShare } from './true-peak-share';
import {
  CENTRE_RUN_BLOCKS,
  type TruePeakCentreKernel,
  truePeakCentreKernel,
} from './wasm/true-peak-centre-kernel';

/**
 * What BlockTruePeaks knows per block: its true peak, the state of that knowledge (0 nothing, 1 `bound`
 * known, 2 `peaks` exact) and the bound. On shared memory when two workers fill halves of it.
 */
export interface TruePeakStorage {
  peaks: Float64Array;
  state: Uint8Array;
  bound: Float64Array;
}

export const truePeakStorage = (blocks: number, shared = false): TruePeakStorage => {
  const memory = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  return {
    peaks: new Float64Array(memory(blocks * 8)),
    state: new Uint8Array(memory(blocks)),
    bound: new Float64Array(memory(blocks * 8)),
  };
};

/**
 * True peak per block as the streaming limiter's detector sees it (values of input frame i belong to frame
 * i - TRUE_PEAK_DELAY).
 * Computed lazily: `ensure(gain)` interpolates only the blocks whose true peak could reach `threshold` at
 * that gain; the others cannot ask for gain reduction and keep reading 0, exactly what their true peak would
 * give the planner. Two rigorous bounds rule blocks out: first the taps' L1 bound on the samples (free), then
 * the interpolator's centre taps plus a bound of the rest (a quarter of the full work, kept per block). Raising
 * the gain later computes just the blocks that became relevant.
 */
export class BlockTruePeaks {
  readonly peaks: Float64Array;
  #channels: readonly Float32Array[];
  #threshold: number;
  #state: Uint8Array;
  #bound: Float64Array;
  /** Per block, its sample peak: a block's outputs read its own and its neighbours' samples. */
  #sampleMax: Float64Array;
  #frames: number;
  #gain: number;
  #share: PeakShare | null;
  /** Per group of GROUP blocks, the largest window |x| of its blocks (-1 until first looked at). */
  #groupWindow: Float64Array;

  /**
   * `storage` and `ensuredGain`: what was found before, e.g. by two workers each running `ensureRange` on
   * half of the blocks at that gain. `share`: every `ensure` runs on both workers of the two-worker render
   * (true-peak-share.ts), on storage they both see.
   */
  constructor(
    channels: readonly Float32Array[],
    sampleMax: Float64Array,
    threshold: number,
    storage: TruePeakStorage = truePeakStorage(sampleMax.length),
    ensuredGain = 0,
    share: PeakShare | null = null,
  ) {
    this.#channels = channels;
    this.#share = share;
    this.#threshold = threshold;
    this.#frames = channels[0]?.length ?? 0;
    this.#gain = ensuredGain;
    this.peaks = storage.peaks;
    this.#state = storage.state;
    this.#bound = storage.bound;
    // The window maxima are taken where a block is looked at (ensureRange), not for the whole track here:
    // each worker of the two-worker render made its own whole-track copy for its half, and the loudness solve
    // a third (about 100 ms together at 4 minutes, serial in the solve, decision 295).
    this.#sampleMax = sampleMax;
    this.#groupWindow = new Float64Array(Math.ceil(sampleMax.length / GROUP)).fill(-1);
  }

  /**
   * Whether a block of group g can pass the window test at `limit`. When not, none of its blocks is looked
   * at: each fails the test (its window |x| is at most the group's), and none waits with state 1 either, since
   * a block got state 1 only at an earlier ask's limit, which was no smaller (the gains asked for on one
   * storage only rise: ensure's guard, and the share opens its asks in ensure's order).
   */
  #live(g: number, limit: number): boolean {
    let w = this.#groupWindow[g]!;
    if (w < 0) {
      const sampleMax = this.#sampleMax;
      const to = Math.min(sampleMax.length, (g + 1) * GROUP + 1);
      w = 0;
      for (let b = Math.max(0, g * GROUP - 1); b < to; b++) if (sampleMax[b]! > w) w = sampleMax[b]!;
      this.#groupWindow[g] = w;
    }
    return w * TRUE_PEAK_TAP_L1 > limit;
  }

  ensure(gain: number): void {
    if (gain <= this.#gain) return;
    this.#gain = gain;
    if (this.#share) this.#share.run(gain, (g, from, to) => this.ensureRange(g, from, to));
    else this.ensureRange(gain, 0, this.#sampleMax.length);
  }

  /**
   * ensure's work over blocks [from, to) alone. Each block's true peak depends on the samples only, so
   * halves done apart (by two workers on shared storage) leave exactly what one call over all would.
   */
  ensureRange(gain: number, from: number, to: number): void {
    const state = this.#state;
    const bound = this.#bound;
    const sampleMax = this.#sampleMax;
    const last = sampleMax.length - 1;
    const limit = this.#threshold / gain;
    const kernel = truePeakCentreKernel();
    if (kernel) this.#boundsInRuns(kernel, limit, from, to);
    else
      for (let b = from; b < to; b++) {
        if ((b === from || (b & (GROUP - 1)) === 0) && !this.#live(b >> GROUP_SHIFT, limit)) {
          b = Math.min(to, ((b >> GROUP_SHIFT) + 1) * GROUP) - 1;
          continue;
        }
        if (state[b] !== 0) continue;
        // |x| over the windows of the block's outputs: its own and its neighbours' sample peaks.
        const w = windowMax(sampleMax, b, last);
        if (w * TRUE_PEAK_TAP_L1 <= limit) continue;
        let centre = 0;
        for (const data of this.#channels) centre = Math.max(centre, centreOfBlock(data, this.#frames, b));
        bound[b] = truePeakBound(centre, w);
        state[b] = 1;
      }
    const needs = (b: number) => state[b] === 1 && bound[b]! > limit;
    let b = from;
    while (b < to) {
      if ((b === from || (b & (GROUP - 1)) === 0) && !this.#live(b >> GROUP_SHIFT, limit)) {
        b = Math.min(to, ((b >> GROUP_SHIFT) + 1) * GROUP);
        continue;
      }
      if (!needs(b)) {
        b++;
        continue;
      }
      // A run of blocks that need the interpolator: slide through it once.
      let e = b + 1;
      while (e < to && needs(e)) e++;
      for (const data of this.#channels) detectRun(data, this.#frames, b, e, this.peaks);
      state.fill(2, b, e);
      b = e;
    }
  }
  /**
   * The JavaScript loop's bounds with the centre peaks from the WebAssembly kernel (decision 293): the blocks
   * the window test lets through, in spans of at most CENTRE_RUN_BLOCKS that bridge gaps of up to SPAN_GAP
   * blocks (the kernel's values of the blocks in a gap are dropped). Each block gets the values the loop
   * gives it: the same centre peaks, maximised over the channels in the same order.
   */
  #boundsInRuns(kernel: TruePeakCentreKernel, limit: number, from: number, to: number): void {
    const state = this.#state;
    const bound = this.#bound;
    const sampleMax = this.#sampleMax;
    const last = sampleMax.length - 1;
    const channels = this.#channels;
    if (spanCentres.length < channels.length * CENTRE_RUN_BLOCKS)
      spanCentres = new Float64Array(channels.length * CENTRE_RUN_BLOCKS);
    let start = -1;
    let end = -1;
    const flush = () => {
      const count = end - start;
      for (let c = 0; c < channels.length; c++)
        kernel.centreBlocks(channels[c]!, this.#frames, start, count, spanCentres, c * CENTRE_RUN_BLOCKS);
      for (let k = 0; k < count; k++) {
        const w = spanWindows[k]!;
        if (w < 0) continue;
        let centre = 0;
        for (let c = 0; c < channels.length; c++)
          centre = Math.max(centre, spanCentres[c * CENTRE_RUN_BLOCKS + k]!);
        bound[start + k] = truePeakBound(centre, w);
        state[start + k] = 1;
      }
      start = -1;
    };
    for (let b = from; b < to; b++) {
      if ((b === from || (b & (GROUP - 1)) === 0) && !this.#live(b >> GROUP_SHIFT, limit)) {
        b = Math.min(to, ((b >> GROUP_SHIFT) + 1) * GROUP) - 1;
        continue;
      }
      if (state[b] !== 0) continue;
      const w = windowMax(sampleMax, b, last);
      if (w * TRUE_PEAK_TAP_L1 <= limit) continue;
      if (start >= 0 && (b - end > SPAN_GAP || b - start >= CENTRE_RUN_BLOCKS)) flush();
      if (start < 0) start = end = b;
      // Blocks of a bridged gap are marked as not asked for.
      while (end < b) spanWindows[end++ - start] = -1;
      spanWindows[b - start] = w;
      end = b + 1;
    }
    if (start >= 0) flush();
  }
}

const windowMax = (sampleMax: Float64Array, b: number, last: number): number => {
  let w = sampleMax[b]!;
  if (b > 0 && sampleMax[b - 1]! > w) w = sampleMax[b - 1]!;
  if (b < last && sampleMax[b + 1]! > w) w = sampleMax[b + 1]!;
  return w;
};

/** Blocks per group whose window |x| is kept, so a quiet stretch is passed over a group at a time. */
const GROUP_SHIFT = 5;
const GROUP = 1 << GROUP_SHIFT;
/** Gaps a span of the centre kernel bridges: computing a few blocks for nothing costs less than a call. */
const SPAN_GAP = 4;
const spanWindows = new Float64Array(CENTRE_RUN_BLOCKS);
/** The kernel's centre peaks of a span, per channel (channels beyond the buffer: a larger one is made). */
let spanCentres = new Float64Array(2 * CENTRE_RUN_BLOCKS);

/** Scratch for blocks at the track's ends, where the centre taps reach past the samples. */
const centreInput = new Float32Array(HISTORY + LIMITER_BLOCK + 1);

/**
 * The centre-tap peak of block b's outputs and of the frame before it (whose last oversampled value the
 * refinement at the block's first frame looks at). Output frame f reads input index f + TRUE_PEAK_DELAY.
 */
const centreOfBlock = (data: Float32Array, frames: number, b: number): number => {
  const from = b * LIMITER_BLOCK - 1 + TRUE_PEAK_DELAY;
  const to = from + LIMITER_BLOCK + 1;
  if (from - HISTORY >= 0 && to <= frames) return centrePeak(data, from, to);
  const lo = from - HISTORY;
  for (let k = 0; k < to - lo; k++) centreInput[k] = sampleAt(data, frames, lo + k);
  return centrePeak(centreInput, HISTORY, HISTORY + LIMITER_BLOCK + 1);
};

const sampleAt = (data: Float32Array, frames: number, k: number): number =>
  k >= 0 && k < frames ? data[k]! : 0;

/** Blocks interpolated per step: the scratch arrays stay small whatever the track's length. */
const RUN_BLOCKS = 256;
const runInput = new Float32Array(RUN_BLOCKS * LIMITER_BLOCK + HISTORY);
const runOutput = new Float64Array(RUN_BLOCKS * LIMITER_BLOCK);

const detectRun = (data: Float32Array, frames: number, b0: number, b1: number, peaks: Float64Array): void => {
  for (let c0 = b0; c0 < b1; c0 += RUN_BLOCKS) {
    const c1 = Math.min(b1, c0 + RUN_BLOCKS);
    const n = (c1 - c0) * LIMITER_BLOCK;
    // Input frames lo..hi: the history, then the frames whose values belong to blocks c0..c1.
    const lo = c0 * LIMITER_BLOCK + TRUE_PEAK_DELAY - HISTORY;
    const hi = lo + HISTORY + n;
    if (lo >= 0 && hi <= frames) runInput.set(data.subarray(lo, hi));
    else for (let k = 0; k < hi - lo; k++) runInput[k] = sampleAt(data, frames, lo + k);
    runOutput.fill(0, 0, n);
    interpolatePeaks(runInput, HISTORY, HISTORY + n, runOutput, 0);
    for (let b = c0; b < c1; b++) {
      let blockMax = peaks[b]!;
      const o = (b - c0) * LIMITER_BLOCK;
      for (let k = o; k < o + LIMITER_BLOCK; k++) if (runOutput[k]! > blockMax) blockMax = runOutput[k]!;
      peaks[b] = blockMax;
    }
  }
};
