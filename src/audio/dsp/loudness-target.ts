/**
 * The loudness stage, offline: measure the processed signal, then find the gain that brings the *limited*
 * output to the target. The limiter lowers loudness where it works, so the gain is solved with the limiter
 * in the loop — at block rate, on per-block K-weighted energies and true peaks gathered in one pass,
 * which costs milliseconds per iteration instead of a full render.
 */

import { DynamicsStats, type DynamicsSummary } from './dynamics-stats';
import { LIMITER_BLOCK, type LimiterOptions } from './limiter';
import { gatedLoudness, kWeighting, RELATIVE_GATE_LU } from './loudness';
import { hasPeakStage, StagedLimiterComputer } from './staged-limiter';
import { HISTORY, interpolatePeaks, TRUE_PEAK_DELAY, TRUE_PEAK_TAP_L1 } from './true-peak';
import { centrePeak, truePeakBound } from './true-peak-centre';
import { simdKernels } from './wasm/simd-kernels';

/** Per-limiter-block statistics of a signal, gathered while it streams past. */
export class BlockAnalysis {
  readonly sampleRate: number;
  readonly channelCount: number;
  /** K-weighted, channel-weighted sum of squares per 16-frame block. */
  energy: Float64Array;
  /** Largest |sample| over all channels per block. */
  sampleMax: Float64Array;
  #state: Float64Array;
  #k: ReturnType<typeof kWeighting>;
  #frames = 0;

  constructor(sampleRate: number, channelCount: number, frames: number) {
    this.sampleRate = sampleRate;
    this.channelCount = channelCount;
    const blocks = Math.ceil(frames / LIMITER_BLOCK) + 1;
    this.energy = new Float64Array(blocks);
    this.sampleMax = new Float64Array(blocks);
    this.#state = new Float64Array(channelCount * 4);
    this.#k = kWeighting(sampleRate);
  }

  get frames(): number {
    return this.#frames;
  }

  /** Adds `channels[c][start..end)`; `start` must continue where the last call ended. */
  push(channels: readonly Float32Array[], start: number, end: number): void {
    if (this.channelCount === 2) {
      this.#pushStereo(channels[0]!, channels[1]!, start, end);
      return;
    }
    this.#pushChannels(channels, start, end);
  }

  /** Both channels in one loop: their filter recursions overlap in the CPU. */
  #pushStereo(left: Float32Array, right: Float32Array, start: number, end: number): void {
    // The same loop in WebAssembly SIMD, both channels' filters in one instruction (decision 160).
    const kernels = simdKernels();
    if (kernels) {
      kernels.kWeightedBlocks(
        this.#k,
        this.#state,
        left,
        right,
        start,
        end,
        this.#frames,
        this.energy,
        this.sampleMax,
      );
      this.#frames += end - start;
      return;
    }
    const [sb0, sb1, sb2, sa1, sa2] = this.#k.shelf;
    const [hb0, hb1, hb2, ha1, ha2] = this.#k.highpass;
    const energy = this.energy;
    const sampleMax = this.sampleMax;
    const offset = this.#frames - start;
    const st = this.#state;
    let ls1 = st[0]!;
    let ls2 = st[1]!;
    let lh1 = st[2]!;
    let lh2 = st[3]!;
    let rs1 = st[4]!;
    let rs2 = st[5]!;
    let rh1 = st[6]!;
    let rh2 = st[7]!;
    let i = start;
    while (i < end) {
      const frame = i + offset;
      const block = frame >> 4;
      const stop = Math.min(end, i + (LIMITER_BLOCK - (frame & (LIMITER_BLOCK - 1))));
      let sum = 0;
      let max = sampleMax[block]!;
      for (; i < stop; i++) {
        const xl = left[i]!;
        const xr = right[i]!;
        const al = xl < 0 ? -xl : xl;
        const ar = xr < 0 ? -xr : xr;
        if (al > max) max = al;
        if (ar > max) max = ar;
        const yl = sb0 * xl + ls1;
        const yr = sb0 * xr + rs1;
        ls1 = sb1 * xl - sa1 * yl + ls2;
        rs1 = sb1 * xr - sa1 * yr + rs2;
        ls2 = sb2 * xl - sa2 * yl;
        rs2 = sb2 * xr - sa2 * yr;
        const zl = hb0 * yl + lh1;
        const zr = hb0 * yr + rh1;
        lh1 = hb1 * yl - ha1 * zl + lh2;
        rh1 = hb1 * yr - ha1 * zr + rh2;
        lh2 = hb2 * yl - ha2 * zl;
        rh2 = hb2 * yr - ha2 * zr;
        sum += zl * zl + zr * zr;
      }
      energy[block] = energy[block]! + sum;
      sampleMax[block] = max;
    }
    const flush = (v: number) => (Math.abs(v) < 1e-25 ? 0 : v);
    st[0] = flush(ls1);
    st[1] = flush(ls2);
    st[2] = flush(lh1);
    st[3] = flush(lh2);
    st[4] = flush(rs1);
    st[5] = flush(rs2);
    st[6] = flush(rh1);
    st[7] = flush(rh2);
    this.#frames += end - start;
  }

  #pushChannels(channels: readonly Float32Array[], start: number, end: number): void {
    const [sb0, sb1, sb2, sa1, sa2] = this.#k.shelf;
    const [hb0, hb1, hb2, ha1, ha2] = this.#k.highpass;
    const energy = this.energy;
    const sampleMax = this.sampleMax;
    const offset = this.#frames - start;
    for (let c = 0; c < this.channelCount; c++) {
      const data = channels[c]!;
      const st = this.#state;
      const o = c * 4;
      let s1 = st[o]!;
      let s2 = st[o + 1]!;
      let h1 = st[o + 2]!;
      let h2 = st[o + 3]!;
      let i = start;
      while (i < end) {
        const frame = i + offset;
        const block = frame >> 4;
        const stop = Math.min(end, i + (LIMITER_BLOCK - (frame & (LIMITER_BLOCK - 1))));
        let sum = 0;
        let max = sampleMax[block]!;
        for (; i < stop; i++) {
          const x = data[i]!;
          const ax = x < 0 ? -x : x;
          if (ax > max) max = ax;
          const y = sb0 * x + s1;
          s1 = sb1 * x - sa1 * y + s2;
          s2 = sb2 * x - sa2 * y;
          const z = hb0 * y + h1;
          h1 = hb1 * y - ha1 * z + h2;
          h2 = hb2 * y - ha2 * z;
          sum += z * z;
        }
        energy[block] = energy[block]! + sum;
        sampleMax[block] = max;
      }
      st[o] = Math.abs(s1) < 1e-25 ? 0 : s1;
      st[o + 1] = Math.abs(s2) < 1e-25 ? 0 : s2;
      st[o + 2] = Math.abs(h1) < 1e-25 ? 0 : h1;
      st[o + 3] = Math.abs(h2) < 1e-25 ? 0 : h2;
    }
    this.#frames += end - start;
  }
}

