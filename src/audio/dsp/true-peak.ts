/**
 * True peak by 4x oversampling (ITU-R BS.1770-4 Annex 2 method): the maximum absolute value of the
 * oversampled signal and of the samples themselves.
 *
 * The interpolator is not the Annex's 48-tap example table: that filter is 2 dB down at 0.45 fs (20 kHz at
 * 44.1 kHz), so bright masters with content near Nyquist read 0.5 dB under ffmpeg and under a 16x soxr
 * check, and a limiter driven by it overshoots the ceiling (decision 054). The Annex allows any filter that
 * meets its requirements; this one is a Kaiser-windowed sinc, TAPS_PER_PHASE taps per phase, flat to within
 * 0.01 dB up to 0.45 fs. Like the Annex table, the four phases sit at 1/8, 3/8, 5/8 and 7/8 of a sample and
 * phases 2 and 3 are phases 1 and 0 reversed, so with u_k = x_k + x_(M-1-k) and w_k = x_k - x_(M-1-k),
 * p0 + p3, p0 - p3, p1 + p2 and p1 - p2 are M/2-tap sums (2M multiplies per sample for all four phases).
 * Input index n yields the oversampled values between samples n - M/2 and n - M/2 + 1 (the filter's delay).
 */

import { simdKernels } from './wasm/simd-kernels';

/** Taps per phase (M). The kernel below is unrolled for this M: regenerate its literals if it changes. */
export const TRUE_PEAK_TAPS_PER_PHASE = 32;
const M = TRUE_PEAK_TAPS_PER_PHASE;
const HALF = M / 2;
/** Samples of history the interpolator needs before the current one (one more than the taps: see below). */
export const HISTORY = M;
/** Input index n's oversampled values belong between frames n - DELAY and n - DELAY + 1. */
export const TRUE_PEAK_DELAY = HALF;
/** Cutoff as a fraction of the input Nyquist frequency, and the Kaiser window's beta. */
const CUTOFF = 1;
const BETA = 8;

const besselI0 = (x: number): number => {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 60; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
};

/** Phase p, tap k multiplies x[n - k]; each phase is normalised to unity gain at DC. */
const designTaps = (): number[][] => {
  const phases: number[][] = [];
  for (let p = 0; p < 4; p++) {
    const row: number[] = [];
    for (let k = 0; k < M; k++) {
      const d = k - HALF + (2 * p + 1) / 8; // distance of the output point from sample n - k, in samples
      const x = CUTOFF * d;
      const sinc = Math.sin(Math.PI * x) / (Math.PI * x);
      const r = d / (HALF + 0.5);
      row.push(CUTOFF * sinc * (besselI0(BETA * Math.sqrt(1 - r * r)) / besselI0(BETA)));
    }
    const sum = row.reduce((a, b) => a + b, 0);
    phases.push(row.map((v) => v / sum));
  }
  // Phases 2 and 3 mirror 1 and 0 exactly (the folded kernel relies on it).
  phases[2] = [...phases[1]!].reverse();
  phases[3] = [...phases[0]!].reverse();
  return phases;
};

/** The interpolator's taps; rows are phases. */
export const TRUE_PEAK_TAPS: readonly (readonly number[])[] = designTaps();

/**
 * Bound of the detector's output over max|x| of its inputs: the largest sum of |taps| of one phase, times
 * 1/cos(pi/8) for the parabolic refinement (capped there, see vertex()).
 */
export const TRUE_PEAK_TAP_L1 =
  (1 / Math.cos(Math.PI / 8)) *
  Math.max(...TRUE_PEAK_TAPS.map((row) => row.reduce((a, b) => a + Math.abs(b), 0)));

/**
 * Peak of the parabola through three consecutive oversampled values whose middle one is the largest in
 * magnitude: the 4x grid alone can miss 0.5 dB of a peak near 20 kHz (8.8 points per cycle), the vertex
 * recovers it to a few hundredths.
 */
