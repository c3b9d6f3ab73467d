/**
 * Issue 26: a split-band dynamic cut, the de-esser and the adaptive EQ's dynamic band. The band is taken out
 * with a constant-peak band-pass (zero phase at its centre) and the output is x - (1 - g) * band: with g = 1
 * the voice passes untouched, bit for bit, and only the band is lowered while its level stands over the
 * threshold ("split-band": the rest of the voice is never turned down with it). The detector is the band's
 * own envelope (1 ms attack, 60 ms release), read every 16 samples; the gain moves smoothly between those
 * points.
 */
import { type BiquadCoefficients, designBiquad } from '../biquad';

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

export class DynamicBand {
  readonly #c: BiquadCoefficients;
  #x1 = 0;
  #x2 = 0;
  #y1 = 0;
  #y2 = 0;
  #env = 0;
  #gain = 1;
  readonly #attack: number;
  readonly #release: number;
  readonly #params: DynamicBandParams;
  readonly #band = new Float32Array(CONTROL);
  /** Largest cut applied and the sum of cuts over control points (for the report). */
  maxCutDb = 0;
  #cutSum = 0;
  #points = 0;
  #activePoints = 0;

  constructor(sampleRate: number, params: DynamicBandParams) {
    this.#params = params;
    this.#c = designBiquad({ kind: 'bandpass', frequency: params.centreHz, q: params.q }, sampleRate);
    this.#attack = 1 - Math.exp(-1 / (0.001 * sampleRate));
    this.#release = 1 - Math.exp(-1 / (0.06 * sampleRate));
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
    const { b0, b1, b2, a1, a2 } = this.#c;
    const { thresholdDb, slope, maxCutDb } = this.#params;
    const band = this.#band;
    let { x1, x2, y1, y2 } = { x1: this.#x1, x2: this.#x2, y1: this.#y1, y2: this.#y2 };
    let env = this.#env;
    let gain = this.#gain;
    const attack = this.#attack;
    const release = this.#release;
    // Under this envelope the level is surely under the threshold (a hair of margin for the logarithm's
    // rounding): no cut, and no logarithm to take, which is most control points (decision 270).
    const quiet = (10 ** ((thresholdDb + 3) / 10) - 1e-20) * (1 - 1e-9);
    for (let s = start; s < end; s += CONTROL) {
      const e = Math.min(end, s + CONTROL);
      const n = e - s;
      for (let k = 0; k < n; k++) {
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
        // chain from one sample to the next, which sets the loop's pace (decision 290).
        const d = p - env;
        env += d * (d > 0 ? attack : release);
      }
      // Envelope of y^2 is the mean square; a sine's is half its peak squared: +3 dB makes it the RMS level
      // of a steady band signal (as a meter would read it).
      const cut =
        2 * env < quiet
          ? 0
          : Math.min(maxCutDb, Math.max(0, (10 * Math.log10(2 * env + 1e-20) - 3 - thresholdDb) * slope));
      const target = cut > 0 ? 10 ** (-cut / 20) : 1;
      this.#points++;
      if (cut > 0) {
        this.#activePoints++;
        this.#cutSum += cut;
        if (cut > this.maxCutDb) this.maxCutDb = cut;
      }
      // Linear ramp from the last gain to the new one over the control block; untouched when both are 1.
      if (gain === 1 && target === 1) continue;
      for (let k = 0; k < n; k++) {
        const g = gain + ((target - gain) * (k + 1)) / n;
        x[s + k] = x[s + k]! - (1 - g) * band[k]!;
      }
      gain = target;
    }
    this.#x1 = x1;
    this.#x2 = x2;
    this.#y1 = y1;
    this.#y2 = y2;
    this.#env = env;
    this.#gain = gain;
  }
}
