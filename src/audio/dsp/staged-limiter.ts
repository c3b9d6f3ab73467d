/**
 * The limiter's block-rate gain, in one or two stages (decision 265). With `peakCompressor` set, a lookahead
 * compressor (soft knee, finite ratio, its own release) takes the block peaks first, and the brickwall
 * limiter only catches what it leaves above the ceiling. Both stages run on the same block true peaks in the
 * same lookahead structure (LimiterGainComputer: hold, release, moving average of the log gain), so the
 * streaming limiter (live) and the offline loudness solve (render, versions) compute the very same gains.
 *
 * Why a lookahead stage and not the chain's compressors: on produced music the multiband compressors, even
 * at a quarter of their crest and 1-5 ms attack, left Loud's deepest limiter reduction at 10-11 dB (they
 * lower the body as much as the transient they are too slow for); a compressor that sees the peak coming
 * takes it down over its release instead of the limiter's few milliseconds.
 */
import { LimiterGainComputer, type LimiterOptions } from './limiter-gain';

/** True when the options' peak compressor does anything (a ratio over 1:1). */
export const hasPeakStage = (options: LimiterOptions): boolean => (options.peakCompressor?.ratio ?? 1) > 1;

/** 20 log10(x) = ln(x) * 20 / ln 10: one natural log per block instead of log10 and a power of ten. */
const DB_PER_NEPER = 20 / Math.LN10;

/** Soft-knee static curve: gain in dB (<= 0) for a level `overDb` above the threshold. */
const curveDb = (overDb: number, ratio: number, kneeDb: number): number => {
  const slope = 1 / ratio - 1;
  if (2 * overDb <= -kneeDb) return 0;
  if (2 * overDb >= kneeDb) return slope * overDb;
  const x = overDb + kneeDb / 2;
  return (slope * x * x) / (2 * kneeDb);
};

export class StagedLimiterComputer {
  /** Blocks between a block's peak going in and its start boundary's gain coming out. */
  readonly delay: number;
  /**
   * The delay a stream must give its output: the two-stage delay whenever the options name a peak stage,
   * even at ratio 1:1, so the live mastering chain keeps one latency whatever the preset (decision 265).
   */
  readonly streamDelay: number;
  /** The brickwall's threshold (linear): no output peak exceeds it. */
  readonly threshold: number;
  /** Block peaks under this (linear) ask neither stage for anything: detection may skip them. */
  readonly detectFrom: number;
  /** The two stages' own gains at the boundary `push` returned last. */
  limiterGain = 1;
  compressorGain = 1;
  #limiter: LimiterGainComputer;
  #compressor: LimiterGainComputer | null;
  #thresholdDb = 0;
  #ratio = 1;
  #kneeDb = 0;
  /** Linear peak under which the curve is flat (threshold minus half the knee). */
  #kneeStart = Number.POSITIVE_INFINITY;
  /** Rings (power-of-two size) of raw block peaks and of the compressor's boundary gains. */
  #peaks: Float64Array;
  #gains: Float64Array;
  #mask: number;
  #count = 0;

  constructor(sampleRate: number, options: LimiterOptions = {}) {
    this.#limiter = new LimiterGainComputer(sampleRate, options);
    this.threshold = this.#limiter.threshold;
    const pc = options.peakCompressor;
    const compressor = pc
      ? new LimiterGainComputer(sampleRate, {
          ...options,
          releaseMs: pc.releaseMs,
          peakCompressor: undefined,
        })
      : null;
    this.#compressor = pc && hasPeakStage(options) ? compressor : null;
    const A = this.#limiter.average;
    this.streamDelay = compressor ? compressor.average + 1 + A : A;
    if (pc && this.#compressor) {
      this.#thresholdDb = (options.ceilingDb ?? -1) + pc.thresholdDb;
      this.#ratio = pc.ratio;
      this.#kneeDb = pc.kneeDb;
      // Block j's compressed peak needs the compressor's gains at both of its boundaries (j and j + 1).
      this.delay = this.#compressor.average + 1 + A;
      this.#kneeStart = 10 ** ((this.#thresholdDb - pc.kneeDb / 2) / 20);
      this.detectFrom = Math.min(this.threshold, this.#kneeStart);
    } else {
      this.delay = A;
      this.detectFrom = this.threshold;
    }
    let size = 8;
    while (size < this.streamDelay + 4) size <<= 1;
    this.#peaks = new Float64Array(size);
    this.#gains = new Float64Array(size).fill(1);
    this.#mask = size - 1;
  }

  reset(): void {
    this.#limiter.reset();
    this.#compressor?.reset();
    this.#peaks.fill(0);
    this.#gains.fill(1);
    this.#count = 0;
    this.limiterGain = 1;
    this.compressorGain = 1;
  }

  /** Takes block n's peak (linear) and returns the gain for the start boundary of block n - delay. */
  push(peak: number): number {
    const compressor = this.#compressor;
    if (!compressor) {
      const s = this.#limiter.push(peak);
      this.limiterGain = s;
      return s;
    }
    const n = this.#count++;
    const mask = this.#mask;
    this.#peaks[n & mask] = peak;
    // Under the knee (most blocks, and every block the detection skipped) the curve asks for nothing: no log.
    const need =
      peak > this.#kneeStart
        ? Math.exp(
            curveDb(Math.log(peak) * DB_PER_NEPER - this.#thresholdDb, this.#ratio, this.#kneeDb) /
              DB_PER_NEPER,
          )
        : 1;
    // The compressor's gain for boundary n - Ac; with it, block j = n - Ac - 1 has both of its boundaries.
    const Ac = compressor.average;
    this.#gains[(n - Ac) & mask] = compressor.pushNeed(need);
    const j = n - Ac - 1;
    if (j < 0) return 1;
    // The compressor's gain ramps between its boundaries: the larger bounds what the peak can keep.
    const c0 = this.#gains[j & mask]!;
    const c1 = this.#gains[(j + 1) & mask]!;
    const s = this.#limiter.push(this.#peaks[j & mask]! * (c0 > c1 ? c0 : c1));
    // s is the limiter's gain for boundary j - A = n - delay; the compressor's for it is in the ring.
    const boundary = j - this.#limiter.average;
    const c = boundary >= 0 ? this.#gains[boundary & mask]! : 1;
    this.limiterGain = s;
    this.compressorGain = c;
    return s * c;
  }
}
