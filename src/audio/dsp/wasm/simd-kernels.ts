/**
 * The WebAssembly SIMD kernels of the hottest DSP loops (simd-kernels.wat, decision 160): two channels or
 * two consecutive indices in one f64x2, bit for bit the output of the JavaScript loops they replace:
 * - `cascade`: BiquadCascade.processStereo, about twice as fast in V8;
 * - `kWeightedBlocks`: BlockAnalysis's stereo push (K-weighted energy and sample peak per 16-frame block);
 * - `kWeightedSums`: LoudnessMeter's stereo K-weighting (the two channels' sums of squares);
 * - `truePeaks`: true-peak.ts's interpolatePeaks (two indices per vector);
 * - `fft`: FftPlan's radix-4 transforms (vocal/fft-plan.ts);
 * - `denoiseBins`: the noise reduction's work between its windows (vocal/denoise.ts), one pair of frames.
 * One instance per thread, compiled synchronously on first use (the module is about 9 kB). Where a thread
 * cannot (no WebAssembly SIMD, or a main thread that refuses synchronous compiles of this size),
 * `simdKernels()` is null and the callers keep their JavaScript loops.
 */

import type { KWeighting } from '../loudness';
import { SIMD_KERNELS_WASM_HEX } from './simd-kernels.wasm';
import {
  type CascadePart,
  CHUNK,
  COEF_BYTES,
  type Coefficients,
  type DenoiseState,
  type Exports,
  hexBytes,
  PAGE,
  STATE_BYTES,
  sectionStateLanes,
  TRUE_PEAK_HISTORY,
} from './simd-kernels-abi';

export type { CascadePart, DenoiseState } from './simd-kernels-abi';

export class SimdKernels {
  #exports: Exports;
  #f32 = new Float32Array(0);
  #f64 = new Float64Array(0);
  #u32 = new Uint32Array(0);
  /**
   * Whose constants are now from byte 0 (an FFT's twiddles, a noise reduction's state): an STFT runs
   * thousands of same-size transforms in a row.
   */
  #resident: object | null = null;

  constructor(instance: WebAssembly.Instance) {
    this.#exports = instance.exports as unknown as Exports;
  }

