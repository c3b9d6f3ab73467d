/**
 * Loader of true-peak-centre.wat (decision 293): centrePeak over runs of 16-frame blocks, each block's 17
 * output points, two points at a time in the lanes of an f64x2; the same values as the JavaScript, bit for bit.
 * One instance per thread, compiled on first use; it runs where the SIMD kernels run (`simdKernels()`, which
 * also carries their on/off switch for tests and benches).
 */
import { LIMITER_BLOCK } from '../limiter';
import { HISTORY, TRUE_PEAK_DELAY } from '../true-peak';
import { CENTRE } from '../true-peak-centre';
import { threadKernel } from './simd-kernels';
import { TRUE_PEAK_CENTRE_WASM_HEX } from './true-peak-centre.wasm';
import { type KernelExports, WasmKernel } from './wasm-kernel';

interface Exports extends KernelExports {
  centre_blocks(x: number, blocks: number, out: number): void;
}

/** Blocks per call: their samples and results fit the module's two 64 kB pages. */
export const CENTRE_RUN_BLOCKS = 1024;
const OUT_AT = 128;
const SAMPLES_AT = OUT_AT + CENTRE_RUN_BLOCKS * 8;

export class TruePeakCentreKernel extends WasmKernel<Exports> {
  constructor(instance: WebAssembly.Instance) {
    super(instance);
    this.f64.set(CENTRE, 0);
  }

  /**
   * out[at + k] = the centre peak of block b0 + k of `data` (as block-true-peaks.ts centreOfBlock: its 17
   * output points, input index f + TRUE_PEAK_DELAY for output frame f, samples outside the track read as 0),
   * for k < count <= CENTRE_RUN_BLOCKS.
   */
  centreBlocks(data: Float32Array, frames: number, b0: number, count: number, out: Float64Array, at: number) {
    const lo = b0 * LIMITER_BLOCK - 1 + TRUE_PEAK_DELAY - HISTORY;
    const hi = lo + count * LIMITER_BLOCK + HISTORY + 1;
    const f32 = this.f32;
    const base = SAMPLES_AT / 4;
    // A short span is copied in a loop: a subarray per call cost more than its copy (most spans are short).
    if (lo >= 0 && hi <= frames) {
      if (count > 16) f32.set(data.subarray(lo, hi), base);
      else for (let k = lo; k < hi; k++) f32[base + k - lo] = data[k]!;
    } else for (let k = lo; k < hi; k++) f32[base + k - lo] = k >= 0 && k < frames ? data[k]! : 0;
    this.exports.centre_blocks(SAMPLES_AT, count, OUT_AT);
    out.set(this.f64.subarray(OUT_AT / 8, OUT_AT / 8 + count), at);
  }
}

/** This thread's kernel, or null where the SIMD kernels cannot run (or are switched off). */
export const truePeakCentreKernel = threadKernel(
  TRUE_PEAK_CENTRE_WASM_HEX,
  (instance) => new TruePeakCentreKernel(instance),
);
