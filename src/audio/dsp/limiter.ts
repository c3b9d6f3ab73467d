/**
 * Lookahead true-peak limiter.
 *
 * Detection: every frame's 4x oversampled values (the interpolator of true-peak.ts) and samples,
 * largest over all channels (the channels are linked, so the stereo image never shifts).
 * Control: per block of 16 frames the gain the block needs (ceiling / peak), held for the lookahead and a
 * guard block either side, released by a one-pole, and smoothed by a moving average of the log gain over
 * the lookahead. Every value of that average is a mean of gains that are each at most what the peak needs,
 * so the gain in force around a peak never exceeds what the peak needs; the ramp towards it happens in
 * the frames before it (the lookahead). Frames take a gain interpolated between block boundaries.
 * A small margin under the ceiling absorbs the interpolator's view of a gain that changes inside its
 * span of HISTORY + 1 frames.
 *
 * The same object runs as a stream in the AudioWorklet (output delayed by `latency` frames) and offline
 * (`limitOffline` compensates the delay, so the output lines up with the input sample for sample).
 */

import { LIMITER_BLOCK, type LimiterOptions } from './limiter-gain';
import { StagedLimiterComputer } from './staged-limiter';
import { HISTORY, interpolatePeaks, TRUE_PEAK_DELAY, TRUE_PEAK_TAP_L1 } from './true-peak';

const CHUNK = 256;

export {
  LIMITER_BLOCK,
  LimiterGainComputer,
  type LimiterOptions,
  type PeakCompressorOptions,
} from './limiter-gain';

/** The streaming limiter's delay in frames at a sample rate (output frame n is input frame n - latency). */
export const limiterLatency = (sampleRate: number, options: LimiterOptions = {}): number =>
  (2 + new StagedLimiterComputer(sampleRate, options).streamDelay) * LIMITER_BLOCK + TRUE_PEAK_DELAY - 1;

export class TruePeakLimiter {
  readonly channelCount: number;
  /** Output frame m leaves when input frame m + latency arrives. */
  readonly latency: number;
  /** Linear gain applied to the input before detection (the loudness stage's gain). */
  inputGain = 1;
  /**
   * When set, the gain applied to each output frame m is written at frameGains[m] (frames past its end are
   * not): the mixer applies its limiter's gain to the stems too, so the stems sum to the mix (decision 150).
   */
  frameGains: Float32Array | null = null;
  #computer: StagedLimiterComputer;
  #ring: Float32Array[];
  #mask: number;
  /** Per channel: the HISTORY inputs before the next chunk, oldest first, then room for a chunk. */
  #history: Float32Array[];
  /** Boundary gains by block index (ring). */
  #gains: Float64Array;
  #frame = 0;
  #blockPeak = 0;
  /** Per channel: the largest |sample| among the HISTORY in the detector's history. */
  #historyMax: Float64Array;
  #peaks = new Float64Array(CHUNK);
  #frameGain = new Float64Array(CHUNK);
  /** Largest |input| per 16 of the detector's history and chunk (see #interpolate). */
  #subMax = new Float64Array((HISTORY + CHUNK) / 16 + 2);

  constructor(sampleRate: number, channelCount: number, options: LimiterOptions = {}) {
    this.channelCount = channelCount;
    this.#computer = new StagedLimiterComputer(sampleRate, options);
    // The output waits for the stream delay (the two stages' whenever a peak stage is named), though the
    // gains may come sooner (computer.delay): they wait in the ring below.
    const A = this.#computer.streamDelay;
    this.latency = (2 + A) * LIMITER_BLOCK + TRUE_PEAK_DELAY - 1; // as limiterLatency()
    let size = 1;
    // A whole chunk is written before its delayed frames are read.
    while (size < this.latency + CHUNK) size <<= 1;
    this.#mask = size - 1;
    this.#ring = Array.from({ length: channelCount }, () => new Float32Array(size));
    this.#history = Array.from({ length: channelCount }, () => new Float32Array(HISTORY + CHUNK));
    // A ring of boundary gains with room for the delay and the ramp's next boundary.
    let gainSlots = 64;
    while (gainSlots < 2 * (A + 4)) gainSlots <<= 1;
    this.#gains = new Float64Array(gainSlots).fill(1);
    this.#historyMax = new Float64Array(channelCount);
  }

