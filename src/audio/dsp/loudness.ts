/**
 * Loudness after ITU-R BS.1770-4 and EBU R128: K-weighting, 100 ms sub-blocks, momentary (400 ms),
 * short-term (3 s), gated integrated loudness (-70 LUFS absolute, -10 LU relative), loudness range after
 * EBU Tech 3342 (short-term values, -70 LUFS absolute and -20 LU relative gates, 10th to 95th percentile)
 * and true peak (see true-peak.ts).
 *
 * The meter is a stream: push any number of samples at a time. It keeps one energy per 100 ms sub-block
 * (10 numbers a second), so integrated loudness and range are exact over the whole programme.
 */
import { TruePeakMeter } from './true-peak';
import { kWeightedMono } from './wasm/kweighted-mono';
import { simdKernels } from './wasm/simd-kernels';

export interface KWeighting {
  /** Stage 1, the head's high shelf (+4 dB above ~1.7 kHz). */
  shelf: [b0: number, b1: number, b2: number, a1: number, a2: number];
  /** Stage 2, the RLB high-pass (~38 Hz). */
  highpass: [b0: number, b1: number, b2: number, a1: number, a2: number];
}

/**
 * K-weighting at any sample rate, from the analogue prototypes behind BS.1770's 48 kHz coefficients
 * (the same derivation libebur128 uses); at 48 kHz it reproduces the standard's table.
 */
export const kWeighting = (sampleRate: number): KWeighting => {
  const f0 = 1681.974450955533;
  const G = 3.999843853973347;
  const Q = 0.7071752369554196;
  let K = Math.tan((Math.PI * f0) / sampleRate);
  const Vh = 10 ** (G / 20);
  const Vb = Vh ** 0.4996667741545416;
  let a0 = 1 + K / Q + K * K;
  const shelf: KWeighting['shelf'] = [
    (Vh + (Vb * K) / Q + K * K) / a0,
    (2 * (K * K - Vh)) / a0,
    (Vh - (Vb * K) / Q + K * K) / a0,
    (2 * (K * K - 1)) / a0,
    (1 - K / Q + K * K) / a0,
  ];
  const f1 = 38.13547087602444;
  const Q1 = 0.5003270373238773;
  K = Math.tan((Math.PI * f1) / sampleRate);
  a0 = 1 + K / Q1 + K * K;
  const highpass: KWeighting['highpass'] = [1, -2, 1, (2 * (K * K - 1)) / a0, (1 - K / Q1 + K * K) / a0];
  return { shelf, highpass };
};

/** BS.1770 channel weights: L, R, C 1.0; surrounds 1.41 (channels 4 and 5 of a 5.1 layout); LFE excluded. */
const channelWeight = (index: number, count: number): number => {
  if (count === 6) return index === 3 ? 0 : index >= 4 ? 1.41 : 1;
  return 1;
};

export const ABSOLUTE_GATE_LUFS = -70;
export const RELATIVE_GATE_LU = -10;
export const LRA_RELATIVE_GATE_LU = -20;

const energyToLufs = (energy: number): number => (energy > 0 ? -0.691 + 10 * Math.log10(energy) : -Infinity);
const lufsToEnergy = (lufs: number): number => 10 ** ((lufs + 0.691) / 10);

export interface LoudnessReport {
  integratedLufs: number;
  loudnessRangeLu: number;
  truePeakDbtp: number;
  maxMomentaryLufs: number;
  maxShortTermLufs: number;
  /** Seconds of audio measured. */
  duration: number;
}

export interface LoudnessMeterOptions {
  /** Measure true peak too (costs a 4x interpolation of every sample). Default true. */
  truePeak?: boolean;
  /**
   * Channel weights in place of BS.1770's layout weights. A mono signal that stands for a two-channel one
   * with the same samples on both sides is measured as one channel of weight 2: the same energies, bit for
   * bit, for half the filtering (the mixdown's mono vocal).
   */
  weights?: readonly number[];
}

