/**
 * TPDF dither for reduction to 16-bit PCM: the sum of two independent uniform variables of one LSB each
 * (triangular density, ±1 LSB), which removes the signal-correlated quantisation distortion at a fixed,
 * known noise cost. A seeded xorshift generator keeps renders reproducible (and tests deterministic).
 */

/** Deterministic TPDF noise source, in LSB units (range -1..1, triangular). */
export class TpdfDither {
  #state: number;

  constructor(seed = 0x9e3779b9) {
    // xorshift32 must never hold 0.
    this.#state = seed >>> 0 || 0x9e3779b9;
  }

  #uniform(): number {
    let x = this.#state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#state = x >>> 0;
    return this.#state / 4294967296;
  }

  /** One TPDF sample, in LSB: difference of two uniforms in [0, 1). */
  next(): number {
    return this.#uniform() - this.#uniform();
  }
}

/**
 * Converts one float channel (-1..1, scaled by 32768 as decoders do) to 16-bit integers written into `out` at `offset`, `offset + stride`, ...
 * (stride 2 interleaves a stereo pair). With `dither` the TPDF noise is added before rounding; without it the
 * conversion is plain rounding, so a 16-bit source round-trips bit-exactly.
 */
export const floatToInt16 = (
  input: Float32Array,
  out: Int16Array,
  offset: number,
  stride: number,
  dither: TpdfDither | null,
): void => {
  const n = input.length;
  let j = offset;
  if (dither) {
    for (let i = 0; i < n; i++, j += stride) {
      let v = Math.round(input[i]! * 32768 + dither.next());
      v = Math.min(32767, Math.max(-32768, v));
      out[j] = v;
    }
  } else {
    for (let i = 0; i < n; i++, j += stride) {
      let v = Math.round(input[i]! * 32768);
      v = Math.min(32767, Math.max(-32768, v));
      out[j] = v;
    }
  }
};

/** Shorthand for one dithered sample in LSB units of a 16-bit target (for encoders with their own loops). */
export const tpdfDither = (dither: TpdfDither): number => dither.next();