/**
 * Integrated loudness from block energies, each block scaled by `gainSquared[b]` (or 1): 100 ms sub-blocks
 * are groups of whole 16-frame blocks (boundaries within 16 frames of the exact ones), 400 ms gating blocks
 * with 75% overlap, gates as in loudness.ts.
 */
export const integratedFromBlocks = (
  energy: Float64Array,
  frames: number,
  sampleRate: number,
  gainSquared?: Float64Array,
): number =>
  gatedFromSubBlocks(frames, sampleRate, (from, to) => {
    let sum = 0;
    for (let b = from; b < to; b++) sum += gainSquared ? energy[b]! * gainSquared[b]! : energy[b]!;
    return sum;
  });

/**
 * `integratedFromBlocks(energy, frames, sampleRate, blockGainSquared(plan, inputGain, blocks))` without the
 * whole-track array of gains in between (the loudness solve asks it once per gain it tries, decision 295):
 * each block's mean square gain is computed where it is used, by the same operations, so the same value.
 */
export const integratedWithPlan = (
  energy: Float64Array,
  frames: number,
  sampleRate: number,
  plan: LimiterPlan,
  inputGain: number,
): number => {
  const g = plan.boundaryGains;
  const gg = inputGain * inputGain;
  return gatedFromSubBlocks(frames, sampleRate, (from, to) => {
    let sum = 0;
    for (let b = from; b < to; b++) {
      const a = g[b]!;
      const c = g[b + 1]!;
      sum += energy[b]! * (((a * a + a * c + c * c) / 3) * gg);
    }
    return sum;
  });
};

