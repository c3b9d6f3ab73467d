/**
 * The vocal reverb's frame loop (reverb-kernel.wat) for render/mix-reverb.ts: the same samples as its
 * JavaScript loop (mix-reverb.test.ts compares them with tolerance 0), at a fraction of the cost (issue 26:
 * the reverb was the effects stage's largest part). Each reverb gets its own instance, whose memory holds its
 * delay lines and low-pass states between calls; the module is compiled once per thread (about 1.5 kB, under
 * the main thread's limit for synchronous compiles). Where WebAssembly cannot run, `reverbKernel` returns null
 * and the reverb keeps its JavaScript loop.
 */
import { REVERB_KERNEL_WASM_HEX } from './reverb-kernel.wasm';
import { hexBytes, PAGE } from './simd-kernels-abi';

/** Frames per kernel call: the size of each of the three I/O blocks after the rings. */
const IO = 8192;
/** Byte offsets of the layout reverb-kernel.wat reads (see its header). */
const LOW_PASS_AT = 32;
const HALVES_AT = 64;
const GAINS_AT = 96;
const LENGTHS_AT = 128;
const STARTS_AT = 160;
const RINGS_AT = 256;

export interface ReverbKernelSetup {
  /** Ring lengths in samples: pre-delay, diffuser 0, diffuser 1, lines 0-3. */
  rings: readonly number[];
  /** Each line's feedback times 0.5 (the JavaScript's `f * 0.5`, the same product). */
  halves: readonly number[];
  keep: number;
  damp: number;
  wet: number;
}

interface Exports {
  memory: WebAssembly.Memory;
  reverb: (mono: number, left: number, right: number, n: number) => void;
}

export class ReverbKernel {
  readonly #exports: Exports;
  readonly #f32: Float32Array;
  /** The four low-pass states, f64, live in the instance's memory. */
  readonly lowPass: Float64Array;
  readonly #io: number;

  constructor(instance: WebAssembly.Instance, setup: ReverbKernelSetup) {
    this.#exports = instance.exports as unknown as Exports;
    let at = RINGS_AT;
    const starts = setup.rings.map((length) => {
      const start = at;
      at += length * 4;
      return start;
    });
    this.#io = at;
    const bytes = at + 3 * IO * 4;
    const memory = this.#exports.memory;
    const pages = Math.ceil(bytes / PAGE) - memory.buffer.byteLength / PAGE;
    if (pages > 0) memory.grow(pages);
    const i32 = new Int32Array(memory.buffer);
    const f64 = new Float64Array(memory.buffer);
    setup.rings.forEach((length, k) => {
      i32[LENGTHS_AT / 4 + k] = length * 4;
      i32[STARTS_AT / 4 + k] = starts[k]!;
    });
    f64.set(setup.halves, HALVES_AT / 8);
    f64.set([setup.keep, setup.damp, setup.wet], GAINS_AT / 8);
    this.#f32 = new Float32Array(memory.buffer);
    this.lowPass = new Float64Array(memory.buffer, LOW_PASS_AT, 4);
  }

  /** Adds the reverb of `mono[start..end)` into `left`/`right` (in place is allowed: each block is copied in). */
  process(mono: Float32Array, left: Float32Array, right: Float32Array, start: number, end: number): void {
    const f32 = this.#f32;
    const monoAt = this.#io;
    const leftAt = monoAt + IO * 4;
    const rightAt = leftAt + IO * 4;
    for (let i = start; i < end; i += IO) {
      const n = Math.min(IO, end - i);
      f32.set(mono.subarray(i, i + n), monoAt / 4);
      f32.set(left.subarray(i, i + n), leftAt / 4);
      f32.set(right.subarray(i, i + n), rightAt / 4);
      this.#exports.reverb(monoAt, leftAt, rightAt, n);
      left.set(f32.subarray(leftAt / 4, leftAt / 4 + n), i);
      right.set(f32.subarray(rightAt / 4, rightAt / 4 + n), i);
    }
  }
}

let module: WebAssembly.Module | null | undefined;
let enabled = true;

/** A kernel instance for one reverb, or null where WebAssembly cannot run it (or it was switched off). */
export const reverbKernel = (setup: ReverbKernelSetup): ReverbKernel | null => {
  if (!enabled) return null;
  try {
    module ??= new WebAssembly.Module(hexBytes(REVERB_KERNEL_WASM_HEX));
    return new ReverbKernel(new WebAssembly.Instance(module, {}), setup);
  } catch {
    module = null;
    enabled = false;
    return null;
  }
};

/** Off: reverbs made afterwards run their JavaScript loop (the reference the tests compare with). */
export const setReverbKernel = (on: boolean): void => {
  enabled = on;
};