const vertex = (a: number, b: number, c: number): number => {
  const s = b < 0 ? -1 : 1;
  const A = a * s;
  const B = b * s;
  const C = c * s;
  const den = A - 2 * B + C;
  if (den >= 0) return B;
  const v = B - ((C - A) * (C - A)) / (8 * den);
  // A sinusoid up to Nyquist peaks at most 1/cos(pi/8) over its nearest 4x grid point: a larger vertex is the
  // parabola's own error, and the cap keeps the pruning bound (TRUE_PEAK_TAP_L1) tight.
  return v < B * GRID_MISS ? v : B * GRID_MISS;
};
/** How far a peak can sit above its nearest 4x grid point (a sinusoid up to Nyquist): see vertex(). */
export const GRID_MISS = 1 / Math.cos(Math.PI / 8);

/**
 * For input indices i in [from, to) of `x` (x[i - HISTORY] must exist), the largest absolute oversampled
 * value between samples i - DELAY and i - DELAY + 1 (refined between grid points), and |x[i - DELAY]|
 * itself, max-accumulated into out[i - from + at]. Returns the largest value written.
 */
export const interpolatePeaks = (
  x: Float32Array,
  from: number,
  to: number,
  out: Float64Array,
  at: number,
): number => {
  // The same arithmetic in WebAssembly SIMD, two indices per vector (decision 160).
  const kernels = simdKernels();
  if (kernels) return kernels.truePeaks(x, from, to, out, at, GRID_MISS);
  let best = 0;
  // The two previous grid values (the loop starts one input early to know them).
  let y2 = 0;
  let y1 = 0;
  for (let i = from - 1; i < to; i++) {
    // Folded taps of the design above as literals (generated from TRUE_PEAK_TAPS; true-peak.test.ts checks
    // them against the table): a loop over a coefficient array measured 1.3x slower in V8.
    const a0 = x[i]!;
    const c0 = x[i - 31]!;
    const u0 = a0 + c0;
    const w0 = a0 - c0;
    const a1 = x[i - 1]!;
    const c1 = x[i - 30]!;
    const u1 = a1 + c1;
    const w1 = a1 - c1;
    const a2 = x[i - 2]!;
    const c2 = x[i - 29]!;
    const u2 = a2 + c2;
    const w2 = a2 - c2;
    const a3 = x[i - 3]!;
    const c3 = x[i - 28]!;
    const u3 = a3 + c3;
    const w3 = a3 - c3;
    const a4 = x[i - 4]!;
    const c4 = x[i - 27]!;
    const u4 = a4 + c4;
    const w4 = a4 - c4;
    const a5 = x[i - 5]!;
    const c5 = x[i - 26]!;
    const u5 = a5 + c5;
    const w5 = a5 - c5;
    const a6 = x[i - 6]!;
    const c6 = x[i - 25]!;
    const u6 = a6 + c6;
    const w6 = a6 - c6;
    const a7 = x[i - 7]!;
    const c7 = x[i - 24]!;
    const u7 = a7 + c7;
    const w7 = a7 - c7;
    const a8 = x[i - 8]!;
    const c8 = x[i - 23]!;
    const u8 = a8 + c8;
    const w8 = a8 - c8;
    const a9 = x[i - 9]!;
    const c9 = x[i - 22]!;
    const u9 = a9 + c9;
    const w9 = a9 - c9;
    const a10 = x[i - 10]!;
    const c10 = x[i - 21]!;
    const u10 = a10 + c10;
    const w10 = a10 - c10;
    const a11 = x[i - 11]!;
    const c11 = x[i - 20]!;
    const u11 = a11 + c11;
    const w11 = a11 - c11;
    const a12 = x[i - 12]!;
    const c12 = x[i - 19]!;
    const u12 = a12 + c12;
    const w12 = a12 - c12;
    const a13 = x[i - 13]!;
    const c13 = x[i - 18]!;
    const u13 = a13 + c13;
    const w13 = a13 - c13;
    const a14 = x[i - 14]!;
    const c14 = x[i - 17]!;
    const u14 = a14 + c14;
    const w14 = a14 - c14;
    const a15 = x[i - 15]!;
    const c15 = x[i - 16]!;
    const u15 = a15 + c15;
    const w15 = a15 - c15;
    const s03 =
      -0.00015454926911124853 * u0 +
      0.00039311537392327806 * u1 +
      -0.00082545014416084519 * u2 +
      0.0015427565985949828 * u3 +
      -0.0026593492449231131 * u4 +
      0.0043158237171350058 * u5 +
      -0.0066850594866447724 * u6 +
      0.0099848316166267041 * u7 +
      -0.014504707058085251 * u8 +
      0.020664030644336737 * u9 +
      -0.029142016786144954 * u10 +
      0.041195244870748576 * u11 +
      -0.05955396057417485 * u12 +
      0.091654681533809762 * u13 +
      -0.16830829185052262 * u14 +
      1.1120829000585926 * u15;
    const d03 =
      0.000061474694820996801 * w0 +
      -0.00011936380034681309 * w1 +
      0.00020737216638897339 * w2 +
      -0.000333721261085041 * w3 +
      0.00050754461643226891 * w4 +
      -0.00073948975482175162 * w5 +
      0.001043288044082118 * w6 +
      -0.0014392371276448082 * w7 +
      0.0019616488673707515 * w8 +
      -0.002675272396505923 * w9 +
      0.0037145595515628588 * w10 +
      -0.0053904468775742113 * w11 +
      0.008541068153027017 * w12 +
      -0.016072437278478999 * w13 +
      0.04451658635050449 * w14 +
      -0.83656119005125018 * w15;
    const s12 =
      -0.00035490313718886812 * u0 +
      0.00092031179078595467 * u1 +
      -0.0019503899522072842 * u2 +
      0.0036650106710171865 * u3 +
      -0.0063397254658325106 * u4 +
      0.010313145675477899 * u5 +
      -0.016000902396900767 * u6 +
      0.023925030110844951 * u7 +
      -0.034776624192187022 * u8 +
      0.049550450707236599 * u9 +
      -0.069844565319321927 * u10 +
      0.098581163029218433 * u11 +
      -0.14199033099639419 * u12 +
      0.216415629260616 * u13 +
      -0.38292356757212886 * u14 +
      1.2508102677869644 * u15;
    const d12 =
      0.000049094269675082518 * w0 +
      -0.000095557202918804501 * w1 +
      0.00016624636600108273 * w2 +
      -0.00026777662610596347 * w3 +
      0.00040748907702444501 * w4 +
      -0.00059392768990005739 * w5 +
      0.00083808778311819914 * w6 +
      -0.0011561867445959908 * w7 +
      0.001575581822572017 * w8 +
      -0.0021477819670029132 * w9 +
      0.0029794131901634061 * w10 +
      -0.0043158057270924546 * w11 +
      0.0068120580336841763 * w12 +
      -0.01269398218538817 * w13 +
      0.033876473774562738 * w14 +
      -0.31471673423967544 * w15;

    // Phases in time order: p0 = (s03 + d03) / 2, p1 = (s12 + d12) / 2, p2 = (s12 - d12) / 2, p3 = (s03 - d03) / 2.
    const p0 = (s03 + d03) * 0.5;
    const p1 = (s12 + d12) * 0.5;
    const p2 = (s12 - d12) * 0.5;
    const p3 = (s03 - d03) * 0.5;
    const m2 = y2 < 0 ? -y2 : y2;
    const m1 = y1 < 0 ? -y1 : y1;
    const b0 = p0 < 0 ? -p0 : p0;
    const b1 = p1 < 0 ? -p1 : p1;
    const b2 = p2 < 0 ? -p2 : p2;
    const b3 = p3 < 0 ? -p3 : p3;
    let v = b0 > b1 ? b0 : b1;
    if (b2 > v) v = b2;
    if (b3 > v) v = b3;
    // Local maxima of |y| on the grid (the last value of the previous input included): refine.
    if (m1 >= m2 && m1 >= b0) {
      const r = vertex(y2, y1, p0);
      if (r > v) v = r;
    }
    if (b0 >= m1 && b0 >= b1) {
      const r = vertex(y1, p0, p1);
      if (r > v) v = r;
    }
    if (b1 >= b0 && b1 >= b2) {
      const r = vertex(p0, p1, p2);
      if (r > v) v = r;
    }
    if (b2 >= b1 && b2 >= b3) {
      const r = vertex(p1, p2, p3);
      if (r > v) v = r;
    }
    y2 = p2;
    y1 = p3;
    if (i < from) continue;
    const xs = x[i - HALF]!;
    const as = xs < 0 ? -xs : xs;
    if (as > v) v = as;
    const o = i - from + at;
    if (v > out[o]!) out[o] = v;
    if (v > best) best = v;
  }
  return best;
};