/** The gating over 100 ms sub-blocks whose energies `sumOf(from, to)` gives over 16-frame blocks. */
const gatedFromSubBlocks = (
  frames: number,
  sampleRate: number,
  sumOf: (from: number, to: number) => number,
): number => {
  const subBlocks = Math.floor(frames / (sampleRate / 10));
  const sub = new Float64Array(subBlocks);
  const counts = new Float64Array(subBlocks);
  for (let k = 0; k < subBlocks; k++) {
    const from = Math.round((k * sampleRate) / 10 / LIMITER_BLOCK);
    const to = Math.round(((k + 1) * sampleRate) / 10 / LIMITER_BLOCK);
    sub[k] = sumOf(from, to);
    counts[k] = (to - from) * LIMITER_BLOCK;
  }
  const blocks: number[] = [];
  for (let last = 3; last < subBlocks; last++) {
    const s = sub[last]! + sub[last - 1]! + sub[last - 2]! + sub[last - 3]!;
    const n = counts[last]! + counts[last - 1]! + counts[last - 2]! + counts[last - 3]!;
    blocks.push(s / n);
  }
  return gatedLoudness(blocks, RELATIVE_GATE_LU);
};

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

  /**
   * `storage` and `ensuredGain`: what was found before, e.g. by two workers each running `ensureRange` on
   * half of the blocks at that gain.
   */
  constructor(
    channels: readonly Float32Array[],
    sampleMax: Float64Array,
    threshold: number,
    storage: TruePeakStorage = truePeakStorage(sampleMax.length),
    ensuredGain = 0,
  ) {
    this.#channels = channels;
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
  }

  ensure(gain: number): void {
    if (gain <= this.#gain) return;
    this.#gain = gain;
    this.ensureRange(gain, 0, this.#sampleMax.length);
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
    for (let b = from; b < to; b++) {
      if (state[b] !== 0) continue;
      // |x| over the windows of the block's outputs: its own and its neighbours' sample peaks.
      let w = sampleMax[b]!;
      if (b > 0 && sampleMax[b - 1]! > w) w = sampleMax[b - 1]!;
      if (b < last && sampleMax[b + 1]! > w) w = sampleMax[b + 1]!;
      if (w * TRUE_PEAK_TAP_L1 <= limit) continue;
      let centre = 0;
      for (const data of this.#channels) centre = Math.max(centre, centreOfBlock(data, this.#frames, b));
      bound[b] = truePeakBound(centre, w);
      state[b] = 1;
    }
    const needs = (b: number) => state[b] === 1 && bound[b]! > limit;
    let b = from;
    while (b < to) {
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
}

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

export interface LimiterPlan {
  /** Gain at the start boundary of every 16-frame block (one extra at the end). */
  boundaryGains: Float64Array;
  /** Deepest gain reduction of the brickwall limiter, in dB (<= 0). */
  minGainDb: number;
  /** Deepest gain reduction of the peak compressor before it (decision 265), dB; 0 without one. */
  compressorMinGainDb?: number;
  /** Each stage's reduction over the blocks, when asked for (the render's report, decision 126). */
  stages?: { limiter: DynamicsSummary; peakCompressor: DynamicsSummary | null };
}

/**
 * Runs the limiter's gain computer over stored block peaks scaled by `inputGain`, exactly as the streaming
 * limiter would (blocks after the end read as silence).
 */
export const planLimiter = (
  peaks: Float64Array,
  blocks: number,
  inputGain: number,
  sampleRate: number,
  options: LimiterOptions,
  /** Also summarise each stage's gains over the blocks (one more log per block: for the final plan only). */
  summarise = false,
): LimiterPlan => {
  const computer = new StagedLimiterComputer(sampleRate, options);
  const limiterStats = summarise ? new DynamicsStats() : null;
  const compressorStats = summarise && hasPeakStage(options) ? new DynamicsStats() : null;
  const record = (stats: DynamicsStats | null, g: number) => stats?.record(g >= 1 ? 0 : 20 * Math.log10(g));
  const A = computer.delay;
  const gains = new Float64Array(blocks + 1).fill(1);
  let minGain = 1;
  let minCompressor = 1;
  for (let b = 0; b <= blocks + A; b++) {
    const s = computer.push(b < peaks.length ? peaks[b]! * inputGain : 0);
    const j = b - A;
    if (j >= 0 && j <= blocks) {
      gains[j] = s;
      if (computer.limiterGain < minGain) minGain = computer.limiterGain;
      if (computer.compressorGain < minCompressor) minCompressor = computer.compressorGain;
      // As summariseGains counts a plan's gains: the block start boundaries.
      if (j < blocks) {
        record(limiterStats, computer.limiterGain);
        record(compressorStats, computer.compressorGain);
      }
    }
  }
  return {
    boundaryGains: gains,
    minGainDb: 20 * Math.log10(minGain),
    compressorMinGainDb: 20 * Math.log10(minCompressor),
    ...(limiterStats
      ? { stages: { limiter: limiterStats.summary(), peakCompressor: compressorStats?.summary() ?? null } }
      : {}),
  };
};

/** Mean square of the per-frame gain over each block (a linear ramp between its boundary gains). */
export const blockGainSquared = (plan: LimiterPlan, inputGain: number, blocks: number): Float64Array => {
  const out = new Float64Array(blocks);
  const g = plan.boundaryGains;
  const gg = inputGain * inputGain;
  for (let b = 0; b < blocks; b++) {
    const a = g[b]!;
    const c = g[b + 1]!;
    out[b] = ((a * a + a * c + c * c) / 3) * gg;
  }
  return out;
};
