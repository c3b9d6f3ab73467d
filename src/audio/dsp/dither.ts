/**
 * TPDF dither for reduction to integer PCM: the sum of two independent uniform variables of one LSB each
 * (triangular density, ±1 LSB), which removes the signal-correlated quantisation distortion at a fixed,
 * known noise cost.
 *
 * The noise is counter-based (decision 146): the value for sample number `index` is a hash of (seed, index),
 * not the next state of a running generator. So any stretch of a file can be dithered on its own (two
 * workers, or a block at a time) and come out bit-identical to a serial encode, and renders stay
 * reproducible. One 32-bit hash per sample gives both uniforms: its high and low 16 bits. The hash is
 * Wellons' "lowbias32" (two multiplies, three xor-shifts; a bijection with near-ideal avalanche), so the two
 * halves are independent for every practical purpose (dither.test.ts checks their joint distribution).
 */

/** The default seed: renders are reproducible unless the caller asks for another noise. */
export const DEFAULT_DITHER_SEED = 0x9e3779b9;

/** Counter offset for a seed: distinct seeds start the hash at distinct, well-spread counters. */
export const ditherKey = (seed: number = DEFAULT_DITHER_SEED): number =>
  Math.imul(seed | 0, 0x9e3779b9) ^ 0x5bd1e995;

/** lowbias32: a well-mixed 32-bit hash of a 32-bit counter (signed 32-bit result; use `>>> 16`, `& 0xffff`). */
export const hash32 = (x: number): number => {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  return x ^ (x >>> 16);
};

/** 1 / 65536: one 16-bit uniform step, in LSB. */
export const TPDF_STEP = 1 / 65_536;

/**
 * The TPDF value of sample `index` for the key of `ditherKey(seed)`, in LSB (range -1..1, triangular): the
 * difference of two uniforms on [0, 1) in steps of 1/65536. Encoders with their own fused loops inline
 * exactly this arithmetic (and their tests check they match it bit for bit).
 */
export const tpdfAt = (key: number, index: number): number => {
  const h = hash32((key + index) | 0);
  return ((h >>> 16) - (h & 0xffff)) * TPDF_STEP;
};

/**
 * A TPDF noise stream, in LSB units: `next()` is `tpdfAt(key, 0)`, `tpdfAt(key, 1)`, ... and `seek` moves the
 * counter, so a stream can start anywhere in a file.
 */
export class TpdfDither {
  readonly key: number;
  #index = 0;

  constructor(seed = DEFAULT_DITHER_SEED) {
    this.key = ditherKey(seed);
  }

  /** The counter of the next value. */
  get index(): number {
    return this.#index;
  }

  seek(index: number): this {
    this.#index = index;
    return this;
  }

  /** One TPDF sample, in LSB: difference of two uniforms in [0, 1). */
  next(): number {
    return tpdfAt(this.key, this.#index++);
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
