import type { DynamicsStats } from './dynamics-stats';
import { type BandLane, bandCompressorKernel } from './wasm/band-compressor';

/**
 * Feed-forward compressor with a stereo-linked peak detector and a soft knee.
 * The detector runs per frame; the gain is computed in dB every 16 frames (at absolute frame positions, so
 * any block size gives the same output) and ramps linearly between control points.
 */

export interface CompressorParams {
  thresholdDb: number;
  ratio: number;
  kneeDb: number;
  attackMs: number;
  releaseMs: number;
  /**
   * Relative mode (the adaptive chain's bands, decision 113): the threshold is `thresholdDb` above the
   * signal's own running RMS, averaged with this time constant, so a quieter section is compressed like
   * a louder one and the loudness range survives. Absent: the threshold is absolute (dBFS).
   */
  relativeMs?: number;
  /** Relative mode: the running RMS to start from, dB (the band's level in the loudest 30 s). */
  initialLevelDb?: number;
}

/**
 * Spec 9: "compressor scaled by compression/100 (threshold starts near -24 dB plus 0.2 times the compression
 * value)". The ratio grows with the amount, 1:1 at 0 (bypass) to 4:1 at 100; no make-up gain (the loudness
 * stage sets the level).
 */
export const compressorParamsFor = (compression: number): CompressorParams => {
  const amount = Math.min(100, Math.max(0, compression)) / 100;
  return {
    thresholdDb: -24 + 0.2 * compression,
    ratio: 1 + 3 * amount,
    kneeDb: 6,
    attackMs: 10,
    releaseMs: 150,
  };
};

const CONTROL = 16;
/** 10 log10(p) = ln(p) * 10 / ln 10. */
const DB_PER_NEPER_OF_POWER = 10 / Math.LN10;
/** 10 ** (dB / 20) = exp(dB * ln 10 / 20). */
const NEPERS_PER_DB_OF_AMPLITUDE = Math.LN10 / 20;

/**
 * A compressor's control-point gains over a whole render, one per 16 frames at absolute frame positions.
 * `record`: the compressor computes its gains from its detector and writes them here (the Main mix);
 * `replay`: it reads them back instead of its detector's, so another signal (a version of the mix) gets the
 * very same gain curve, bit for bit (decision 150).
 */
export interface GainTrace {
  mode: 'record' | 'replay';
  /** Control-point target gains (linear), index = frame / 16. Float64: the replay is exact. */
  targets: Float64Array;
}

/** A trace with room for `frames` frames. */
export const gainTraceFor = (frames: number): GainTrace => ({
  mode: 'record',
  targets: new Float64Array(Math.ceil(frames / CONTROL) + 1).fill(1),
});

export class Compressor {
  #params: CompressorParams;
  #attack: number;
  #release: number;
  #envelope = 0;
  #gain = 1;
  #step = 0;
  #frame = 0;
  /** Relative mode: running mean square (per channel sample), its per-control-point coefficient, sum. */
  #meanSquare = 0;
  #msCoef = 0;
  #squares = 0;
  /** Detector powers below this are surely under the knee (gain 0 dB): no logarithm is taken for them. */
  #quietPower = 0;
  readonly sampleRate: number;
  /** Receives the gain (dB) of every control point while set (the render's statistics, decision 126). */
  stats: DynamicsStats | null = null;
  /** Record or replay the gain curve (versions, decision 150); null: the detector decides. */
  trace: GainTrace | null = null;

  constructor(sampleRate: number, params: CompressorParams) {
    this.sampleRate = sampleRate;
    this.#params = params;
    this.#attack = 0;
    this.#release = 0;
    this.setParams(params);
  }

