/**
 * Issue 26: a split-band dynamic cut, the de-esser and the adaptive EQ's dynamic band. The band is taken out
 * with a constant-peak band-pass (zero phase at its centre) and the output is x - (1 - g) * band: with g = 1
 * the voice passes untouched, bit for bit, and only the band is lowered while its level stands over the
 * threshold ("split-band": the rest of the voice is never turned down with it). The detector is the band's
 * own envelope (1 ms attack, 60 ms release), read every 16 samples; the gain moves smoothly between those
 * points.
 */
import { designBiquad } from '../biquad';
import { DYNAMIC_BAND_CHUNK, dynamicBandKernel } from '../wasm/dynamic-band-kernel';

export interface DynamicBandParams {
  centreHz: number;
  q: number;
  /** The band's level (dBFS, RMS of the band-passed signal) over which it is cut. */
  thresholdDb: number;
  /** dB of cut per dB over the threshold (0.75: 4:1). */
  slope: number;
  /** Most it cuts, dB (> 0). */
  maxCutDb: number;
}

const CONTROL = 16;
const INV_CONTROL = 1 / CONTROL;

export class DynamicBand {
  /** b0 b1 b2 a1 a2 of the band-pass, then the envelope's release and attack rates (as the kernel reads them). */
  readonly #c: Float64Array;
  /** x1 x2 y1 y2 of the band-pass and the envelope. */
  readonly #state = new Float64Array(5);
  #gain = 1;
  readonly #params: DynamicBandParams;
  /** Envelope under which no cut is taken, over which the cut is its most (see the constructor). */
  readonly #quiet: number;
  readonly #loud: number;
  readonly #fullCut: number;
  readonly #band = new Float32Array(CONTROL);
  /** Largest cut applied and the sum of cuts over control points (for the report). */
  maxCutDb = 0;
  #cutSum = 0;
  #points = 0;
  #activePoints = 0;

  constructor(sampleRate: number, params: DynamicBandParams) {
    this.#params = params;
    const { b0, b1, b2, a1, a2 } = designBiquad(
      { kind: 'bandpass', frequency: params.centreHz, q: params.q },
      sampleRate,
    );
    const attack = 1 - Math.exp(-1 / (0.001 * sampleRate));
    const release = 1 - Math.exp(-1 / (0.06 * sampleRate));
    this.#c = Float64Array.of(b0, b1, b2, a1, a2, release, attack);
    const { thresholdDb, slope, maxCutDb } = params;
    // Under this envelope the level is surely under the threshold (a hair of margin for the logarithm's
    // rounding): no cut, and no logarithm to take, which is most control points (decision 270).
    this.#quiet = (10 ** ((thresholdDb + 3) / 10) - 1e-20) * (1 - 1e-9);
    // Over this one the cut surely reaches its most (a margin of 4e-6 dB of level, far over the logarithm's
    // rounding, for any slope from 0.01 up): min() would give maxCutDb exactly, so neither the logarithm nor
    // the power need be taken (decision 313).
    this.#loud = slope >= 0.01 ? 10 ** ((thresholdDb + 3 + maxCutDb / slope) / 10) * (1 + 1e-6) : Infinity;
    this.#fullCut = maxCutDb > 0 ? 10 ** (-maxCutDb / 20) : 1;
  }

  /** Mean cut while cutting, dB. */
  get meanActiveCutDb(): number {
    return this.#activePoints ? this.#cutSum / this.#activePoints : 0;
  }

  /** Share of the time it cuts at all. */
  get activeShare(): number {
    return this.#points ? this.#activePoints / this.#points : 0;
  }

  process(x: Float32Array, start: number, end: number): void {
    // The band, its envelope and the gain ramps in WebAssembly, the same values (decision 313); the
    // control points' gains here.
    const kernel = dynamicBandKernel();
    if (kernel) {
      for (let from = start; from < end; from += DYNAMIC_BAND_CHUNK) {
        const to = Math.min(end, from + DYNAMIC_BAND_CHUNK);
        kernel.run(this.#c, this.#state, x, from, to);
        const { envelope, gains } = kernel;
        gains[0] = this.#gain;
        for (let j = 0; j * CONTROL < to - from; j++) gains[j + 1] = this.#target(envelope[j]!);
        this.#gain = gains[Math.ceil((to - from) / CONTROL)]!;
        kernel.ramp(x);
      }
      return;
    }
    const c = this.#c;
    const [b0, b1, b2, a1, a2] = c as unknown as [number, number, number, number, number];
    const band = this.#band;
    const st = this.#state;
    for (let s = start; s < end; s += CONTROL) {
      const e = Math.min(end, s + CONTROL);
      let [x1, x2, y1, y2, env] = st as unknown as [number, number, number, number, number];
      for (let k = 0; k < e - s; k++) {
        const v = x[s + k]!;
        const y = b0 * v + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
        x2 = x1;
        x1 = v;
        y2 = y1;
        y1 = y;
        band[k] = y;
        const p = y * y;
        // Attack or release by the sign of d: the same values as the sum max(d, 0) * attack +
        // min(d, 0) * release (one of its terms is exactly 0) with two operations fewer on the envelope's
        // chain from one sample to the next, which sets the loop's pace (decision 290). The rate is looked
        // up by the comparison's 0 or 1, not branched on: the sign flips twice a period of the band, which
        // no branch predictor can follow (decision 313).
        const d = p - env;
        env += d * c[5 + +(d > 0)]!;
      }
      st[0] = x1;
      st[1] = x2;
      st[2] = y1;
      st[3] = y2;
      st[4] = env;
      this.#ramp(x, s, e, this.#target(env));
    }
  }

  /** The gain a control point asks for from the envelope there (and the report's counts). */
  #target(env: number): number {
    const { thresholdDb, slope, maxCutDb } = this.#params;
    // Envelope of y^2 is the mean square; a sine's is half its peak squared: +3 dB makes it the RMS level
    // of a steady band signal (as a meter would read it).
    const level = 2 * env;
    const cut =
      level < this.#quiet
        ? 0
        : level > this.#loud
          ? maxCutDb
          : Math.min(maxCutDb, Math.max(0, (10 * Math.log10(level + 1e-20) - 3 - thresholdDb) * slope));
    this.#points++;
    if (cut > 0) {
      this.#activePoints++;
      this.#cutSum += cut;
      if (cut > this.maxCutDb) this.maxCutDb = cut;
    }
    return cut > 0 ? (cut === maxCutDb ? this.#fullCut : 10 ** (-cut / 20)) : 1;
  }

  /** Linear ramp from the last gain to `target` over the block x[s..e) (the band in this.#band). */
  #ramp(x: Float32Array, s: number, e: number, target: number): void {
    const band = this.#band;
    const gain = this.#gain;
    // Untouched when both are 1.
    if (gain === 1 && target === 1) return;
    const step = target - gain;
    const n = e - s;
    if (n === CONTROL) {
      // Dividing by 16 and multiplying by 1/16 are the same exact scaling by a power of two: the same
      // values without a division per sample.
      for (let k = 0; k < CONTROL; k++) {
        const g = gain + step * (k + 1) * INV_CONTROL;
        x[s + k] = x[s + k]! - (1 - g) * band[k]!;
      }
    } else {
      for (let k = 0; k < n; k++) {
        const g = gain + (step * (k + 1)) / n;
        x[s + k] = x[s + k]! - (1 - g) * band[k]!;
      }
    }
    this.#gain = target;
  }
}