  reset(): void {
    this.#computer.reset();
    for (const r of this.#ring) r.fill(0);
    for (const h of this.#history) h.fill(0);
    this.#gains.fill(1);
    this.#frame = 0;
    this.#blockPeak = 0;
    this.#historyMax.fill(0);
  }

  /**
   * Consumes `input[c][start..end)` and writes as many delayed output frames to `output[c][start..end)`
   * (in place is allowed: a chunk is read before it is written).
   */
  process(input: readonly Float32Array[], output: readonly Float32Array[], start: number, end: number): void {
    for (let a = start; a < end; a += CHUNK) this.#chunk(input, output, a, Math.min(end, a + CHUNK));
  }

  #chunk(input: readonly Float32Array[], output: readonly Float32Array[], a: number, b: number): void {
    const n = b - a;
    const channels = this.channelCount;
    const mask = this.#mask;
    const g = this.inputGain;
    const f0 = this.#frame;
    const peaks = this.#peaks;
    // Below this no oversampled value can reach the threshold (L1 bound of the taps): skip interpolating.
    const safe = this.#computer.detectFrom / TRUE_PEAK_TAP_L1;
    let detected = false;
    for (let c = 0; c < channels; c++) {
      const x = input[c]!;
      const ring = this.#ring[c]!;
      const h = this.#history[c]!;
      let max = this.#historyMax[c]!;
      const chunkMax = g === 1 ? this.#store(x, a, n, ring, f0) : this.#storeScaled(x, a, n, ring, f0, g);
      if (chunkMax > max) max = chunkMax;
      if (max > safe) {
        // The peaks start at zero (max-accumulated over the channels) only in chunks that interpolate.
        if (!detected) peaks.fill(0, 0, n);
        detected = true;
        this.#interpolate(ring, f0, n, h, peaks, safe);
      } else {
        for (let k = 0; k < HISTORY; k++) h[k] = ring[(f0 + n - HISTORY + k) & mask]!;
      }
      // The history is at most the last 11 samples, all inside this chunk when it is long enough.
      this.#historyMax[c] = n >= HISTORY ? chunkMax : max;
    }
    this.#blockGains(f0, n, detected);
    this.#apply(output, a, f0, n);
    this.#frame = f0 + n;
  }

  /**
   * Copies x[a..a+n) into the ring from frame f0 and returns the largest |x| (the same values and comparisons
   * as the scaled loop at gain 1: x * 1 is x).
   */
  #store(x: Float32Array, a: number, n: number, ring: Float32Array, f0: number): number {
    const at = f0 & this.#mask;
    const first = Math.min(n, ring.length - at);
    ring.set(x.subarray(a, a + first), at);
    if (first < n) ring.set(x.subarray(a + first, a + n), 0);
    let chunkMax = 0;
    for (let k = a; k < a + n; k++) {
      const v = x[k]!;
      const av = v < 0 ? -v : v;
      if (av > chunkMax) chunkMax = av;
    }
    return chunkMax;
  }

