/**
 * Loader of band-compressor.wat (decision 316): two stereo bands' compressors (Compressor.process in
 * relative mode) in the two lanes of one loop, bit for bit the JavaScript's. At a control point the kernel
 * moves the running mean square on and takes the detector's power itself; the target of a point that may
 * be compressed stays the JavaScript's (Compressor #targetOfPower), called from the loop, and a point under
 * the knee's quiet line gets 1 without a call (decision 322). One instance per thread, compiled
 * synchronously on first use (the module is under 2 kB).
 */
import { BAND_COMPRESSOR_WASM_HEX } from './band-compressor.wasm';
import { threadKernel } from './simd-kernels';
import { type KernelExports, WasmKernel } from './wasm-kernel';

interface Exports extends KernelExports {
  compress(n: number, until: number): void;
  compress3(n: number, until: number): void;
}

/** One band's detector and gain as Compressor holds them, and its samples. */
export interface BandLane {
  attack: number;
  release: number;
  envelope: number;
  gain: number;
  step: number;
  squares: number;
  /** The running mean square and its coefficient per control point (relative mode). */
  meanSquare: number;
  msCoef: number;
  /** The detector power under which a control point's gain is 1 (its target needs no call). */
  quietPower: number;
  /** Every control point calls for its target (a traced gain curve: each point is recorded or replayed). */
  always: boolean;
  left: Float32Array;
  right: Float32Array;
}

/**
 * The target of `lane` at the control point `offset` frames into the call, from its envelope and its power
 * relative to the running mean square (called only where the point may be compressed, or always).
 */
export type BandControl = (lane: 0 | 1 | 2, offset: number, envelope: number, power: number) => number;

/** The layout of band-compressor.wat, in float64 indices (parameters and state) and bytes (samples). */
const STATE = 4;
/** The third band's (compress3): its fields from THIRD, both lanes alike. */
const THIRD = 18;
/**
 * The control points' fields of bands a and b (POINTS) and of band c (THIRD_POINTS), each an f64x2 at
 * these offsets from there: running mean square, coefficient, quiet line, always, handed envelope and
 * power, target.
 */
const POINTS = 36;
const THIRD_POINTS = 50;
const POINT_FIELDS = ['meanSquare', 'msCoef', 'quietPower', 'always'] as const;
const HANDED_ENVELOPE = 8;
const HANDED_POWER = 10;
const TARGET = 12;
const SAMPLES_AT = 1024;
/** Frames per call (the mastering render's block). */
const CHUNK = 4096;
const BUFFER = CHUNK * 4;
const FIELDS = ['attack', 'release', 'envelope', 'gain', 'step', 'squares'] as const;

/** What the import calls: set for the duration of each `compress`. */
let control: (at: number, lanes: number) => void = () => {};

export class BandCompressorKernel extends WasmKernel<Exports> {
  /**
   * Compresses frames [start, end) of `a` (lane 0) and `b` (lane 1, or none) in place, and of `c` too when
   * there are `b` and `c` (compress3: a third band in one loop with the other two); `until`: frames before
   * the first control point. The lanes' state fields are read before and written back after.
   * `keep`: three bands of at most one chunk stay compressed in this module's memory, not written back to
   * the lanes' arrays, for the mastering tail that sums them there next (decision 321); returns whether
   * they did.
   */
  run(
    a: BandLane,
    b: BandLane | null,
    start: number,
    end: number,
    until: number,
    target: BandControl,
    c: BandLane | null = null,
    keep = false,
  ): boolean {
    const f64 = this.f64;
    const f32 = this.f32;
    FIELDS.forEach((field, k) => {
      f64[2 * k] = a[field];
      // An empty lane 1 runs on whatever its buffers hold, from a settled state, and is never read.
      f64[2 * k + 1] = b ? b[field] : field === 'gain' ? 1 : k < STATE / 2 ? a[field] : 0;
      // A third band (with a second): in both lanes of the second vector (compress3).
      if (c) f64[THIRD + 2 * k] = f64[THIRD + 2 * k + 1] = c[field];
    });
    POINT_FIELDS.forEach((field, k) => {
      const value = (lane: BandLane) => (field === 'always' ? (lane.always ? 1 : 0) : lane[field]);
      f64[POINTS + 2 * k] = value(a);
      // The empty lane 1 never calls: its quiet line is out of reach (and its mean square stays positive).
      f64[POINTS + 2 * k + 1] = b
        ? value(b)
        : field === 'quietPower'
          ? Infinity
          : field === 'meanSquare'
            ? 1
            : 0;
      if (c) f64[THIRD_POINTS + 2 * k] = f64[THIRD_POINTS + 2 * k + 1] = value(c);
    });
    let base = 0;
    control = (at, lanes) => {
      const offset = base + at;
      if (lanes & 1)
        f64[POINTS + TARGET] = target(0, offset, f64[POINTS + HANDED_ENVELOPE]!, f64[POINTS + HANDED_POWER]!);
      if (lanes & 2)
        f64[POINTS + TARGET + 1] = target(
          1,
          offset,
          f64[POINTS + HANDED_ENVELOPE + 1]!,
          f64[POINTS + HANDED_POWER + 1]!,
        );
      if (lanes & 4)
        f64[THIRD_POINTS + TARGET] = f64[THIRD_POINTS + TARGET + 1] = target(
          2,
          offset,
          f64[THIRD_POINTS + HANDED_ENVELOPE]!,
          f64[THIRD_POINTS + HANDED_POWER]!,
        );
    };
    const three = b !== null && c !== null;
    const kept = keep && three && end - start <= CHUNK;
    const lanes = b ? [a.left, a.right, b.left, b.right] : [a.left, a.right];
    if (three) lanes.push(c.left, c.right);
    for (let from = start; from < end; from += CHUNK) {
      const to = Math.min(end, from + CHUNK);
      base = from - start;
      lanes.forEach((x, k) => {
        f32.set(x.subarray(from, to), (SAMPLES_AT + k * BUFFER) / 4);
      });
      const first = (until - base + 16 * CHUNK) % 16;
      if (three) this.exports.compress3(to - from, first);
      else this.exports.compress(to - from, first);
      if (!kept)
        lanes.forEach((x, k) => {
          x.set(f32.subarray((SAMPLES_AT + k * BUFFER) / 4, (SAMPLES_AT + k * BUFFER) / 4 + to - from), from);
        });
    }
    control = () => {};
    FIELDS.forEach((field, k) => {
      if (k < STATE / 2) return;
      a[field] = f64[2 * k]!;
      if (b) b[field] = f64[2 * k + 1]!;
      if (three) c[field] = f64[THIRD + 2 * k]!;
    });
    a.meanSquare = f64[POINTS]!;
    if (b) b.meanSquare = f64[POINTS + 1]!;
    if (three) c.meanSquare = f64[THIRD_POINTS]!;
    return kept;
  }
}

/** This thread's kernel, or null where the SIMD kernels cannot run (or are switched off). */
export const bandCompressorKernel = threadKernel(
  BAND_COMPRESSOR_WASM_HEX,
  (instance) => new BandCompressorKernel(instance),
  { js: { control: (at: number, lanes: number) => control(at, lanes) } },
);