  /** Room for `bytes` in the module's memory; views made again after a grow (it detaches the old buffer). */
  #reserve(bytes: number): void {
    // Every kernel writes from byte 0, over what was resident.
    this.#resident = null;
    const memory = this.#exports.memory;
    const have = memory.buffer.byteLength;
    if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
    if (this.#f32.buffer !== memory.buffer) {
      this.#f32 = new Float32Array(memory.buffer);
      this.#f64 = new Float64Array(memory.buffer);
      this.#u32 = new Uint32Array(memory.buffer);
    }
  }

  /** Writes a section's coefficients as splats (the value in both lanes) at byte `at`. */
  #coefficients(at: number, c: Coefficients | Float64Array, from = 0): void {
    const f64 = this.#f64;
    for (let k = 0; k < 5; k++) {
      f64[at / 8 + 2 * k] = c[from + k]!;
      f64[at / 8 + 2 * k + 1] = c[from + k]!;
    }
  }

  /** Copies frames [from, to) of both channels in at `leftAt`/`rightAt`. */
  #copyIn(
    left: Float32Array,
    right: Float32Array,
    from: number,
    to: number,
    leftAt: number,
    rightAt: number,
  ) {
    this.#f32.set(left.subarray(from, to), leftAt / 4);
    this.#f32.set(right.subarray(from, to), rightAt / 4);
  }

  /**
   * BiquadCascade.processStereo: filters left/right[start..end) in place through the sections of `parts`,
   * one cascade after another as if they were one. Each part's `coefs` and `state` are its cascade's own
   * arrays (5 coefficients per section; state per channel, left's sections then right's, two values each);
   * the state is read before and written back after, settled as the JS settles it.
   */
  cascade(
    parts: readonly CascadePart[],
    left: Float32Array,
    right: Float32Array,
    start: number,
    end: number,
  ): void {
    let sections = 0;
    for (const part of parts) sections += part.sections;
    const stateAt = sections * COEF_BYTES;
    this.#reserve(stateAt + sections * STATE_BYTES + CHUNK * 8);
    this.#cascadeState(parts, stateAt, true);
    this.#runCascade(sections, left, right, start, end);
    this.#cascadeState(parts, stateAt, false);
  }

  /**
   * The `cascade` kernel over left/right[start..end) in chunks, coefficients and state already in place
   * (coefficients at 0, state right after them, then the two chunk buffers).
   */
  #runCascade(sections: number, left: Float32Array, right: Float32Array, start: number, end: number): void {
    const stateAt = sections * COEF_BYTES;
    const leftAt = stateAt + sections * STATE_BYTES;
    const rightAt = leftAt + CHUNK * 4;
    // At least one call, even for an empty range: the JS settles the state at the end of every call.
    let from = start;
    do {
      const to = Math.min(end, from + CHUNK);
      const n = Math.max(0, to - from);
      this.#copyIn(left, right, from, to, leftAt, rightAt);
      this.#exports.cascade(0, stateAt, sections, leftAt, rightAt, n, to >= end ? 1 : 0);
      left.set(this.#f32.subarray(leftAt / 4, leftAt / 4 + n), from);
      right.set(this.#f32.subarray(rightAt / 4, rightAt / 4 + n), from);
      from = to;
    } while (from < end);
  }

  /**
   * Two one-channel cascades of as many sections, one in each lane: `a` filters `aData`, `b` filters `bData`
   * ([start, end) of each, in place), each with its own coefficients. Per lane the operations are those of
   * `cascade` (and so of the JavaScript's one-channel pass), so each output is what it would be alone.
   */
  cascadeLanes(
    a: CascadePart,
    aData: Float32Array,
    b: CascadePart,
    bData: Float32Array,
    start: number,
    end: number,
  ): void {
    const sections = a.sections;
    if (b.sections !== sections) throw new RangeError('lanes need cascades of as many sections');
    const stateAt = sections * COEF_BYTES;
    this.#reserve(stateAt + sections * STATE_BYTES + CHUNK * 8);
    const f64 = this.#f64;
    for (let s = 0; s < sections; s++) {
      for (let k = 0; k < 5; k++) {
        f64[(s * COEF_BYTES) / 8 + 2 * k] = a.coefs[s * 5 + k]!;
        f64[(s * COEF_BYTES) / 8 + 2 * k + 1] = b.coefs[s * 5 + k]!;
      }
      const v = (stateAt + s * STATE_BYTES) / 8;
      f64[v] = a.state[s * 2]!;
      f64[v + 1] = b.state[s * 2]!;
      f64[v + 2] = a.state[s * 2 + 1]!;
      f64[v + 3] = b.state[s * 2 + 1]!;
    }
    this.#runCascade(sections, aData, bData, start, end);
    for (let s = 0; s < sections; s++) {
      const v = (stateAt + s * STATE_BYTES) / 8;
      a.state[s * 2] = f64[v]!;
      b.state[s * 2] = f64[v + 1]!;
      a.state[s * 2 + 1] = f64[v + 2]!;
      b.state[s * 2 + 1] = f64[v + 3]!;
    }
  }

  /** Writes the parts' coefficients and state into the module's memory (`into`), or reads their state back. */
  #cascadeState(parts: readonly CascadePart[], stateAt: number, into: boolean): void {
    const f64 = this.#f64;
    let at = 0;
    for (const part of parts) {
      for (let s = 0; s < part.sections; s++, at++) {
        if (into) this.#coefficients(at * COEF_BYTES, part.coefs, s * 5);
        sectionStateLanes(f64, (stateAt + at * STATE_BYTES) / 8, part, s, into);
      }
    }
  }

  /**
   * BlockAnalysis's stereo push: K-weights left/right[start..end) (`frame` is the absolute frame of
   * `start`), adding each 16-frame block's sum of squares to `energy[block]` and raising `sampleMax[block]`
   * to its largest |sample|. `state` is BlockAnalysis's: shelf s1 s2 and high-pass s1 s2 of the left, then
   * of the right.
   */
  kWeightedBlocks(
    k: KWeighting,
    state: Float64Array,
    left: Float32Array,
    right: Float32Array,
    start: number,
    end: number,
    frame: number,
    energy: Float64Array,
    sampleMax: Float64Array,
  ): void {
    const stateAt = 2 * COEF_BYTES;
    const leftAt = stateAt + 64;
    const rightAt = leftAt + CHUNK * 4;
    const outAt = rightAt + CHUNK * 4;
    this.#reserve(outAt + (CHUNK / 16 + 1) * 16);
    this.#kWeightingIn(k, state, stateAt);
    let from = start;
    let at = frame;
    do {
      // Chunks end on block boundaries, so no block's run of frames is summed in two parts.
      const phase = at & 15;
      const to = Math.min(end, from + CHUNK - phase);
      const n = Math.max(0, to - from);
      this.#copyIn(left, right, from, to, leftAt, rightAt);
      this.#exports.kweighted_blocks(0, stateAt, leftAt, rightAt, n, phase, outAt, to >= end ? 1 : 0);
      const blocks = n > 0 ? (phase + n + 15) >> 4 : 0;
      const first = at >> 4;
      const out = this.#f64;
      for (let b = 0; b < blocks; b++) {
        const block = first + b;
        energy[block] = energy[block]! + out[outAt / 8 + 2 * b]!;
        const max = out[outAt / 8 + 2 * b + 1]!;
        if (max > sampleMax[block]!) sampleMax[block] = max;
      }
      from = to;
      at += n;
    } while (from < end);
    this.#kWeightingOut(state, stateAt);
  }

  /**
   * LoudnessMeter's #filterAndSquarePair: K-weights left/right[start..end) and returns each channel's sum
   * of squares. `state` is the meter's: shelf s1 s2 and high-pass s1 s2 of the left, then of the right.
   */
  kWeightedSums(
    k: KWeighting,
    state: Float64Array,
    left: Float32Array,
    right: Float32Array,
    start: number,
    end: number,
  ): [number, number] {
    const stateAt = 2 * COEF_BYTES;
    const sumsAt = stateAt + 64;
    const leftAt = sumsAt + 16;
    const rightAt = leftAt + CHUNK * 4;
    this.#reserve(rightAt + CHUNK * 4);
    this.#kWeightingIn(k, state, stateAt);
    const f64 = this.#f64;
    f64[sumsAt / 8] = 0;
    f64[sumsAt / 8 + 1] = 0;
    let from = start;
    do {
      const to = Math.min(end, from + CHUNK);
      this.#copyIn(left, right, from, to, leftAt, rightAt);
      this.#exports.kweighted_sums(
        0,
        stateAt,
        leftAt,
        rightAt,
        Math.max(0, to - from),
        sumsAt,
        to >= end ? 1 : 0,
      );
      from = to;
    } while (from < end);
    this.#kWeightingOut(state, stateAt);
    return [f64[sumsAt / 8]!, f64[sumsAt / 8 + 1]!];
  }

  /** The K-weighting's coefficients and a (left, right) state in the JS layout, into the module's memory. */
  #kWeightingIn(k: KWeighting, state: Float64Array, stateAt: number) {
    this.#coefficients(0, k.shelf);
    this.#coefficients(COEF_BYTES, k.highpass);
    for (let v = 0; v < 4; v++) {
      this.#f64[stateAt / 8 + 2 * v] = state[v]!;
      this.#f64[stateAt / 8 + 2 * v + 1] = state[4 + v]!;
    }
  }

  /** The K-weighting's state back to the JS layout. */
  #kWeightingOut(state: Float64Array, stateAt: number) {
    for (let v = 0; v < 4; v++) {
      state[v] = this.#f64[stateAt / 8 + 2 * v]!;
      state[4 + v] = this.#f64[stateAt / 8 + 2 * v + 1]!;
    }
  }

  /**
   * true-peak.ts's interpolatePeaks: for input indices [from, to) of `x` (x[from - HISTORY] must exist),
   * the oversampled peaks max-accumulated into out[i - from + at]; returns the largest value written.
   * `gridMiss` is the vertex cap, 1 / cos(pi / 8), as the JavaScript computed it.
   */
  truePeaks(
    x: Float32Array,
    from: number,
    to: number,
    out: Float64Array,
    at: number,
    gridMiss: number,
  ): number {
    // x[i - 32 .. i] of every index, and one sample past the last index: two indices share one vector.
    const xAt = 0;
    const outAt = (CHUNK + TRUE_PEAK_HISTORY + 2) * 4;
    this.#reserve(outAt + CHUNK * 8);
    const f32 = this.#f32;
    const f64 = this.#f64;
    let best = 0;
    let first = 1;
    for (let i = from; i < to || first; i += CHUNK) {
      const n = Math.max(0, Math.min(CHUNK, to - i));
      f32.set(x.subarray(i - TRUE_PEAK_HISTORY, i + n), xAt / 4);
      f32[xAt / 4 + TRUE_PEAK_HISTORY + n] = 0;
      f64.set(out.subarray(i - from + at, i - from + at + n), outAt / 8);
      const pointer = xAt + TRUE_PEAK_HISTORY * 4;
      best = this.#exports.true_peaks(pointer, n, outAt, gridMiss, first);
      out.set(f64.subarray(outAt / 8, outAt / 8 + n), i - from + at);
      first = 0;
    }
    return best;
  }

  /**
   * FftPlan.forwardScrambled (`inverse` false) or inverseScrambled of re/im[0..n) in place (n a power of
   * two >= 16); `table` is the plan's twiddles in the layout simd-kernels.wat's `fft` reads.
   */
  fft(table: Float64Array, re: Float64Array, im: Float64Array, n: number, inverse: boolean): void {
    const reAt = table.length * 8;
    const imAt = reAt + n * 8;
    if (this.#resident !== table) {
      this.#reserve(imAt + n * 8);
      this.#f64.set(table);
      this.#resident = table;
    }
    const f64 = this.#f64;
    f64.set(re.subarray(0, n), reAt / 8);
    f64.set(im.subarray(0, n), imAt / 8);
    this.#exports.fft(0, reAt, imAt, n, inverse ? 1 : 0);
    re.set(f64.subarray(reAt / 8, reAt / 8 + n));
    im.set(f64.subarray(imAt / 8, imAt / 8 + n));
  }

  /**
   * denoise.ts's work on one pair of frames, re/im (n points, the two windowed frames as one complex
   * frame) in place: forward transform, the two frames' powers, gains (into `state.g0`/`g1`, updating
   * `state.prevClean`) and scaling, inverse transform. `alpha` is the decision-directed smoothing, `floor`
   * the gain floor.
   */
  denoiseBins(state: DenoiseState, re: Float64Array, im: Float64Array, alpha: number, floor: number): void {
    const n = re.length;
    const bins = n / 2 + 1;
    // Per-bin arrays padded past the last bin, so the gains' two-bin steps stay inside their own array.
    const stride = ((bins + 2) >> 1) * 16;
    const reAt = state.table.length * 8;
    const imAt = reAt + n * 8;
    const revAt = imAt + n * 8;
    const v = revAt + n * 4;
    const at = (j: number) => (v + j * stride) / 8;
    if (this.#resident !== state) {
      this.#reserve(v + 8 * stride);
      this.#f64.set(state.table);
      this.#u32.set(state.rev, revAt / 4);
      this.#f64.set(state.lambda, at(0));
      this.#f64.set(state.invLambda, at(1));
      this.#f64.set(state.prevClean, at(2));
      this.#resident = state;
    }
    const f64 = this.#f64;
    f64.set(re, reAt / 8);
    f64.set(im, imAt / 8);
    this.#exports.denoise_bins(0, reAt, imAt, n, revAt, v, stride, alpha, 1 - alpha, floor);
    re.set(f64.subarray(reAt / 8, reAt / 8 + n));
    im.set(f64.subarray(imAt / 8, imAt / 8 + n));
    // The state also in the JS's array, should another kernel take the memory before the next pair.
    state.prevClean.set(f64.subarray(at(2), at(2) + bins));
    state.g0.set(f64.subarray(at(5), at(5) + bins));
    state.g1.set(f64.subarray(at(6), at(6) + bins));
  }
}

