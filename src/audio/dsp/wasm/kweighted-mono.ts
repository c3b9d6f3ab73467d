/**
 * Loader of kweighted-mono.wat (decision 314): LoudnessMeter's one-channel K-weighting with the shelf and the
 * high-pass in the two lanes of one f64x2, a sample apart; the same sums as the JavaScript loop, bit for bit.
 * One instance per thread, compiled synchronously on first use (the module is under 1 kB). It runs where
 * the SIMD kernels run (`simdKernels()`, which also carries their on/off switch for tests and benches).
 */
import type { KWeighting } from '../loudness';
import { KWEIGHTED_MONO_WASM_HEX } from './kweighted-mono.wasm';
import { threadKernel } from './simd-kernels';
import { type KernelExports, WasmKernel } from './wasm-kernel';

interface Exports extends KernelExports {
  kweighted_mono(c: number, st: number, p: number, n: number, sumAt: number, flush: number): void;
}

const STATE_AT = 80;
const SUM_AT = 112;
const SAMPLES_AT = 128;
/** Frames per call: the input fits the module's one 64 kB page (a 100 ms sub-block at 48 kHz is 4800). */
const CHUNK = 8192;

export class KWeightedMono extends WasmKernel<Exports> {
  /**
   * #filterAndSquare: K-weights data[start..end) and returns its sum of squares; `state[at..at + 4)` is the
   * meter's shelf s1 s2 and high-pass s1 s2 of the channel, read and written back.
   */
  sumOfSquares(
    k: KWeighting,
    state: Float64Array,
    at: number,
    data: Float32Array,
    start: number,
    end: number,
  ) {
    const f64 = this.f64;
    for (let j = 0; j < 5; j++) {
      f64[2 * j] = k.shelf[j]!;
      f64[2 * j + 1] = k.highpass[j]!;
    }
    // (shelf s1, high-pass s1), then (shelf s2, high-pass s2).
    f64[STATE_AT / 8] = state[at]!;
    f64[STATE_AT / 8 + 1] = state[at + 2]!;
    f64[STATE_AT / 8 + 2] = state[at + 1]!;
    f64[STATE_AT / 8 + 3] = state[at + 3]!;
    f64[SUM_AT / 8] = 0;
    for (let from = start; from < end; from += CHUNK) {
      const to = Math.min(end, from + CHUNK);
      this.f32.set(data.subarray(from, to), SAMPLES_AT / 4);
      this.exports.kweighted_mono(0, STATE_AT, SAMPLES_AT, to - from, SUM_AT, to >= end ? 1 : 0);
    }
    state[at] = f64[STATE_AT / 8]!;
    state[at + 2] = f64[STATE_AT / 8 + 1]!;
    state[at + 1] = f64[STATE_AT / 8 + 2]!;
    state[at + 3] = f64[STATE_AT / 8 + 3]!;
    return f64[SUM_AT / 8]!;
  }
}

/** This thread's kernel, or null where the SIMD kernels cannot run (or are switched off). */
export const kWeightedMono = threadKernel(KWEIGHTED_MONO_WASM_HEX, (instance) => new KWeightedMono(instance));