const CHUNK = 256;

/**
 * Interpolates `data[start..end)` (with `history` holding the HISTORY samples before `start`, oldest first)
 * and returns the largest absolute value among the samples and their oversampled values. `history` is updated.
 *
 * Chunks whose inputs cannot produce a value above `floor` (by the L1 bound of the taps) are skipped: for a
 * running maximum this saves most of the work once the loudest part has been seen.
 */
export const truePeakOf = (
  data: Float32Array,
  start: number,
  end: number,
  history: Float32Array,
  floor = 0,
  scratch: TruePeakScratch = new TruePeakScratch(),
): number => {
  let peak = floor;
  const buf = scratch.input;
  const out = scratch.output;
  buf.set(history, 0);
  for (let a = start; a < end; a += CHUNK) {
    const n = Math.min(end, a + CHUNK) - a;
    let historyMax = 0;
    for (let k = 0; k < HISTORY; k++) {
      const v = Math.abs(buf[k]!);
      if (v > historyMax) historyMax = v;
    }
    let chunkMax = 0;
    for (let k = 0; k < n; k++) {
      const x = data[a + k]!;
      buf[HISTORY + k] = x;
      const v = x < 0 ? -x : x;
      if (v > chunkMax) chunkMax = v;
    }
    if (chunkMax > peak) peak = chunkMax;
    if (Math.max(chunkMax, historyMax) * TRUE_PEAK_TAP_L1 > peak) {
      out.fill(0, 0, n);
      const best = interpolatePeaks(buf, HISTORY, HISTORY + n, out, 0);
      if (best > peak) peak = best;
    }
    // The last HISTORY inputs become the next chunk's history.
    buf.copyWithin(0, n, n + HISTORY);
  }
  history.set(buf.subarray(0, HISTORY));
  return peak;
};