let kernels: SimdKernels | null | undefined;
let enabled = true;

/** This thread's kernels, or null where WebAssembly SIMD cannot run them (or they were switched off). */
export const simdKernels = (): SimdKernels | null => {
  if (!enabled) return null;
  if (kernels === undefined) {
    try {
      const module = new WebAssembly.Module(hexBytes(SIMD_KERNELS_WASM_HEX));
      kernels = new SimdKernels(new WebAssembly.Instance(module, {}));
    } catch {
      kernels = null;
    }
  }
  return kernels;
};

/**
 * A module of its own beside these kernels (the carve's, the dynamic band's, one channel's K-weighting),
 * compiled once per thread on first use and switched with them: null where the SIMD kernels cannot run or
 * were switched off, or where the module does not compile.
 */
export const threadKernel = <K>(
  hex: string,
  wrap: (instance: WebAssembly.Instance) => K,
  /** The module's imports, or a function that gives them on first use (null: the kernel cannot run). */
  imports: WebAssembly.Imports | (() => WebAssembly.Imports | null) = {},
): (() => K | null) => {
  let kernel: K | null | undefined;
  return () => {
    if (!simdKernels()) return null;
    if (kernel === undefined) {
      try {
        const given = typeof imports === 'function' ? imports() : imports;
        kernel = given ? wrap(new WebAssembly.Instance(new WebAssembly.Module(hexBytes(hex)), given)) : null;
      } catch {
        kernel = null;
      }
    }
    return kernel;
  };
};

/** Off: the callers run their JavaScript loops (the reference the tests and the bench compare with). */
export const setWasmKernels = (on: boolean): void => {
  enabled = on;
};
