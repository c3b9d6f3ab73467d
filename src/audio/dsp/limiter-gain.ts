/**
 * The limiter's block-rate part (split from limiter.ts by what it holds): its options, the block size and
 * the gain computer that turns block peaks into boundary gains (hold, release, moving average of the log
 * gain), shared by the streaming limiter, the staged limiter and the offline loudness solve.
 */

export const LIMITER_BLOCK = 16;

export interface LimiterOptions {
  ceilingDb?: number;
  /** Lookahead (attack) in ms. */
  lookaheadMs?: number;
  releaseMs?: number;
  /** Detection threshold under the ceiling, in dB. */
  marginDb?: number;
  /**
   * A lookahead peak compressor before the brickwall, on the same block peaks (the Loud end of the loudness
   * slider, decision 265): absent, the limiter alone.
   */
  peakCompressor?: PeakCompressorOptions;
}

export interface PeakCompressorOptions {
  /** Threshold relative to the ceiling, dB (the signal is at its loudness-stage gain by then). */
  thresholdDb: number;
  ratio: number;
  kneeDb: number;
  releaseMs: number;
}

// The margin: 3000 random stress signals (steps up to +30 dBFS, noise, squares, clicks) overshot a 0 dB margin
// by at most 0.008 dB; 0.1 dB keeps a safe distance without giving away loudness.
const DEFAULTS = { ceilingDb: -1, lookaheadMs: 3, releaseMs: 60, marginDb: 0.1 };

/**
 * Block-rate gain computer: feed block peaks (linear) in order, read back boundary gains. Shared by the
 * streaming limiter and by the offline loudness solver, which runs it on stored block peaks.
 */
export class LimiterGainComputer {
  readonly average: number;
  readonly hold: number;
  readonly threshold: number;
  #release: number;
  /**
   * The block requirements of the hold window (the last `hold + 1` pushed) as a monotonic queue: indices and
   * values, values increasing from the head, so its head is the window's minimum. The same minimum as a scan
   * of the window, without scanning it for every block (the loudness solve plans the whole track per try).
   */
  #window: number;
  #queueIndex: Float64Array;
  #queueValue: Float64Array;
  #head = 0;
  #size = 0;
  #logs: Float64Array;
  #logSum = 0;
  #envelope = 1;
  #count = 0;
  #lastLimited = -1e9;

  constructor(sampleRate: number, options: LimiterOptions = {}) {
    const o = { ...DEFAULTS, ...options };
    this.average = Math.max(1, Math.round((o.lookaheadMs * sampleRate) / 1000 / LIMITER_BLOCK));
    this.hold = this.average + 2;
    this.threshold = 10 ** ((o.ceilingDb - o.marginDb) / 20);
    this.#release = 1 - Math.exp(-LIMITER_BLOCK / ((o.releaseMs * sampleRate) / 1000));
    this.#window = this.hold + 1;
    this.#queueIndex = new Float64Array(this.#window);
    this.#queueValue = new Float64Array(this.#window);
    this.#logs = new Float64Array(this.average);
  }

  reset(): void {
    this.#head = 0;
    this.#size = 0;
    this.#logs.fill(0);
    this.#logSum = 0;
    this.#envelope = 1;
    this.#count = 0;
    this.#lastLimited = -1e9;
  }

  /** How many values `writeState` writes. */
  get stateSize(): number {
    return 5 + 2 * this.#window + this.average;
  }

  /** Fresh, with block `count` next: a plan cut in time starts its later part so (limiter-plan-split.ts). */
  startAt(count: number): void {
    this.reset();
    this.#count = count;
  }

  /**
   * Everything the gains from here on depend on, in one order whatever the rings' rotation: the block count,
   * envelope, log sum, blocks since the last limited one (capped where the fast path stops caring), the hold
   * queue oldest first, the log ring. Two computers that write the same values give the same gains from here.
   */
  writeState(out: Float64Array, at: number): void {
    const window = this.#window;
    out[at] = this.#count;
    out[at + 1] = this.#envelope;
    out[at + 2] = this.#logSum;
    out[at + 3] = Math.min(this.#count - this.#lastLimited, window + 1);
    out[at + 4] = this.#size;
    let o = at + 5;
    for (let k = 0; k < window; k++) {
      const q = (this.#head + k) % window;
      out[o++] = k < this.#size ? this.#queueIndex[q]! : 0;
      out[o++] = k < this.#size ? this.#queueValue[q]! : 0;
    }
    for (let k = 0; k < this.average; k++) out[o++] = this.#logs[k]!;
  }

  /**
   * Takes block b's peak and returns s_b, the gain for the start boundary of block b - average.
   */
  push(peak: number): number {
    return this.pushNeed(peak > this.threshold ? this.threshold / peak : 1);
  }

  /**
   * Takes block b's requirement (the largest gain it may have, <= 1) and returns s_b as `push` does: the
   * peak compressor's stage (staged-limiter.ts) runs the same hold, release and smoothing on its own curve.
   */
  pushNeed(need: number): number {
    const count = this.#count;
    const window = this.#window;
    // Fast path: nothing limited within the hold and the envelope home at unity — the gain is exactly 1.
    if (need === 1 && count - this.#lastLimited > window && this.#envelope === 1 && this.#logSum === 0) {
      // Every requirement in the window is 1: the queue is this block's alone.
      this.#queueIndex[0] = count;
      this.#queueValue[0] = 1;
      this.#head = 0;
      this.#size = 1;
      this.#count = count + 1;
      return 1;
    }
    if (need < 1) this.#lastLimited = count;
    const held = this.#hold(count, need);
    const previous = this.#envelope;
    let envelope = held < previous ? held : previous + this.#release * (held - previous);
    // Snap a release that has all but arrived, so the fast path can take over again.
    if (envelope > 1 - 1e-9) envelope = 1;
    this.#envelope = envelope;
    const slot = count % this.average;
    const log = envelope === 1 ? 0 : Math.log(envelope);
    this.#logSum += log - this.#logs[slot]!;
    this.#logs[slot] = log;
    this.#count = count + 1;
    // Re-sum now and then so rounding in the running sum cannot drift (and returns to exactly 0).
    if (slot === 0) {
      let sum = 0;
      for (let k = 0; k < this.#logs.length; k++) sum += this.#logs[k]!;
      this.#logSum = sum;
    }
    if (this.#logSum === 0) return 1;
    const gain = Math.exp(this.#logSum / this.average);
    return gain > 1 ? 1 : gain;
  }

  /**
   * Adds block `count`'s requirement and returns the smallest over the window (blocks before the first read
   * as 1, which no requirement exceeds). Later requirements no larger than earlier ones retire those.
   */
  #hold(count: number, need: number): number {
    const index = this.#queueIndex;
    const value = this.#queueValue;
    const window = this.#window;
    let head = this.#head;
    let size = this.#size;
    // Blocks that left the window first (so the ring of `window` slots never overflows), then the retired.
    while (size > 0 && index[head]! <= count - window) {
      head = head + 1 === window ? 0 : head + 1;
      size--;
    }
    while (size > 0 && value[(head + size - 1) % window]! >= need) size--;
    const tail = (head + size) % window;
    index[tail] = count;
    value[tail] = need;
    size++;
    this.#head = head;
    this.#size = size;
    return value[head]!;
  }
}
