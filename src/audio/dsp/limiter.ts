/**
 * Lookahead true-peak limiter.
 *
 * Detection: every frame's 4x oversampled values (the BS.1770 interpolator of true-peak.ts) and samples,
 * largest over all channels (the channels are linked, so the stereo image never shifts).
 * Control: per block of 16 frames the gain the block needs (ceiling / peak), held for the lookahead and a
 * guard block either side, released by a one-pole, and smoothed by a moving average of the log gain over
 * the lookahead. Every value of that average is a mean of gains that are each at most what the peak needs,
 * so the gain in force around a peak never exceeds what the peak needs; the ramp towards it happens in
 * the frames before it (the lookahead). Frames take a gain interpolated between block boundaries.
 * A small margin under the ceiling absorbs the interpolator's view of a gain that changes inside its
 * 12-frame span.
 *
 * The same object runs as a stream in the AudioWorklet (output delayed by `latency` frames) and offline
 * (`limitOffline` compensates the delay, so the output lines up with the input sample for sample).
 */
import { HISTORY } from './true-peak';

export const LIMITER_BLOCK = 16;

export interface LimiterOptions {
  ceilingDb?: number;
  /** Lookahead (attack) in ms. */
  lookaheadMs?: number;
  releaseMs?: number;
  /** Detection threshold under the ceiling, in dB. */
  marginDb?: number;
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
  #requirements: Float64Array;
  #logs: Float64Array;
  #logSum = 0;
  #envelope = 1;
  #count = 0;

  constructor(sampleRate: number, options: LimiterOptions = {}) {
    const o = { ...DEFAULTS, ...options };
    this.average = Math.max(1, Math.round((o.lookaheadMs * sampleRate) / 1000 / LIMITER_BLOCK));
    this.hold = this.average + 2;
    this.threshold = 10 ** ((o.ceilingDb - o.marginDb) / 20);
    this.#release = 1 - Math.exp(-LIMITER_BLOCK / ((o.releaseMs * sampleRate) / 1000));
    this.#requirements = new Float64Array(this.hold + 1).fill(1);
    this.#logs = new Float64Array(this.average);
  }

  reset(): void {
    this.#requirements.fill(1);
    this.#logs.fill(0);
    this.#logSum = 0;
    this.#envelope = 1;
    this.#count = 0;
  }

