/**
 * Loader of dynamic-band.wat (decision 313): DynamicBand's band-pass and envelope over a span, the same
 * values as its JavaScript loop. One instance per thread, compiled synchronously on first use (the module
 * is under 1 kB). It runs where the SIMD kernels run (`simdKernels()`, which also carries their on/off
 * switch for tests and benches).
 */
import { DYNAMIC_BAND_WASM_HEX } from './dynamic-band.wasm';
import { threadKernel } from './simd-kernels';
import { type KernelExports, WasmKernel } from './wasm-kernel';

interface Exports extends KernelExports {
  band_envelope(c: number, st: number, p: number, n: number, out: number, envOut: number): void;
  ramp(p: number, band: number, gains: number, n: number): void;
}

/** Frames per call, a whole number of control blocks; all of it fits the module's two 64 kB pages. */
export const DYNAMIC_BAND_CHUNK = 8192;
const STATE_AT = 64;
const ENV_AT = 128;
const SAMPLES_AT = ENV_AT + (DYNAMIC_BAND_CHUNK / 16) * 8;
const BAND_AT = SAMPLES_AT + DYNAMIC_BAND_CHUNK * 4;
const GAINS_AT = BAND_AT + DYNAMIC_BAND_CHUNK * 4;

export class DynamicBandKernel extends WasmKernel<Exports> {
  /** After `run`: the band of the span's samples, from index 0. */
  readonly band: Float32Array;
  /** After `run`: the envelope after each of the span's control blocks. */
  readonly envelope: Float64Array;
  /** For `ramp`: the gain before the span, then after each of its control blocks. */
  readonly gains: Float64Array;
  #from = 0;
  #to = 0;

  constructor(instance: WebAssembly.Instance) {
    super(instance);
    const buffer = this.exports.memory.buffer;
    this.band = new Float32Array(buffer, BAND_AT, DYNAMIC_BAND_CHUNK);
    this.envelope = new Float64Array(buffer, ENV_AT, DYNAMIC_BAND_CHUNK / 16);
    this.gains = new Float64Array(buffer, GAINS_AT, DYNAMIC_BAND_CHUNK / 16 + 1);
  }

  /**
   * Filters x[from..to) (at most DYNAMIC_BAND_CHUNK frames) with `coefficients` (b0 b1 b2 a1 a2, release,
   * attack) from `state` (x1 x2 y1 y2 env, written back).
   */
  run(coefficients: Float64Array, state: Float64Array, x: Float32Array, from: number, to: number): void {
    this.f64.set(coefficients);
    this.f64.set(state, STATE_AT / 8);
    this.f32.set(x.subarray(from, to), SAMPLES_AT / 4);
    this.exports.band_envelope(0, STATE_AT, SAMPLES_AT, to - from, BAND_AT, ENV_AT);
    state.set(this.f64.subarray(STATE_AT / 8, STATE_AT / 8 + 5));
    this.#from = from;
    this.#to = to;
  }

  /** After `run` and `gains` set: the span's gain ramps, written into x[from..to). */
  ramp(x: Float32Array): void {
    const n = this.#to - this.#from;
    this.exports.ramp(SAMPLES_AT, BAND_AT, GAINS_AT, n);
    x.set(this.f32.subarray(SAMPLES_AT / 4, SAMPLES_AT / 4 + n), this.#from);
  }
}

/** This thread's kernel, or null where the SIMD kernels cannot run (or are switched off). */
export const dynamicBandKernel = threadKernel(
  DYNAMIC_BAND_WASM_HEX,
  (instance) => new DynamicBandKernel(instance),
);