  #storeScaled(x: Float32Array, a: number, n: number, ring: Float32Array, f0: number, g: number): number {
    const mask = this.#mask;
    let chunkMax = 0;
    for (let k = 0; k < n; k++) {
      const v = x[a + k]! * g;
      ring[(f0 + k) & mask] = v;
      const av = v < 0 ? -v : v;
      if (av > chunkMax) chunkMax = av;
    }
    return chunkMax;
  }

  /**
   * Block peaks of the chunk's detector values into the gain computer, one push per completed block. Block b
   * is complete once frame (b + 1) * 16 + DELAY - 1 is in (the detector's values refer to frame - DELAY), so
   * the boundaries are found by arithmetic rather than tested frame by frame.
   */
  #blockGains(f0: number, n: number, detected: boolean): void {
    const peaks = this.#peaks;
    const gains = this.#gains;
    const gainMask = gains.length - 1;
    const A = this.#computer.delay;
    const j0 = f0 - TRUE_PEAK_DELAY;
    // The first k whose frame j = j0 + k ends a block (j + 1 a multiple of 16) with j >= 0.
    let end = (LIMITER_BLOCK - 1 - j0) & (LIMITER_BLOCK - 1);
    while (j0 + end < 0) end += LIMITER_BLOCK;
    let blockPeak = this.#blockPeak;
    let k = 0;
    // Without detection every value is 0, which no block peak (>= 0) is below: the peaks stay as they are.
    if (!detected) k = n;
    for (; end < n; end += LIMITER_BLOCK) {
      for (; k <= end; k++) {
        const p = peaks[k]!;
        if (p > blockPeak) blockPeak = p;
      }
      const block = ((j0 + end + 1) >> 4) - 1;
      const s = this.#computer.push(blockPeak);
      blockPeak = 0;
      // s_b is the start-boundary gain of block b - A.
      if (block - A >= 0) gains[(block - A) & gainMask] = s;
    }
    for (; k < n; k++) {
      const p = peaks[k]!;
      if (p > blockPeak) blockPeak = p;
    }
    this.#blockPeak = blockPeak;
  }

  /**
   * Output frames m = f0 + k - latency: the delayed input times the gain interpolated between the boundaries
   * of m's block. Where both boundaries hold the same gain, g0 + (g1 - g0) * t is g0 exactly, and where that
   * is 1 the product is the sample itself: whole chunks at unity (most of a song) are copied.
   */
  #apply(output: readonly Float32Array[], a: number, f0: number, n: number): void {
    const gains = this.#gains;
    const gainMask = gains.length - 1;
    const base = f0 - this.latency;
    const trace = this.frameGains;
    const mask = this.#mask;
    if (base >= 0 && this.#unity(base, n)) {
      if (trace && base < trace.length) trace.fill(1, base, Math.min(trace.length, base + n));
      for (let c = 0; c < this.channelCount; c++) {
        const ring = this.#ring[c]!;
        const at = base & mask;
        const first = Math.min(n, ring.length - at);
        output[c]!.set(ring.subarray(at, at + first), a);
        if (first < n) output[c]!.set(ring.subarray(0, n - first), a + first);
      }
      return;
    }
    const frameGain = this.#frameGain;
    for (let k = 0; k < n; ) {
      const m = base + k;
      if (m < 0) {
        frameGain[k++] = 0;
        continue;
      }
      const block = m >> 4;
      const g0 = gains[block & gainMask]!;
      const g1 = gains[(block + 1) & gainMask]!;
      const stop = Math.min(n, k + LIMITER_BLOCK - (m & 15));
      if (g0 === g1) for (; k < stop; k++) frameGain[k] = g0;
      else for (; k < stop; k++) frameGain[k] = g0 + (g1 - g0) * (((base + k) & 15) * 0.0625);
    }
    if (trace) {
      for (let k = 0; k < n; k++) {
        const m = base + k;
        if (m >= 0 && m < trace.length) trace[m] = frameGain[k]!;
      }
    }
    for (let c = 0; c < this.channelCount; c++) {
      const out = output[c]!;
      const ring = this.#ring[c]!;
      for (let k = 0; k < n; k++) out[a + k] = ring[(base + k) & mask]! * frameGain[k]!;
    }
  }

  /** True when every boundary gain that output frames [m, m + n) interpolate between is exactly 1. */
  #unity(m: number, n: number): boolean {
    const gains = this.#gains;
    const gainMask = gains.length - 1;
    const last = ((m + n - 1) >> 4) + 1;
    for (let block = m >> 4; block <= last; block++) if (gains[block & gainMask] !== 1) return false;
    return true;
  }

  /**
   * 4x interpolation of n new samples (read from the ring); peaks[k] takes the max over channels. Frame k's
   * values depend on the inputs k - HISTORY..k alone: runs of 16 frames whose inputs all stay at or under
   * `safe` cannot reach the threshold and are skipped (their peaks stay 0, which asks the gain computer for
   * nothing, as their own values would), so loud passages pay only where they are loud.
   */
  #interpolate(
    ring: Float32Array,
    f0: number,
    n: number,
    h: Float32Array,
    peaks: Float64Array,
    safe: number,
  ): void {
    const mask = this.#mask;
    // h holds the HISTORY previous inputs; append the chunk so the kernel reads one contiguous array.
    for (let k = 0; k < n; k++) h[HISTORY + k] = ring[(f0 + k) & mask]!;
    // Largest |h| per 16 of h: run s (frames 16s..16s+15) reads h[16s..16s+47], three of them.
    const sub = this.#subMax;
    const total = HISTORY + n;
    for (let t = 0; t * 16 < total; t++) {
      let m = 0;
      for (let i = t * 16; i < Math.min(total, t * 16 + 16); i++) {
        const v = h[i]!;
        const av = v < 0 ? -v : v;
        if (av > m) m = av;
      }
      sub[t] = m;
    }
    const runs = Math.ceil(n / 16);
    let from = -1;
    for (let s = 0; s <= runs; s++) {
      const loud =
        s < runs && (sub[s]! > safe || sub[s + 1]! > safe || (s * 16 + 32 < total && sub[s + 2]! > safe));
      if (loud && from < 0) from = s * 16;
      else if (!loud && from >= 0) {
        interpolatePeaks(h, HISTORY + from, HISTORY + Math.min(n, s * 16), peaks, from);
        from = -1;
      }
    }
    h.copyWithin(0, n, n + HISTORY);
  }
}

