/**
 * What simd-kernels.ts and the module it loads (simd-kernels.wat) agree on: the module's exports, the
 * memory layout's sizes, the arrays the callers hand over, and the module's bytes from their hex.
 */
import type { KWeighting } from '../loudness';

/** Bytes of coefficients per biquad section: b0 b1 b2 a1 a2, each an f64x2 holding the value twice. */
export const COEF_BYTES = 80;
/** Bytes of state per biquad section: s1 and s2, each an f64x2 of (left, right). */
export const STATE_BYTES = 32;
/**
 * Frames copied into the module's memory per call; longer ranges go in chunks, the state staying inside.
 * A multiple of 16, so the K-weighting's chunks can end on block boundaries.
 */
export const CHUNK = 16384;
export const PAGE = 65536;
/** Samples before an index that the true-peak interpolator reads (true-peak.ts's HISTORY). */
export const TRUE_PEAK_HISTORY = 32;

/** One cascade of a `cascade` call: its coefficients and state (BiquadCascade's own arrays). */
export interface CascadePart {
  coefs: Float64Array;
  state: Float64Array;
  sections: number;
}

/**
 * Section `s` of a stereo cascade part's state (BiquadCascade's layout: the left's sections, then the right's,
 * s1 s2 each) into a kernel's f64 lanes at index `v` (s1 left, s1 right, s2 left, s2 right), or back out.
 */
export const sectionStateLanes = (
  f64: Float64Array,
  v: number,
  part: CascadePart,
  s: number,
  into: boolean,
): void => {
  const { state } = part;
  const l = s * 2;
  const r = (part.sections + s) * 2;
  if (into) {
    f64[v] = state[l]!;
    f64[v + 1] = state[r]!;
    f64[v + 2] = state[l + 1]!;
    f64[v + 3] = state[r + 1]!;
  } else {
    state[l] = f64[v]!;
    state[r] = f64[v + 1]!;
    state[l + 1] = f64[v + 2]!;
    state[r + 1] = f64[v + 3]!;
  }
};

/** Biquad coefficients b0 b1 b2 a1 a2 (a0 = 1), as the K-weighting holds them. */
export type Coefficients = KWeighting['shelf'];

export interface Exports {
  memory: WebAssembly.Memory;
  cascade(c: number, st: number, sections: number, l: number, r: number, n: number, flush: number): void;
  kweighted_blocks(
    c: number,
    st: number,
    l: number,
    r: number,
    n: number,
    phase: number,
    out: number,
    flush: number,
  ): void;
  kweighted_sums(c: number, st: number, l: number, r: number, n: number, out: number, flush: number): void;
  true_peaks(x: number, n: number, out: number, gridMiss: number, first: number): number;
  fft(tw: number, re: number, im: number, n: number, inverse: number): void;
  denoise_bins(
    tw: number,
    re: number,
    im: number,
    n: number,
    rev: number,
    v: number,
    stride: number,
    alpha: number,
    beta: number,
    floor: number,
  ): void;
}

/**
 * denoise.ts's arrays for `denoiseBins` (its own, read and written in place): the plan's twiddles in the
 * kernel's layout and bin order, the noise powers and their inverses, the previous clean powers (state) and
 * the two frames' gains (out).
 */
export interface DenoiseState {
  table: Float64Array;
  rev: Uint32Array;
  lambda: Float64Array;
  invLambda: Float64Array;
  prevClean: Float64Array;
  g0: Float64Array;
  g1: Float64Array;
}

export const hexBytes = (hex: string): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
};