/** Reusable buffers for truePeakOf. */
export class TruePeakScratch {
  readonly input = new Float32Array(HISTORY + CHUNK);
  readonly output = new Float64Array(CHUNK);
}

/** Running true peak of a multichannel stream (linear and dBTP). */
export class TruePeakMeter {
  #history: Float32Array[];
  #scratch = new TruePeakScratch();
  #peak = 0;

  constructor(channelCount: number) {
    this.#history = Array.from({ length: channelCount }, () => new Float32Array(HISTORY));
  }

  push(channels: readonly Float32Array[], start = 0, end = channels[0]?.length ?? 0): void {
    for (let c = 0; c < this.#history.length; c++) {
      this.#peak = truePeakOf(channels[c]!, start, end, this.#history[c]!, this.#peak, this.#scratch);
    }
  }

  /** Flushes the filter's delay (the last samples' oversampled values) with zeros. */
  finish(): void {
    const zeros = new Float32Array(M);
    for (let c = 0; c < this.#history.length; c++) {
      this.#peak = truePeakOf(zeros, 0, M, this.#history[c]!, this.#peak, this.#scratch);
    }
  }

  get linear(): number {
    return this.#peak;
  }

  get dbtp(): number {
    return linearToDb(this.#peak);
  }
}

export const linearToDb = (value: number): number => (value > 0 ? 20 * Math.log10(value) : -Infinity);
export const dbToLinear = (db: number): number => 10 ** (db / 20);

/** Frames per push of measureTruePeakDb between checkpoints: a few milliseconds of work. */
const CHECKPOINT_FRAMES = 1 << 16;

/**
 * True peak of whole channels, in dBTP. `checkpoint` (a worker's pause point, see workers/pause-gate.ts) is
 * called between blocks; the peak is the same however the channels are cut.
 */
export const measureTruePeakDb = (channels: readonly Float32Array[], checkpoint?: () => void): number => {
  const meter = new TruePeakMeter(channels.length);
  const frames = channels[0]?.length ?? 0;
  if (!checkpoint) meter.push(channels);
  else
    for (let start = 0; start < frames; start += CHECKPOINT_FRAMES) {
      meter.push(channels, start, Math.min(frames, start + CHECKPOINT_FRAMES));
      checkpoint();
    }
  meter.finish();
  return meter.dbtp;
};