/**
 * Limits whole channels in place, delay-compensated: output frame n lines up with input frame n and the
 * length is unchanged. `inputGain` is applied first.
 */
export const limitOffline = (
  channels: readonly Float32Array[],
  sampleRate: number,
  inputGain = 1,
  options: LimiterOptions = {},
  onBlock?: (done: number) => void,
): void => {
  const limiter = new TruePeakLimiter(sampleRate, channels.length, options);
  limiter.inputGain = inputGain;
  const length = channels[0]?.length ?? 0;
  const latency = limiter.latency;
  const BLOCK = 8192;
  // Output frame m is produced at input frame m + latency: write it latency frames back.
  const out = channels.map(() => new Float32Array(BLOCK));
  const tails = channels.map(() => new Float32Array(BLOCK));
  for (let start = 0; start < length + latency; start += BLOCK) {
    const end = Math.min(length + latency, start + BLOCK);
    const inEnd = Math.min(end, length);
    const views = channels.map((ch, c) => {
      if (inEnd >= end) return ch.subarray(start, end);
      // The tail: real samples then zeros to flush the lookahead.
      const tail = tails[c]!.subarray(0, end - start);
      tail.fill(0);
      if (inEnd > start) tail.set(ch.subarray(start, inEnd));
      return tail;
    });
    const outs = out.map((o) => o.subarray(0, end - start));
    limiter.process(views, outs, 0, end - start);
    for (let c = 0; c < channels.length; c++) {
      const from = Math.max(0, latency - start);
      const o = outs[c]!;
      const ch = channels[c]!;
      for (let k = from; k < end - start; k++) ch[start + k - latency] = o[k]!;
    }
    onBlock?.(Math.min(length, end));
  }
};
