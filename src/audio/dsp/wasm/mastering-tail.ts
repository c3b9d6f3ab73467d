/**
 * Loader of mastering-tail.wat (decision 315): MasteringProcessor.back's band sum, shelves and presence peak,
 * and width with mono bass in one pass of WebAssembly SIMD, bit for bit the JavaScript's (the reference it
 * is tested against, and the fallback where the SIMD kernels do not run). One instance per thread,
 * compiled synchronously on first use (the module is about 1.5 kB).
 */
import { bandCompressorKernel } from './band-compressor';
import { MASTERING_TAIL_WASM_HEX } from './mastering-tail.wasm';
import { threadKernel } from './simd-kernels';
import type { CascadePart } from './simd-kernels-abi';
import { type KernelExports, WasmKernel } from './wasm-kernel';

interface Exports extends KernelExports {
  tail(n: number, combine: number, mono: number, rescue: number, flush: number): void;
}

/** The layout of mastering-tail.wat, in bytes (its memory is the band compressor's, decision 321). */
const EQ_AT = 99328;
const EQ_STATE_AT = EQ_AT + 240;
const SIDE_AT = EQ_AT + 336;
const SIDE_STATE_AT = EQ_AT + 496;
const WIDTH_AT = EQ_AT + 560;
const SAMPLES_AT = 1024;
/**
 * Frames per call (the mastering render's block), and so the bytes between two sample buffers: the band
 * compressor's too, whose buffers these are (a kept chunk longer than this one is refused in `run`).
 */
const CHUNK = 4096;
const BUFFER = CHUNK * 4;

/** The width with mono bass: the side's high-pass and low-pass (two sections each) and its settings. */
export interface MonoBassLanes {
  side: CascadePart;
  low: CascadePart;
  rescue: boolean;
  width: number;
}

export class MasteringTail extends WasmKernel<Exports> {
  /**
   * left/right[start..end) in place: [bands' sum (`bands[b][c][0..end-start)`, low mid high)], then the
   * three-section `eq` (BiquadCascade.processStereo), then [MonoBassWidth.process with `mono`]. The parts'
   * state is read before and written back after, settled as the JavaScript settles it.
   * `bandsInMemory`: the band compressor's compress3 has just left these frames' compressed bands in the
   * memory the two modules share (`BandCompressorKernel.run` with `keep`, at most one chunk), so `bands`
   * are not read.
   */
  run(
    eq: CascadePart,
    mono: MonoBassLanes | null,
    bands: readonly (readonly Float32Array[])[] | null,
    left: Float32Array,
    right: Float32Array,
    start: number,
    end: number,
    bandsInMemory = false,
  ): void {
    if (eq.sections !== 3) throw new RangeError('the tail runs three EQ sections');
    if (bandsInMemory && (!bands || end - start > CHUNK))
      throw new RangeError('bands are left in memory for one chunk of a band split only');
    this.#state(eq, mono, true);
    const f32 = this.f32;
    // At least one call, even for an empty range: the JavaScript settles the state at the end of every call.
    let from = start;
    do {
      const to = Math.min(end, from + CHUNK);
      const n = Math.max(0, to - from);
      const sources = bands
        ? [bands[0]![0]!, bands[0]![1]!, bands[1]![0]!, bands[1]![1]!, bands[2]![0]!, bands[2]![1]!]
        : [left, right];
      const offset = bands ? from - start : from;
      if (!bandsInMemory)
        sources.forEach((s, k) => {
          f32.set(s.subarray(offset, offset + n), (SAMPLES_AT + k * BUFFER) / 4);
        });
      this.exports.tail(n, bands ? 1 : 0, mono ? 1 : 0, mono?.rescue ? 1 : 0, to >= end ? 1 : 0);
      left.set(f32.subarray(SAMPLES_AT / 4, SAMPLES_AT / 4 + n), from);
      right.set(f32.subarray((SAMPLES_AT + BUFFER) / 4, (SAMPLES_AT + BUFFER) / 4 + n), from);
      from = to;
    } while (from < end);
    this.#state(eq, mono, false);
  }

  /** Coefficients and state into the module's memory (`into`), or the state back out. */
  #state(eq: CascadePart, mono: MonoBassLanes | null, into: boolean): void {
    const f64 = this.f64;
    for (let s = 0; s < 3; s++) {
      if (into)
        for (let k = 0; k < 5; k++) {
          f64[EQ_AT / 8 + s * 10 + 2 * k] = eq.coefs[s * 5 + k]!;
          f64[EQ_AT / 8 + s * 10 + 2 * k + 1] = eq.coefs[s * 5 + k]!;
        }
      // State per channel: the left's sections, then the right's (BiquadCascade's layout).
      this.#lanes(EQ_STATE_AT / 8 + s * 4, eq.state, s * 2, eq.state, (3 + s) * 2, into);
    }
    if (!mono) return;
    for (let s = 0; s < 2; s++) {
      if (into) {
        for (let k = 0; k < 5; k++) {
          f64[SIDE_AT / 8 + s * 10 + 2 * k] = mono.side.coefs[s * 5 + k]!;
          f64[SIDE_AT / 8 + s * 10 + 2 * k + 1] = mono.low.coefs[s * 5 + k]!;
        }
      }
      this.#lanes(SIDE_STATE_AT / 8 + s * 4, mono.side.state, s * 2, mono.low.state, s * 2, into);
    }
    if (into) {
      f64[WIDTH_AT / 8] = mono.width;
      f64[WIDTH_AT / 8 + 1] = -mono.width;
    }
  }

  /** One section's (s1, s2) of lane 0 (`a` at `ai`) and lane 1 (`b` at `bi`), at f64 index `v`. */
  #lanes(v: number, a: Float64Array, ai: number, b: Float64Array, bi: number, into: boolean): void {
    const f64 = this.f64;
    if (into) {
      f64[v] = a[ai]!;
      f64[v + 1] = b[bi]!;
      f64[v + 2] = a[ai + 1]!;
      f64[v + 3] = b[bi + 1]!;
    } else {
      a[ai] = f64[v]!;
      b[bi] = f64[v + 1]!;
      a[ai + 1] = f64[v + 2]!;
      b[bi + 1] = f64[v + 3]!;
    }
  }
}

/**
 * This thread's kernel, or null where the SIMD kernels cannot run (or are switched off): on the memory of
 * this thread's band compressor, whose compressed bands it sums where they lie.
 */
export const masteringTail = threadKernel(
  MASTERING_TAIL_WASM_HEX,
  (instance) => new MasteringTail(instance),
  () => {
    const band = bandCompressorKernel();
    return band ? { band: { memory: band.memory } } : null;
  },
);