  setParams(params: CompressorParams): void {
    this.#params = params;
    this.#attack = 1 - Math.exp(-1 / ((params.attackMs * this.sampleRate) / 1000));
    this.#release = 1 - Math.exp(-1 / ((params.releaseMs * this.sampleRate) / 1000));
    this.#msCoef = params.relativeMs
      ? 1 - Math.exp(-CONTROL / ((params.relativeMs * this.sampleRate) / 1000))
      : 0;
    // gainDbFor is 0 while 2 (level - threshold) <= -knee, i.e. power <= 10^((threshold - knee / 2) / 10).
    // A millionth below that line, the rounding of ln() cannot put a power above it: the same gain, no log.
    const quiet = 10 ** ((params.thresholdDb - params.kneeDb / 2) / 10) * (1 - 1e-6);
    this.#quietPower = Number.isNaN(quiet) ? 0 : quiet;
    if (params.relativeMs && this.#meanSquare === 0)
      this.#meanSquare = 10 ** ((params.initialLevelDb ?? -30) / 10);
  }

  get bypassed(): boolean {
    return this.#params.ratio <= 1;
  }

  reset(): void {
    this.#envelope = 0;
    this.#gain = 1;
    this.#step = 0;
    this.#frame = 0;
    this.#squares = 0;
    this.#meanSquare = this.#params.relativeMs ? 10 ** ((this.#params.initialLevelDb ?? -30) / 10) : 0;
  }

  /** Static curve: gain in dB (<= 0) for a detector level in dB. */
  gainDbFor(levelDb: number): number {
    const { thresholdDb, ratio, kneeDb } = this.#params;
    const over = levelDb - thresholdDb;
    const slope = 1 / ratio - 1;
    if (2 * over <= -kneeDb) return 0;
    if (2 * over >= kneeDb) return slope * over;
    const x = over + kneeDb / 2;
    return (slope * x * x) / (2 * kneeDb);
  }

  /**
   * The gain to reach at the control point `offset` frames into the current call, from the detector's
   * envelope `env` (flushed); in relative mode it also moves the running mean square on by the 16 frames
   * summed since the last point.
   */
  #target(env: number, count: number, offset: number): number {
    let power = env * env;
    if (this.#msCoef > 0) {
      this.#meanSquare += (this.#squares / (CONTROL * count) - this.#meanSquare) * this.#msCoef;
      if (this.#meanSquare < 1e-20) this.#meanSquare = 1e-20;
      this.#squares = 0;
      power /= this.#meanSquare;
    }
    return this.#targetOfPower(env, power, offset);
  }

  /**
   * #target once the detector's power (relative to the running mean square, in relative mode) is known:
   * what the band kernel calls, having taken the power itself (decision 322).
   */
  #targetOfPower(env: number, power: number, offset: number): number {
    // The detector level in dB. One natural log and one exp per control point: two log10 and a 10 ** x
    // cost about 2.5 times as much in V8 (about 100 ns against 40).
    // Most control points sit under the knee (a band's threshold is above its running RMS).
    const gainDb =
      env > 0 && power >= this.#quietPower ? this.gainDbFor(Math.log(power) * DB_PER_NEPER_OF_POWER) : 0;
    let target = gainDb === 0 ? 1 : Math.exp(gainDb * NEPERS_PER_DB_OF_AMPLITUDE);
    const trace = this.trace;
    if (trace) {
      // Control points sit at absolute multiples of 16 frames: this one is frame #frame + offset.
      const index = (this.#frame + offset) / CONTROL;
      if (trace.mode === 'record') trace.targets[index] = target;
      else target = trace.targets[index] ?? 1;
    }
    // The statistics count the gain applied: a replayed one when the trace replays.
    this.stats?.record(trace?.mode === 'replay' ? 20 * Math.log10(target) : gainDb);
    return target;
  }

  /**
   * `a.process(aChannels, start, end)` and `b.process(bChannels, start, end)` (b: none, or a second band at
   * the same frame) in WebAssembly SIMD, the two in the two lanes of one loop (band-compressor.wat,
   * decision 316), with the same samples. False (nothing done) where it does not run: no kernel, or not
   * stereo bands in relative mode (the multiband compressor's), which `process` then compresses.
   * `third.keep`: three bands of at most one chunk stay in the kernel's memory for the mastering tail
   * (decision 321), and the result is 'kept' (the channels are not written).
   */
  static processInWasm(
    a: Compressor,
    aChannels: readonly Float32Array[],
    b: Compressor | null,
    bChannels: readonly Float32Array[] | null,
    start: number,
    end: number,
    /** A third band, run with the other two in one loop (only with `b`). */
    third: { c: Compressor; channels: readonly Float32Array[]; keep?: boolean } | null = null,
  ): boolean | 'kept' {
    const kernel = bandCompressorKernel();
    const fits = (c: Compressor, channels: readonly Float32Array[] | null) =>
      !c.bypassed && c.#msCoef > 0 && channels?.length === 2 && c.#frame === a.#frame;
    if (!kernel || !fits(a, aChannels) || (b && !fits(b, bChannels))) return false;
    if (third && (!b || !fits(third.c, third.channels))) return false;
    const lane = (c: Compressor, channels: readonly Float32Array[]): BandLane => ({
      attack: c.#attack,
      release: c.#release,
      envelope: c.#envelope,
      gain: c.#gain,
      step: c.#step,
      squares: c.#squares,
      meanSquare: c.#meanSquare,
      msCoef: c.#msCoef,
      quietPower: c.#quietPower,
      // A traced curve records (or replays) every point, and the kernel's 1 below the quiet line would not.
      always: c.trace !== null,
      left: channels[0]!,
      right: channels[1]!,
    });
    const lanes = [
      lane(a, aChannels),
      b ? lane(b, bChannels!) : null,
      third ? lane(third.c, third.channels) : null,
    ] as const;
    const until = (CONTROL - (a.#frame % CONTROL)) % CONTROL;
    const which = [a, b, third?.c ?? null] as const;
    const called = [0, 0, 0];
    // The kernel took the power as #target does; the rest of #target is the JavaScript's.
    const target = (k: 0 | 1 | 2, offset: number, envelope: number, power: number) => {
      called[k]!++;
      return which[k]!.#targetOfPower(envelope, power, offset);
    };
    const kept = kernel.run(lanes[0], lanes[1], start, end, until, target, lanes[2], third?.keep);
    // Points the kernel answered with 1 itself: #target's record(0) for each.
    const points = end - start > until ? Math.floor((end - start - 1 - until) / CONTROL) + 1 : 0;
    which.forEach((c, k) => {
      const l = lanes[k];
      if (!c || !l) return;
      c.#frame += end - start;
      c.#envelope = l.envelope;
      c.#gain = l.gain;
      c.#step = l.step;
      c.#squares = l.squares;
      c.#meanSquare = l.meanSquare;
      c.stats?.idle(points - called[k]!);
    });
    return kept ? 'kept' : true;
  }

  /** Compresses `channels[c][start..end)` in place (all channels share one gain). */
  process(channels: readonly Float32Array[], start: number, end: number): void {
    if (this.bypassed) return;
    const count = channels.length;
    const left = channels[0]!;
    const right = count > 1 ? channels[1]! : left;
    const attack = this.#attack;
    const release = this.#release;
    let env = this.#envelope;
    let gain = this.#gain;
    let step = this.#step;
    // Frames left until the next control point (control points sit at absolute multiples of 16).
    let untilControl = (CONTROL - (this.#frame % CONTROL)) % CONTROL;
    const relative = this.#msCoef > 0;
    for (let i = start; i < end; ) {
      if (untilControl === 0) {
        // Flush a decayed detector before it turns denormal during long silences.
        if (env < 1e-20) env = 0;
        step = (this.#target(env, count, i - start) - gain) / CONTROL;
        untilControl = CONTROL;
      }
      const stop = Math.min(end, i + untilControl);
      untilControl -= stop - i;
      if (relative && count === 2) {
        // The stereo case of the loop below with the channels in locals: same arithmetic in the same order
        // (squares of left then right), so the same output, at about half the cost.
        let squares = this.#squares;
        for (; i < stop; i++) {
          const l = left[i]!;
          const r = right[i]!;
          squares += l * l;
          squares += r * r;
          const al = l < 0 ? -l : l;
          const ar = r < 0 ? -r : r;
          const d = (ar > al ? ar : al) - env;
          env += Math.max(d, 0) * attack + Math.min(d, 0) * release;
          gain += step;
          left[i] = l * gain;
          right[i] = r * gain;
        }
        this.#squares = squares;
      } else if (relative) {
        // The running RMS needs the squares: a separate loop keeps the absolute mode's as it was.
        let squares = this.#squares;
        for (; i < stop; i++) {
          let a = 0;
          for (let c = 0; c < count; c++) {
            const v = channels[c]![i]!;
            squares += v * v;
            const av = v < 0 ? -v : v;
            if (av > a) a = av;
          }
          const d = a - env;
          env += Math.max(d, 0) * attack + Math.min(d, 0) * release;
          gain += step;
          for (let c = 0; c < count; c++) channels[c]![i] = channels[c]![i]! * gain;
        }
        this.#squares = squares;
      } else if (count === 2) {
        for (; i < stop; i++) {
          const l = left[i]!;
          const r = right[i]!;
          const al = l < 0 ? -l : l;
          const ar = r < 0 ? -r : r;
          const d = (al > ar ? al : ar) - env;
          // Branch-free attack/release: the sign of d is unpredictable on audio.
          env += Math.max(d, 0) * attack + Math.min(d, 0) * release;
          gain += step;
          left[i] = l * gain;
          right[i] = r * gain;
        }
      } else if (count === 1) {
        // One channel (the mixdown's voice) in a local: the loop below's arithmetic (its peak starts at 0),
        // without the channel loops (decision 270).
        for (; i < stop; i++) {
          const v = left[i]!;
          const av = v < 0 ? -v : v;
          const d = (av > 0 ? av : 0) - env;
          env += Math.max(d, 0) * attack + Math.min(d, 0) * release;
          gain += step;
          left[i] = v * gain;
        }
      } else {
        for (; i < stop; i++) {
          let a = 0;
          for (let c = 0; c < count; c++) {
            const v = channels[c]![i]!;
            const av = v < 0 ? -v : v;
            if (av > a) a = av;
          }
          const d = a - env;
          env += Math.max(d, 0) * attack + Math.min(d, 0) * release;
          gain += step;
          for (let c = 0; c < count; c++) channels[c]![i] = channels[c]![i]! * gain;
        }
      }
    }
    this.#frame += end - start;
    this.#envelope = env;
    this.#gain = gain;
    this.#step = step;
  }
}