  /**
   * Takes block b's peak and returns s_b, the gain for the start boundary of block b - average.
   */
  push(peak: number): number {
    const need = peak > this.threshold ? this.threshold / peak : 1;
    const req = this.#requirements;
    req[this.#count % req.length] = need;
    let held = 1;
    for (let k = 0; k < req.length; k++) if (req[k]! < held) held = req[k]!;
    const previous = this.#envelope;
    const envelope = held < previous ? held : previous + this.#release * (held - previous);
    this.#envelope = envelope;
    const slot = this.#count % this.average;
    const log = Math.log(envelope);
    this.#logSum += log - this.#logs[slot]!;
    this.#logs[slot] = log;
    this.#count++;
    // Re-sum now and then so rounding in the running sum cannot drift.
    if (slot === 0) {
      let sum = 0;
      for (let k = 0; k < this.#logs.length; k++) sum += this.#logs[k]!;
      this.#logSum = sum;
    }
    const gain = Math.exp(this.#logSum / this.average);
    return gain > 1 ? 1 : gain;
  }
}

export class TruePeakLimiter {
  readonly channelCount: number;
  /** Output frame m leaves when input frame m + latency arrives. */
  readonly latency: number;
  /** Linear gain applied to the input before detection (the loudness stage's gain). */
  inputGain = 1;
  #computer: LimiterGainComputer;
  #ring: Float32Array[];
  #mask: number;
  #history: Float64Array[];
  /** Boundary gains by block index (ring). */
  #gains: Float64Array;
  #frame = 0;
  #blockPeak = 0;
  #scratch: Float64Array;

  constructor(sampleRate: number, channelCount: number, options: LimiterOptions = {}) {
    this.channelCount = channelCount;
    this.#computer = new LimiterGainComputer(sampleRate, options);
    const A = this.#computer.average;
    this.latency = (2 + A) * LIMITER_BLOCK + 5;
    let size = 1;
    while (size < this.latency + LIMITER_BLOCK) size <<= 1;
    this.#mask = size - 1;
    this.#ring = Array.from({ length: channelCount }, () => new Float32Array(size));
    this.#history = Array.from({ length: channelCount }, () => new Float64Array(HISTORY));
    this.#gains = new Float64Array(64).fill(1);
    this.#scratch = new Float64Array(channelCount);
  }

  reset(): void {
    this.#computer.reset();
    for (const r of this.#ring) r.fill(0);
    for (const h of this.#history) h.fill(0);
    this.#gains.fill(1);
    this.#frame = 0;
    this.#blockPeak = 0;
  }

  /**
   * Consumes `input[c][start..end)` and writes as many delayed output frames to `output[c][start..end)`
   * (in place is allowed: each frame is read before it is written).
   */
  process(input: readonly Float32Array[], output: readonly Float32Array[], start: number, end: number): void {
    const channels = this.channelCount;
    const ring = this.#ring;
    const mask = this.#mask;
    const gains = this.#gains;
    const gainMask = gains.length - 1;
    const A = this.#computer.average;
    const latency = this.latency;
    const g = this.inputGain;
    const scratch = this.#scratch;
    let frame = this.#frame;
    let blockPeak = this.#blockPeak;
    for (let i = start; i < end; i++, frame++) {
      const slot = frame & mask;
      let peak = 0;
      for (let c = 0; c < channels; c++) {
        const x0 = input[c]![i]! * g;
        ring[c]![slot] = x0;
        scratch[c] = x0;
        const v = this.#detect(c, x0);
        if (v > peak) peak = v;
      }
      if (peak > blockPeak) blockPeak = peak;
      // The detector's values refer to frame - 6: block b is complete once frame (b + 1) * 16 + 5 is in.
      const j = frame - 6;
      if (j >= 0 && (j + 1) % LIMITER_BLOCK === 0) {
        const b = (j + 1) / LIMITER_BLOCK - 1;
        const s = this.#computer.push(blockPeak);
        blockPeak = 0;
        // s_b is the start-boundary gain of block b - A.
        if (b - A >= 0) gains[(b - A) & gainMask] = s;
      }
      const m = frame - latency;
      if (m >= 0) {
        const block = Math.floor(m / LIMITER_BLOCK);
        const t = (m - block * LIMITER_BLOCK) / LIMITER_BLOCK;
        const g0 = gains[block & gainMask]!;
        const gain = g0 + (gains[(block + 1) & gainMask]! - g0) * t;
        const outSlot = m & mask;
        for (let c = 0; c < channels; c++) output[c]![i] = ring[c]![outSlot]! * gain;
      } else {
        for (let c = 0; c < channels; c++) output[c]![i] = 0;
      }
    }
    this.#frame = frame;
    this.#blockPeak = blockPeak;
  }

  /** Interpolates one new sample of channel c; returns the peak of frame - 6's neighbourhood. */
  #detect(c: number, x0: number): number {
    const h = this.#history[c]!;
    const x1 = h[0]!;
    const x2 = h[1]!;
    const x3 = h[2]!;
    const x4 = h[3]!;
    const x5 = h[4]!;
    const x6 = h[5]!;
    const x7 = h[6]!;
    const x8 = h[7]!;
    const x9 = h[8]!;
    const x10 = h[9]!;
    const x11 = h[10]!;
    const p0 =
      0.001708984375 * x0 +
      0.010986328125 * x1 -
      0.0196533203125 * x2 +
      0.033203125 * x3 -
      0.0594482421875 * x4 +
      0.1373291015625 * x5 +
      0.97216796875 * x6 -
      0.102294921875 * x7 +
      0.047607421875 * x8 -
      0.026611328125 * x9 +
      0.014892578125 * x10 -
      0.00830078125 * x11;
    const p1 =
      -0.0291748046875 * x0 +
      0.029296875 * x1 -
      0.0517578125 * x2 +
      0.089111328125 * x3 -
      0.16650390625 * x4 +
      0.465087890625 * x5 +
      0.77978515625 * x6 -
      0.2003173828125 * x7 +
      0.1015625 * x8 -
      0.0582275390625 * x9 +
      0.0330810546875 * x10 -
      0.0189208984375 * x11;
    const p2 =
      -0.0189208984375 * x0 +
      0.0330810546875 * x1 -
      0.0582275390625 * x2 +
      0.1015625 * x3 -
      0.2003173828125 * x4 +
      0.77978515625 * x5 +
      0.465087890625 * x6 -
      0.16650390625 * x7 +
      0.089111328125 * x8 -
      0.0517578125 * x9 +
      0.029296875 * x10 -
      0.0291748046875 * x11;
    const p3 =
      -0.00830078125 * x0 +
      0.014892578125 * x1 -
      0.026611328125 * x2 +
      0.047607421875 * x3 -
      0.102294921875 * x4 +
      0.97216796875 * x5 +
      0.1373291015625 * x6 -
      0.0594482421875 * x7 +
      0.033203125 * x8 -
      0.0196533203125 * x9 +
      0.010986328125 * x10 +
      0.001708984375 * x11;
    h[10] = x10;
    h[9] = x9;
    h[8] = x8;
    h[7] = x7;
    h[6] = x6;
    h[5] = x5;
    h[4] = x4;
    h[3] = x3;
    h[2] = x2;
    h[1] = x1;
    h[0] = x0;
    return Math.max(Math.abs(p0), Math.abs(p1), Math.abs(p2), Math.abs(p3), Math.abs(x5), Math.abs(x6));
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
