/**
 * Loader of crossover-kernel.wat: ThreeBandCrossover.split on a stereo block in two passes of WebAssembly
 * SIMD, bit for bit the four BiquadCascade.processStereo passes it replaces (the reference it is tested
 * against, and the fallback where the SIMD kernels do not run). One instance per thread, compiled
 * synchronously on first use (the module is about 1.7 kB).
 */
import { CROSSOVER_KERNEL_WASM_HEX } from './crossover-kernel.wasm';
import { threadKernel } from './simd-kernels';
import { type CascadePart, sectionStateLanes } from './simd-kernels-abi';
import { type KernelExports, WasmKernel } from './wasm-kernel';

interface Exports extends KernelExports {
  split_low_rest(n: number, flush: number): void;
  split_mid_high(n: number, flush: number): void;
}

/** The layout of crossover-kernel.wat, in bytes. */
const STATE_AT = 720;
const SAMPLES_AT = 1024;
/** Frames per call (the mastering render's block), and so the bytes between two sample buffers. */
const CHUNK = 4096;
const BUFFER = CHUNK * 4;

/** The crossover's four cascades: low (3 sections), rest (2), mid (2), high (2). */
export type CrossoverParts = readonly [CascadePart, CascadePart, CascadePart, CascadePart];

export class CrossoverKernel extends WasmKernel<Exports> {
  /**
   * Splits left/right[start..end) into `bands[b][c][0..end-start)` (low, mid, high): what
   * ThreeBandCrossover.split does with `processStereo` of each part. The parts' state is read before and
   * written back after, settled as the JavaScript settles it.
   */
  split(
    parts: CrossoverParts,
    left: Float32Array,
    right: Float32Array,
    start: number,
    end: number,
    bands: readonly (readonly Float32Array[])[],
  ): void {
    this.#state(parts, true);
    const f32 = this.f32;
    const at = (k: number) => (SAMPLES_AT + k * BUFFER) / 4;
    // At least one call, even for an empty range: the JavaScript settles the state at the end of every call.
    let from = start;
    do {
      const to = Math.min(end, from + CHUNK);
      const n = Math.max(0, to - from);
      const flush = to >= end ? 1 : 0;
      f32.set(left.subarray(from, to), at(0));
      f32.set(right.subarray(from, to), at(1));
      this.exports.split_low_rest(n, flush);
      this.exports.split_mid_high(n, flush);
      for (let k = 0; k < 6; k++) bands[k >> 1]![k & 1]!.set(f32.subarray(at(k), at(k) + n), from - start);
      from = to;
    } while (from < end);
    this.#state(parts, false);
  }

  /** Coefficients and state into the module's memory (`into`), or the state back out. */
  #state(parts: CrossoverParts, into: boolean): void {
    const f64 = this.f64;
    let k = 0;
    for (const part of parts)
      for (let s = 0; s < part.sections; s++, k++) {
        if (into)
          for (let j = 0; j < 5; j++) {
            f64[k * 10 + 2 * j] = part.coefs[s * 5 + j]!;
            f64[k * 10 + 2 * j + 1] = part.coefs[s * 5 + j]!;
          }
        sectionStateLanes(f64, (STATE_AT + k * 32) / 8, part, s, into);
      }
  }
}

/** This thread's kernel, or null where the SIMD kernels cannot run (or are switched off). */
export const crossoverKernel = threadKernel(
  CROSSOVER_KERNEL_WASM_HEX,
  (instance) => new CrossoverKernel(instance),
);
