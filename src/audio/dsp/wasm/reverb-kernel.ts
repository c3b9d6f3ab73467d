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

/** Frames per kernel call: the size of each of the five I/O blocks after the rings (a multiple of 16). */
const IO = 8192;
/** Byte offsets of the layout reverb-kernel.wat reads (see its header). */
const LOW_PASS_AT = 32;
const HALVES_AT = 64;
const GAINS_AT = 96;
const LENGTHS_AT = 128;
const STARTS_AT = 160;
const SPACE_STATE_AT = 256;
const SPACE_CONSTANTS_AT = 296;
const SPACE_RING_AT = 376;
const RINGS_AT = 512;

export interface ReverbKernelSetup {
  /** Ring lengths in samples: pre-delay, diffuser 0, diffuser 1, lines 0-3. */
  rings: readonly number[];
  /** Each line's feedback times 0.5 (the JavaScript's `f * 0.5`, the same product). */
  halves: readonly number[];
  keep: number;
  damp: number;
  wet: number;
  /** The space stage's delay line length in samples (two lines), 0 without one. */
  spaceRing?: number;
}

/** vocal-space-fx.ts's constants for its loop after the reverb (see reverb-kernel.wat's header). */
export interface SpaceConstants {
  lpc: number;
  attack: number;
  release: number;
  feedback: number;
  delayWet: number;
  under: number;
  over: number;
  fullGain: number;
  duckDb: number;
  /** duckFullAtDb - 10: the level where the duck starts. */
  from: number;
}

interface Exports {
  memory: WebAssembly.Memory;
  reverb: (mono: number, left: number, right: number, n: number) => void;
  space: (voice: number, wl: number, wr: number, left: number, right: number, n: number) => void;
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
    const spaceRing = setup.spaceRing ?? 0;
    const spaceAt = at;
    at += 2 * spaceRing * 4;
    this.#io = at;
    const bytes = at + 5 * IO * 4;
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
    // Space state: low-passes and envelope at 0, the duck's gain at 1 (none yet).
    f64[SPACE_STATE_AT / 8 + 3] = 1;
    i32.set([0, spaceRing * 4, spaceAt, spaceAt + spaceRing * 4], SPACE_RING_AT / 4);
    this.#f32 = new Float32Array(memory.buffer);
    this.lowPass = new Float64Array(memory.buffer, LOW_PASS_AT, 4);
    this.#spaceState = new Float64Array(memory.buffer, SPACE_STATE_AT, 5);
  }

  readonly #spaceState: Float64Array;

  /** The deepest duck the space stage applied, dB. */
  get maxDuckDb(): number {
    return this.#spaceState[4]!;
  }

  setSpace(c: SpaceConstants): void {
    new Float64Array(this.#exports.memory.buffer, SPACE_CONSTANTS_AT, 10).set([
      c.lpc,
      c.attack,
      c.release,
      c.feedback,
      c.delayWet,
      c.under,
      c.over,
      c.fullGain,
      c.duckDb,
      c.from,
    ]);
  }

  /**
   * VocalSpaceFx's block: the reverb of `voice[s..s+m)` into zeroed returns, then the delay and the ducked
   * returns added to `left`/`right` over the same range. `flush` is the reverb's end-of-call flush of its
   * low-pass states (the JavaScript runs it once per block, so here too).
   */
  spaceBlock(
    voice: Float32Array,
    left: Float32Array,
    right: Float32Array,
    s: number,
    m: number,
    flush: (lowPass: Float64Array) => void,
  ): void {
    const f32 = this.#f32;
    const monoAt = this.#io;
    const wlAt = monoAt + IO * 4;
    const wrAt = wlAt + IO * 4;
    const leftAt = wrAt + IO * 4;
    const rightAt = leftAt + IO * 4;
    for (let off = 0; off < m; off += IO) {
      const n = Math.min(IO, m - off);
      const i = s + off;
      f32.set(voice.subarray(i, i + n), monoAt / 4);
      f32.fill(0, wlAt / 4, wlAt / 4 + n);
      f32.fill(0, wrAt / 4, wrAt / 4 + n);
      this.#exports.reverb(monoAt, wlAt, wrAt, n);
      f32.set(left.subarray(i, i + n), leftAt / 4);
      f32.set(right.subarray(i, i + n), rightAt / 4);
      this.#exports.space(monoAt, wlAt, wrAt, leftAt, rightAt, n);
      left.set(f32.subarray(leftAt / 4, leftAt / 4 + n), i);
      right.set(f32.subarray(rightAt / 4, rightAt / 4 + n), i);
    }
    flush(this.lowPass);
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
    const math = { log10: Math.log10, pow: Math.pow };
    return new ReverbKernel(new WebAssembly.Instance(module, { math }), setup);
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
