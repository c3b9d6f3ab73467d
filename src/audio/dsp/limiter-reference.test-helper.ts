/**
 * The true-peak limiter's chunk loop as it was before its fast paths (issue 26): one pass per frame for the
 * block peaks, the frame gains and the output. limiter-fast-paths.test.ts checks the limiter against it
 * sample for sample (tolerance 0), so the fast paths can only ever be the same arithmetic, skipped.
 */

import { LIMITER_BLOCK, type LimiterOptions } from './limiter';
import { StagedLimiterComputer } from './staged-limiter';
import { HISTORY, interpolatePeaks, TRUE_PEAK_DELAY, TRUE_PEAK_TAP_L1 } from './true-peak';

const CHUNK = 256;

export class ReferenceTruePeakLimiter {
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
    peaks.fill(0, 0, n);
    // Below this no oversampled value can reach the threshold (L1 bound of the taps): skip interpolating.
    const safe = this.#computer.detectFrom / TRUE_PEAK_TAP_L1;
    for (let c = 0; c < channels; c++) {
      const x = input[c]!;
      const ring = this.#ring[c]!;
      const h = this.#history[c]!;
      let max = this.#historyMax[c]!;
      let chunkMax = 0;
      for (let k = 0; k < n; k++) {
        const v = x[a + k]! * g;
        ring[(f0 + k) & mask] = v;
        const av = v < 0 ? -v : v;
        if (av > chunkMax) chunkMax = av;
      }
      if (chunkMax > max) max = chunkMax;
      if (max > safe) this.#interpolate(ring, f0, n, h, peaks);
      else {
        for (let k = 0; k < HISTORY; k++) h[k] = ring[(f0 + n - HISTORY + k) & mask]!;
      }
      // The history is at most the last 11 samples, all inside this chunk when it is long enough.
      this.#historyMax[c] = n >= HISTORY ? chunkMax : max;
    }
    const gains = this.#gains;
    const gainMask = gains.length - 1;
    const A = this.#computer.delay;
    let blockPeak = this.#blockPeak;
    for (let k = 0; k < n; k++) {
      const p = peaks[k]!;
      if (p > blockPeak) blockPeak = p;
      // The detector's values refer to frame - DELAY: block b is complete once frame (b + 1) * 16 + DELAY - 1
      // is in.
      const j = f0 + k - TRUE_PEAK_DELAY;
      if (j >= 0 && ((j + 1) & (LIMITER_BLOCK - 1)) === 0) {
        const block = ((j + 1) >> 4) - 1;
        const s = this.#computer.push(blockPeak);
        blockPeak = 0;
        // s_b is the start-boundary gain of block b - A.
        if (block - A >= 0) gains[(block - A) & gainMask] = s;
      }
    }
    this.#blockPeak = blockPeak;
    const frameGain = this.#frameGain;
    const latency = this.latency;
    for (let k = 0; k < n; k++) {
      const m = f0 + k - latency;
      if (m < 0) {
        frameGain[k] = 0;
        continue;
      }
      const block = m >> 4;
      const g0 = gains[block & gainMask]!;
      frameGain[k] = g0 + (gains[(block + 1) & gainMask]! - g0) * ((m & 15) * 0.0625);
    }
    const trace = this.frameGains;
    if (trace) {
      for (let k = 0; k < n; k++) {
        const m = f0 + k - latency;
        if (m >= 0 && m < trace.length) trace[m] = frameGain[k]!;
      }
    }
    for (let c = 0; c < channels; c++) {
      const out = output[c]!;
      const ring = this.#ring[c]!;
      const base = f0 - latency;
      for (let k = 0; k < n; k++) out[a + k] = ring[(base + k) & mask]! * frameGain[k]!;
    }
    this.#frame = f0 + n;
  }

  /** 4x interpolation of n new samples (read from the ring); peaks[k] takes the max over channels. */
  #interpolate(ring: Float32Array, f0: number, n: number, h: Float32Array, peaks: Float64Array): void {
    const mask = this.#mask;
    // h holds the HISTORY previous inputs; append the chunk so the kernel reads one contiguous array.
    for (let k = 0; k < n; k++) h[HISTORY + k] = ring[(f0 + k) & mask]!;
    interpolatePeaks(h, HISTORY, HISTORY + n, peaks, 0);
    h.copyWithin(0, n, n + HISTORY);
  }
}
