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
import { simdKernels } from './wasm/simd-kernels';

export { BlockTruePeaks, type TruePeakStorage, truePeakStorage } from './block-true-peaks';

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

  /**
   * `shared`: the two arrays on shared memory, for the other worker of the two-worker render to read as
   * they are (a copy of them was 10 MB of fresh memory at 4 minutes, at the chain's end).
   */
  constructor(sampleRate: number, channelCount: number, frames: number, shared = false) {
    this.sampleRate = sampleRate;
    this.channelCount = channelCount;
    const blocks = Math.ceil(frames / LIMITER_BLOCK) + 1;
    const values = () =>
      shared ? new Float64Array(new SharedArrayBuffer(blocks * 8)) : new Float64Array(blocks);
    this.energy = values();
    this.sampleMax = values();
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