export class LoudnessMeter {
  readonly sampleRate: number;
  readonly channelCount: number;
  #weights: Float64Array;
  /** Per channel: shelf s1, s2, high-pass s1, s2. */
  #state: Float64Array;
  #k: KWeighting;
  #truePeak: TruePeakMeter | null;
  /** Weighted sum of K-weighted squares and sample count, per completed 100 ms sub-block. */
  #subSums = new Float64Array(256);
  #subCounts = new Float64Array(256);
  #subBlocks = 0;
  /** The sub-block being filled. */
  #partialSum = 0;
  #partialCount = 0;
  #framesSeen = 0;

  constructor(sampleRate: number, channelCount: number, options: LoudnessMeterOptions = {}) {
    this.sampleRate = sampleRate;
    this.channelCount = channelCount;
    this.#weights = Float64Array.from(
      { length: channelCount },
      (_, i) => options.weights?.[i] ?? channelWeight(i, channelCount),
    );
    this.#state = new Float64Array(channelCount * 4);
    this.#k = kWeighting(sampleRate);
    this.#truePeak = options.truePeak === false ? null : new TruePeakMeter(channelCount);
  }

  /** Sub-block k ends at round((k + 1) * rate / 10): exact 100 ms on average at any rate. */
  #subBlockEnd(k: number): number {
    return Math.round(((k + 1) * this.sampleRate) / 10);
  }

  /** Measures `channels[c][start..end)` for every channel. */
  push(channels: readonly Float32Array[], start = 0, end = channels[0]?.length ?? 0): void {
    this.#truePeak?.push(channels, start, end);
    let position = start;
    while (position < end) {
      const boundary = this.#subBlockEnd(this.#subBlocks) - this.#framesSeen;
      const stop = Math.min(end, position + boundary);
      let sum = 0;
      const w = this.#weights;
      if (this.channelCount === 2 && w[0] !== 0 && w[1] !== 0) {
        // Stereo: both channels in one loop (the same sums as two passes, in a fraction of the time).
        const [left, right] = this.#filterAndSquarePair(channels[0]!, channels[1]!, position, stop);
        sum = w[0]! * left + w[1]! * right;
      } else {
        for (let c = 0; c < this.channelCount; c++) {
          if (w[c] !== 0) sum += w[c]! * this.#filterAndSquare(channels[c]!, c, position, stop);
        }
      }
      this.#partialSum += sum;
      this.#partialCount += stop - position;
      this.#framesSeen += stop - position;
      position = stop;
      if (this.#framesSeen === this.#subBlockEnd(this.#subBlocks)) this.#completeSubBlock();
    }
  }

  /** K-weights one channel's span (both stages fused, state kept) and returns the sum of squares. */
  #filterAndSquare(data: Float32Array, channel: number, start: number, end: number): number {
    // The same loop in WebAssembly SIMD, the two stages side by side in one instruction (decision 314).
    const mono = kWeightedMono();
    if (mono) return mono.sumOfSquares(this.#k, this.#state, channel * 4, data, start, end);
    const [sb0, sb1, sb2, sa1, sa2] = this.#k.shelf;
    const [hb0, hb1, hb2, ha1, ha2] = this.#k.highpass;
    const st = this.#state;
    const o = channel * 4;
    let s1 = st[o]!;
    let s2 = st[o + 1]!;
    let h1 = st[o + 2]!;
    let h2 = st[o + 3]!;
    let sum = 0;
    for (let i = start; i < end; i++) {
      const x = data[i]!;
      const y = sb0 * x + s1;
      s1 = sb1 * x - sa1 * y + s2;
      s2 = sb2 * x - sa2 * y;
      const z = hb0 * y + h1;
      h1 = hb1 * y - ha1 * z + h2;
      h2 = hb2 * y - ha2 * z;
      sum += z * z;
    }
    // Flush decaying state before it can become denormal.
    st[o] = Math.abs(s1) < 1e-25 ? 0 : s1;
    st[o + 1] = Math.abs(s2) < 1e-25 ? 0 : s2;
    st[o + 2] = Math.abs(h1) < 1e-25 ? 0 : h1;
    st[o + 3] = Math.abs(h2) < 1e-25 ? 0 : h2;
    return sum;
  }

  /**
   * #filterAndSquare of channels 0 and 1 in one loop: each filter is a chain of dependent multiply-adds, so
   * two independent chains interleaved keep the core busy where one leaves it waiting. Per channel the
   * arithmetic is exactly #filterAndSquare's, so the sums are bit-identical.
   */
  #filterAndSquarePair(
    left: Float32Array,
    right: Float32Array,
    start: number,
    end: number,
  ): [number, number] {
    // The same loop in WebAssembly SIMD, the two channels' filters and sums in one instruction (decision 160).
    const kernels = simdKernels();
    if (kernels) return kernels.kWeightedSums(this.#k, this.#state, left, right, start, end);
    const [sb0, sb1, sb2, sa1, sa2] = this.#k.shelf;
    const [hb0, hb1, hb2, ha1, ha2] = this.#k.highpass;
    const st = this.#state;
    let s1 = st[0]!;
    let s2 = st[1]!;
    let h1 = st[2]!;
    let h2 = st[3]!;
    let t1 = st[4]!;
    let t2 = st[5]!;
    let g1 = st[6]!;
    let g2 = st[7]!;
    let sumL = 0;
    let sumR = 0;
    for (let i = start; i < end; i++) {
      const x = left[i]!;
      const u = right[i]!;
      const y = sb0 * x + s1;
      const v = sb0 * u + t1;
      s1 = sb1 * x - sa1 * y + s2;
      t1 = sb1 * u - sa1 * v + t2;
      s2 = sb2 * x - sa2 * y;
      t2 = sb2 * u - sa2 * v;
      const z = hb0 * y + h1;
      const q = hb0 * v + g1;
      h1 = hb1 * y - ha1 * z + h2;
      g1 = hb1 * v - ha1 * q + g2;
      h2 = hb2 * y - ha2 * z;
      g2 = hb2 * v - ha2 * q;
      sumL += z * z;
      sumR += q * q;
    }
    const flush = (x: number) => (Math.abs(x) < 1e-25 ? 0 : x);
    st[0] = flush(s1);
    st[1] = flush(s2);
    st[2] = flush(h1);
    st[3] = flush(h2);
    st[4] = flush(t1);
    st[5] = flush(t2);
    st[6] = flush(g1);
    st[7] = flush(g2);
    return [sumL, sumR];
  }

  #completeSubBlock(): void {
    if (this.#subBlocks === this.#subSums.length) {
      const sums = new Float64Array(this.#subSums.length * 2);
      sums.set(this.#subSums);
      this.#subSums = sums;
      const counts = new Float64Array(this.#subCounts.length * 2);
      counts.set(this.#subCounts);
      this.#subCounts = counts;
    }
    this.#subSums[this.#subBlocks] = this.#partialSum;
    this.#subCounts[this.#subBlocks] = this.#partialCount;
    this.#subBlocks++;
    this.#partialSum = 0;
    this.#partialCount = 0;
  }

  /** Mean weighted energy of the `length` sub-blocks ending with sub-block `last` (inclusive). */
  #windowEnergy(last: number, length: number): number {
    let sum = 0;
    let count = 0;
    for (let k = last - length + 1; k <= last; k++) {
      sum += this.#subSums[k]!;
      count += this.#subCounts[k]!;
    }
    return count > 0 ? sum / count : 0;
  }

  /** Number of completed 100 ms sub-blocks so far. */
  get subBlockCount(): number {
    return this.#subBlocks;
  }

  /**
   * Sum of the weighted energies of `length` consecutive 100 ms sub-blocks starting at `first`, and their
   * frame count: lets an analysis slide a window of any length (the loudest 30 s) without its own K-weighting.
   */
  windowSum(first: number, length: number): { sum: number; frames: number } {
    let sum = 0;
    let frames = 0;
    for (let k = Math.max(0, first); k < Math.min(this.#subBlocks, first + length); k++) {
      sum += this.#subSums[k]!;
      frames += this.#subCounts[k]!;
    }
    return { sum, frames };
  }

  /** Momentary loudness (400 ms) ending at sub-block `last` (default: the latest); -Infinity before 400 ms. */
  momentary(last = this.#subBlocks - 1): number {
    return last >= 3 ? energyToLufs(this.#windowEnergy(last, 4)) : -Infinity;
  }

  /** Short-term loudness (3 s) ending at sub-block `last` (default: the latest); -Infinity before 3 s. */
  shortTerm(last = this.#subBlocks - 1): number {
    return last >= 29 ? energyToLufs(this.#windowEnergy(last, 30)) : -Infinity;
  }

  /** Gated integrated loudness of everything pushed so far (complete 400 ms blocks, 75% overlap). */
  integrated(): number {
    const energies: number[] = [];
    for (let last = 3; last < this.#subBlocks; last++) energies.push(this.#windowEnergy(last, 4));
    return gatedLoudness(energies, RELATIVE_GATE_LU);
  }

  /** Loudness range (EBU Tech 3342) in LU of everything pushed so far. */
  loudnessRange(): number {
    const absolute = lufsToEnergy(ABSOLUTE_GATE_LUFS);
    const values: number[] = [];
    let sum = 0;
    for (let last = 29; last < this.#subBlocks; last++) {
      const e = this.#windowEnergy(last, 30);
      if (e > absolute) {
        values.push(e);
        sum += e;
      }
    }
    if (values.length === 0) return 0;
    const relative = lufsToEnergy(energyToLufs(sum / values.length) + LRA_RELATIVE_GATE_LU);
    const gated = values.filter((e) => e > relative).map(energyToLufs);
    if (gated.length === 0) return 0;
    gated.sort((a, b) => a - b);
    const at = (q: number) => gated[Math.round((gated.length - 1) * q)]!;
    return at(0.95) - at(0.1);
  }

  get truePeakDbtp(): number {
    return this.#truePeak ? this.#truePeak.dbtp : Number.NaN;
  }

  report(): LoudnessReport {
    this.#truePeak?.finish();
    let maxM = -Infinity;
    let maxS = -Infinity;
    for (let last = 3; last < this.#subBlocks; last++) maxM = Math.max(maxM, this.momentary(last));
    for (let last = 29; last < this.#subBlocks; last++) maxS = Math.max(maxS, this.shortTerm(last));
    return {
      integratedLufs: this.integrated(),
      loudnessRangeLu: this.loudnessRange(),
      truePeakDbtp: this.truePeakDbtp,
      maxMomentaryLufs: maxM,
      maxShortTermLufs: maxS,
      duration: this.#framesSeen / this.sampleRate,
    };
  }
}

/**
 * Two-stage gating of 400 ms block energies: drop blocks below -70 LUFS, then those more than `relativeLu`
 * below the mean of the rest; the loudness of the mean of what remains.
 */
export const gatedLoudness = (energies: readonly number[], relativeLu: number): number => {
  const absolute = lufsToEnergy(ABSOLUTE_GATE_LUFS);
  let sum = 0;
  let n = 0;
  for (const e of energies) {
    if (e > absolute) {
      sum += e;
      n++;
    }
  }
  if (n === 0) return -Infinity;
  const relative = lufsToEnergy(energyToLufs(sum / n) + relativeLu);
  let gatedSum = 0;
  let gatedN = 0;
  for (const e of energies) {
    if (e > absolute && e > relative) {
      gatedSum += e;
      gatedN++;
    }
  }
  return gatedN > 0 ? energyToLufs(gatedSum / gatedN) : -Infinity;
};

/** Full measurement of whole channels. */
export const measureLoudness = (
  channels: readonly Float32Array[],
  sampleRate: number,
  options: LoudnessMeterOptions = {},
): LoudnessReport => {
  const meter = new LoudnessMeter(sampleRate, channels.length, options);
  meter.push(channels);
  return meter.report();
};
