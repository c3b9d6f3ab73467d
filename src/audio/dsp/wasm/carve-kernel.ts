/**
 * The vocal-space carve's per-frame work in WebAssembly SIMD (carve-kernel.wat, decision 311): the band
 * filters, envelopes, gain ramps and cut of VocalSpaceProcessor.process in one pass over the frames, bit for
 * bit the JavaScript's samples. The control points (log10 and pow per band) stay in the processor's
 * JavaScript, called between the kernel's segments. One instance per thread, compiled synchronously on first
 * use (about 2 kB), only where simd-kernels.ts's module runs (so `setWasmKernels(false)` turns it off too).
 */

import type { BiquadCoefficients } from '../biquad';
import { CARVE_KERNEL_WASM_HEX } from './carve-kernel.wasm';
import { threadKernel } from './simd-kernels';
import { type KernelExports, WasmKernel } from './wasm-kernel';

interface Exports extends KernelExports {
  carve(
    l: number,
    r: number,
    v: number,
    n: number,
    phase: number,
    touched: number,
    detect: number,
    share: number,
  ): void;
}

/** Frames between control points (vocal-space-bands.ts's CONTROL; the kernel's ramp assumes 32). */
const CONTROL = 32;
/** Doubles of the control values (envelopes, gains), the coefficients and the filter state (the .wat's map). */
const COEFS_AT = 16;
export const CARVE_COEFS = 48;
const STATE_AT = 64;
export const CARVE_STATE = 24;
const FRAMES_AT = 1024;
/** Frames copied into the module's memory per pass; a longer block goes in chunks. */
const CHUNK = 8192;
const DENORMAL_FLOOR = 1e-25;

/** What one processor hands the kernel: its own arrays (read and written in place) and its control point. */
export interface CarveJob {
  /** The kernel's coefficients image (carveCoefficients). */
  coefs: Float64Array;
  /** The six filters' state in the kernel's layout (CARVE_STATE doubles). */
  state: Float64Array;
  vocalEnv: Float64Array;
  beatEnv: Float64Array;
  from: Float64Array;
  to: Float64Array;
  detect: number;
  share: number;
  /** The processor's control point: reads the envelopes, sets `from` and `to`. */
  control: () => void;
}

/**
 * The coefficients image of the beat's four band filters (both lanes alike) and the vocal's (two bands a
 * vector). Null unless every band is a band-pass with b1 exactly 0 and b2 exactly -b0, as designBiquad's
 * are: the kernel leaves out b1 x (a zero, which changes no sample) and takes b2 x as -(b0 x), the same
 * double.
 */
export const carveCoefficients = (designs: readonly BiquadCoefficients[]): Float64Array | null => {
  if (designs.length !== 4 || designs.some((d) => d.b1 !== 0 || d.b2 !== -d.b0)) return null;
  const image = new Float64Array(CARVE_COEFS);
  const put = (filter: number, lane: number, d: BiquadCoefficients) => {
    [d.b0, d.b2, d.a1, d.a2].forEach((v, k) => {
      image[filter * 8 + 2 * k + lane] = v;
    });
  };
  designs.forEach((d, k) => {
    put(k, 0, d);
    put(k, 1, d);
    put(4 + (k >> 1), k & 1, d);
  });
  return image;
};

export class CarveKernel extends WasmKernel<Exports> {
  constructor(instance: WebAssembly.Instance) {
    super(instance, FRAMES_AT + 3 * CHUNK * 4);
  }

  /**
   * VocalSpaceProcessor.process's work on `left`/`right[start..end)` (right null: a one-channel beat, read
   * as both sides) with the vocal's mono sum `mono[0..end-start)`; `frame` is the absolute frame of `start`.
   * Carves the beat in place and returns whether any gain was off 1 (else no sample was written).
   */
  process(
    job: CarveJob,
    left: Float32Array,
    right: Float32Array | null,
    mono: Float32Array,
    start: number,
    end: number,
    frame: number,
  ): boolean {
    const f64 = this.f64;
    const f32 = this.f32;
    const { vocalEnv, beatEnv, from, to } = job;
    f64.set(job.coefs, COEFS_AT);
    f64.set(job.state, STATE_AT);
    for (let k = 0; k < 4; k++) {
      f64[k] = vocalEnv[k]!;
      f64[4 + k] = beatEnv[k]!;
      f64[8 + k] = from[k]!;
      f64[12 + k] = to[k]!;
    }
    const lAt = FRAMES_AT;
    const rAt = right ? lAt + CHUNK * 4 : lAt;
    const vAt = lAt + 2 * CHUNK * 4;
    let touched = false;
    for (let at = start; at < end; at += CHUNK) {
      const m = Math.min(CHUNK, end - at);
      f32.set(left.subarray(at, at + m), lAt / 4);
      if (right) f32.set(right.subarray(at, at + m), rAt / 4);
      f32.set(mono.subarray(at - start, at - start + m), vAt / 4);
      let chunkTouched = false;
      for (let i = 0; i < m; ) {
        const phase = frame % CONTROL;
        if (phase === 0) {
          for (let k = 0; k < 4; k++) {
            vocalEnv[k] = f64[k]!;
            beatEnv[k] = f64[4 + k]!;
          }
          job.control();
          for (let k = 0; k < 4; k++) {
            f64[8 + k] = from[k]!;
            f64[12 + k] = to[k]!;
          }
        }
        const len = Math.min(m - i, CONTROL - phase);
        const segmentTouched = !(
          from[0] === 1 &&
          to[0] === 1 &&
          from[1] === 1 &&
          to[1] === 1 &&
          from[2] === 1 &&
          to[2] === 1 &&
          from[3] === 1 &&
          to[3] === 1
        );
        if (segmentTouched) chunkTouched = true;
        this.exports.carve(
          lAt + 4 * i,
          rAt + 4 * i,
          vAt + 4 * i,
          len,
          phase,
          segmentTouched ? 1 : 0,
          job.detect,
          job.share,
        );
        frame += len;
        i += len;
      }
      if (chunkTouched) {
        left.set(f32.subarray(lAt / 4, lAt / 4 + m), at);
        if (right) right.set(f32.subarray(rAt / 4, rAt / 4 + m), at);
        touched = true;
      }
    }
    for (let k = 0; k < 4; k++) {
      vocalEnv[k] = f64[k]!;
      beatEnv[k] = f64[4 + k]!;
    }
    // The state as the JavaScript's filters leave it after each call: decaying values under 1e-25 are 0.
    for (let k = 0; k < CARVE_STATE; k++) {
      const v = f64[STATE_AT + k]!;
      job.state[k] = Math.abs(v) < DENORMAL_FLOOR ? 0 : v;
    }
    return touched;
  }
}

/** This thread's carve kernel, or null where the SIMD kernels cannot run (or were switched off). */
export const carveKernel = threadKernel(CARVE_KERNEL_WASM_HEX, (instance) => new CarveKernel(instance));
