/**
 * Second-order IIR sections after Robert Bristow-Johnson's "Audio EQ Cookbook", and a cascade that runs
 * several of them in one pass over a Float32Array (one read and one write per sample, state in doubles).
 */

import { simdKernels } from './wasm/simd-kernels';
import type { CascadePart } from './wasm/simd-kernels-abi';

export type BiquadKind =
  | 'highpass'
  | 'lowpass'
  | 'bandpass'
  | 'allpass'
  | 'lowshelf'
  | 'highshelf'
  | 'peaking';

/** Normalised coefficients (a0 = 1): y = b0 x + b1 x1 + b2 x2 - a1 y1 - a2 y2. */
export interface BiquadCoefficients {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

export interface BiquadDesign {
  kind: BiquadKind;
  frequency: number;
  /** Q for high-pass, low-pass, band-pass (0 dB at the centre), all-pass and peaking; shelves use `slope` (S = 1 is the steepest monotonic shelf). */
  q?: number;
  slope?: number;
  gainDb?: number;
}

export const IDENTITY_BIQUAD: BiquadCoefficients = { b0: 1, b1: 0, b2: 0, a1: 0, a2: 0 };

export const designBiquad = (design: BiquadDesign, sampleRate: number): BiquadCoefficients => {
  const { kind, frequency } = design;
  const gainDb = design.gainDb ?? 0;
  const w0 = (2 * Math.PI * Math.min(frequency, sampleRate * 0.499)) / sampleRate;
  const cos = Math.cos(w0);
  const sin = Math.sin(w0);
  const A = 10 ** (gainDb / 40);
  let b0: number;
  let b1: number;
  let b2: number;
  let a0: number;
  let a1: number;
  let a2: number;
  if (kind === 'highpass') {
    const alpha = sin / (2 * (design.q ?? Math.SQRT1_2));
    b0 = (1 + cos) / 2;
    b1 = -(1 + cos);
    b2 = (1 + cos) / 2;
    a0 = 1 + alpha;
    a1 = -2 * cos;
    a2 = 1 - alpha;
  } else if (kind === 'lowpass') {
    const alpha = sin / (2 * (design.q ?? Math.SQRT1_2));
    b0 = (1 - cos) / 2;
    b1 = 1 - cos;
    b2 = (1 - cos) / 2;
    a0 = 1 + alpha;
    a1 = -2 * cos;
    a2 = 1 - alpha;
  } else if (kind === 'bandpass') {
    // Constant 0 dB peak gain: zero phase at the centre, so x - c * bandpass(x) is a cut there.
    const alpha = sin / (2 * (design.q ?? Math.SQRT1_2));
    b0 = alpha;
    b1 = 0;
    b2 = -alpha;
    a0 = 1 + alpha;
    a1 = -2 * cos;
    a2 = 1 - alpha;
  } else if (kind === 'allpass') {
    const alpha = sin / (2 * (design.q ?? Math.SQRT1_2));
    b0 = 1 - alpha;
    b1 = -2 * cos;
    b2 = 1 + alpha;
    a0 = 1 + alpha;
    a1 = -2 * cos;
    a2 = 1 - alpha;
  } else if (kind === 'peaking') {
    const alpha = sin / (2 * (design.q ?? Math.SQRT1_2));
    b0 = 1 + alpha * A;
    b1 = -2 * cos;
    b2 = 1 - alpha * A;
    a0 = 1 + alpha / A;
    a1 = -2 * cos;
    a2 = 1 - alpha / A;
  } else {
    const S = design.slope ?? 1;
    const alpha = (sin / 2) * Math.sqrt((A + 1 / A) * (1 / S - 1) + 2);
    const k = 2 * Math.sqrt(A) * alpha;
    if (kind === 'lowshelf') {
      b0 = A * (A + 1 - (A - 1) * cos + k);
      b1 = 2 * A * (A - 1 - (A + 1) * cos);
      b2 = A * (A + 1 - (A - 1) * cos - k);
      a0 = A + 1 + (A - 1) * cos + k;
      a1 = -2 * (A - 1 + (A + 1) * cos);
      a2 = A + 1 + (A - 1) * cos - k;
    } else {
      b0 = A * (A + 1 + (A - 1) * cos + k);
      b1 = -2 * A * (A - 1 + (A + 1) * cos);
      b2 = A * (A + 1 + (A - 1) * cos - k);
      a0 = A + 1 - (A - 1) * cos + k;
      a1 = 2 * (A - 1 - (A + 1) * cos);
      a2 = A + 1 - (A - 1) * cos - k;
    }
  }
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0 };
};

/** Analytic magnitude response |H(e^jw)| in dB at `frequency`, evaluated from the coefficients. */
export const biquadResponseDb = (c: BiquadCoefficients, frequency: number, sampleRate: number): number => {
  const w = (2 * Math.PI * frequency) / sampleRate;
  const c1 = Math.cos(w);
  const s1 = Math.sin(w);
  const c2 = Math.cos(2 * w);
  const s2 = Math.sin(2 * w);
  // H = (b0 + b1 z^-1 + b2 z^-2) / (1 + a1 z^-1 + a2 z^-2), z^-k = cos(kw) - j sin(kw)
  const nr = c.b0 + c.b1 * c1 + c.b2 * c2;
  const ni = -(c.b1 * s1 + c.b2 * s2);
  const dr = 1 + c.a1 * c1 + c.a2 * c2;
  const di = -(c.a1 * s1 + c.a2 * s2);
  return 10 * Math.log10((nr * nr + ni * ni) / (dr * dr + di * di));
};

/** Below this a filter state is flushed to zero so decaying tails never reach denormal doubles. */
const DENORMAL_FLOOR = 1e-25;
const flush = (v: number): number => (Math.abs(v) < DENORMAL_FLOOR ? 0 : v);

/**
 * A cascade of biquads (transposed direct form II) with independent state per channel. All sections run in
 * one loop per sample, so a four-band EQ costs one read and one write of the buffer.
 */
export class BiquadCascade {
  readonly sections: number;
  readonly channels: number;
  #coefs: Float64Array;
  #state: Float64Array;

  constructor(sections: number, channels: number) {
    this.sections = sections;
    this.channels = channels;
    this.#coefs = new Float64Array(sections * 5);
    this.#state = new Float64Array(sections * channels * 2);
    for (let s = 0; s < sections; s++) this.setSection(s, IDENTITY_BIQUAD);
  }

  setSection(index: number, c: BiquadCoefficients): void {
    const o = index * 5;
    this.#coefs[o] = c.b0;
    this.#coefs[o + 1] = c.b1;
    this.#coefs[o + 2] = c.b2;
    this.#coefs[o + 3] = c.a1;
    this.#coefs[o + 4] = c.a2;
  }

  reset(): void {
    this.#state.fill(0);
  }

  /** The cascade's own coefficient and state arrays, for a kernel outside this file (mastering-tail.ts). */
  static part(c: BiquadCascade): CascadePart {
    return { coefs: c.#coefs, state: c.#state, sections: c.sections };
  }

  /**
   * Filters `data[start..end)` of channel `channel` in place. Each section runs as its own pass with its
   * coefficients and state in locals: on a block that stays in cache this beats one loop over all sections
   * with state in memory.
   */
  process(data: Float32Array, channel: number, start = 0, end = data.length): void {
    const base = channel * this.sections * 2;
    for (let s = 0; s < this.sections; s++) this.#processSection(data, s, base + s * 2, start, end);
  }

  /**
   * Filters a stereo pair in place (channels 0 and 1), section by section with both channels in one loop.
   * The two channels' recursions are independent, so the CPU overlaps them: about twice as fast as one
   * channel at a time, where each sample waits on the previous one. Same arithmetic and results as `process`
   * per channel.
   */
  processStereo(left: Float32Array, right: Float32Array, start = 0, end = left.length): void {
    BiquadCascade.processStereoChain([this], left, right, start, end);
  }

  /**
   * `processStereo` of each cascade in turn over the same block, with the same result. In WebAssembly SIMD
   * (decision 160) they run as one cascade: both channels in one instruction, sections grouped across the
   * cascades' borders, so no section is left alone in a loop.
   */
  static processStereoChain(
    cascades: readonly BiquadCascade[],
    left: Float32Array,
    right: Float32Array,
    start = 0,
    end = left.length,
  ): void {
    const kernels = simdKernels();
    if (kernels)
      kernels.cascade(
        cascades.map((c) => ({ coefs: c.#coefs, state: c.#state, sections: c.sections })),
        left,
        right,
        start,
        end,
      );
    else for (const c of cascades) c.#processStereoJs(left, right, start, end);
  }

  /**
   * `a.process(aData, 0, start, end)` and `b.process(bData, 0, start, end)`: two one-channel cascades of as
   * many sections, with the same results. In WebAssembly SIMD they run side by side, one in each lane (the
   * mono-bass width's side high-pass and low-pass), at about the cost of one.
   */
  static processLanes(
    a: BiquadCascade,
    aData: Float32Array,
    b: BiquadCascade,
    bData: Float32Array,
    start = 0,
    end = aData.length,
  ): void {
    const kernels = simdKernels();
    if (kernels && a.sections === b.sections && a.channels === 1 && b.channels === 1)
      kernels.cascadeLanes(
        { coefs: a.#coefs, state: a.#state, sections: a.sections },
        aData,
        { coefs: b.#coefs, state: b.#state, sections: b.sections },
        bData,
        start,
        end,
      );
    else {
      a.process(aData, 0, start, end);
      b.process(bData, 0, start, end);
    }
  }

  #processStereoJs(left: Float32Array, right: Float32Array, start: number, end: number): void {
    let s = 0;
    for (; s + 1 < this.sections; s += 2) this.#stereoPair(s, left, right, start, end);
    if (s < this.sections) this.#stereoSection(s, left, right, start, end);
  }

  /**
   * Two consecutive sections over both channels in one loop. The first section's output is rounded to
   * float32 (Math.fround) before the second reads it, exactly as if it had been stored in the buffer and read
   * back, so the result is bit for bit that of two separate passes. What changes is the schedule: four
   * independent recursions per sample instead of two, which the CPU overlaps (each recursion waits on its own
   * previous sample), and one read and one write of the buffer instead of two.
   */
  #stereoPair(section: number, left: Float32Array, right: Float32Array, start: number, end: number): void {
    const c = this.#coefs;
    const st = this.#state;
    const o = section * 5;
    const b0 = c[o]!;
    const b1 = c[o + 1]!;
    const b2 = c[o + 2]!;
    const a1 = c[o + 3]!;
    const a2 = c[o + 4]!;
    const d0 = c[o + 5]!;
    const d1 = c[o + 6]!;
    const d2 = c[o + 7]!;
    const e1 = c[o + 8]!;
    const e2 = c[o + 9]!;
    const ls = section * 2;
    const rs = (this.sections + section) * 2;
    let l1 = st[ls]!;
    let l2 = st[ls + 1]!;
    let m1 = st[ls + 2]!;
    let m2 = st[ls + 3]!;
    let r1 = st[rs]!;
    let r2 = st[rs + 1]!;
    let q1 = st[rs + 2]!;
    let q2 = st[rs + 3]!;
    for (let i = start; i < end; i++) {
      const xl = left[i]!;
      const xr = right[i]!;
      const yl = b0 * xl + l1;
      const yr = b0 * xr + r1;
      l1 = b1 * xl - a1 * yl + l2;
      r1 = b1 * xr - a1 * yr + r2;
      l2 = b2 * xl - a2 * yl;
      r2 = b2 * xr - a2 * yr;
      // The first section's state runs on its double output; the second reads it as the buffer held it.
      const fl = Math.fround(yl);
      const fr = Math.fround(yr);
      const zl = d0 * fl + m1;
      const zr = d0 * fr + q1;
      m1 = d1 * fl - e1 * zl + m2;
      q1 = d1 * fr - e1 * zr + q2;
      m2 = d2 * fl - e2 * zl;
      q2 = d2 * fr - e2 * zr;
      left[i] = zl;
      right[i] = zr;
    }
    st[ls] = flush(l1);
    st[ls + 1] = flush(l2);
    st[ls + 2] = flush(m1);
    st[ls + 3] = flush(m2);
    st[rs] = flush(r1);
    st[rs + 1] = flush(r2);
    st[rs + 2] = flush(q1);
    st[rs + 3] = flush(q2);
  }

  /** One section over both channels: coefficients and the two channels' state in locals. */
  #stereoSection(section: number, left: Float32Array, right: Float32Array, start: number, end: number): void {
    const c = this.#coefs;
    const st = this.#state;
    const o = section * 5;
    const b0 = c[o]!;
    const b1 = c[o + 1]!;
    const b2 = c[o + 2]!;
    const a1 = c[o + 3]!;
    const a2 = c[o + 4]!;
    const ls = section * 2;
    const rs = (this.sections + section) * 2;
    let l1 = st[ls]!;
    let l2 = st[ls + 1]!;
    let r1 = st[rs]!;
    let r2 = st[rs + 1]!;
    for (let i = start; i < end; i++) {
      const xl = left[i]!;
      const xr = right[i]!;
      const yl = b0 * xl + l1;
      const yr = b0 * xr + r1;
      l1 = b1 * xl - a1 * yl + l2;
      r1 = b1 * xr - a1 * yr + r2;
      l2 = b2 * xl - a2 * yl;
      r2 = b2 * xr - a2 * yr;
      left[i] = yl;
      right[i] = yr;
    }
    st[ls] = Math.abs(l1) < DENORMAL_FLOOR ? 0 : l1;
    st[ls + 1] = Math.abs(l2) < DENORMAL_FLOOR ? 0 : l2;
    st[rs] = Math.abs(r1) < DENORMAL_FLOOR ? 0 : r1;
    st[rs + 1] = Math.abs(r2) < DENORMAL_FLOOR ? 0 : r2;
  }

  #processSection(data: Float32Array, section: number, state: number, start: number, end: number): void {
    const coefs = this.#coefs;
    const st = this.#state;
    const o = section * 5;
    const b0 = coefs[o]!;
    const b1 = coefs[o + 1]!;
    const b2 = coefs[o + 2]!;
    const a1 = coefs[o + 3]!;
    const a2 = coefs[o + 4]!;
    let s1 = st[state]!;
    let s2 = st[state + 1]!;
    for (let i = start; i < end; i++) {
      const x = data[i]!;
      const y = b0 * x + s1;
      s1 = b1 * x - a1 * y + s2;
      s2 = b2 * x - a2 * y;
      data[i] = y;
    }
    // Flush decaying state before it can become denormal.
    st[state] = Math.abs(s1) < DENORMAL_FLOOR ? 0 : s1;
    st[state + 1] = Math.abs(s2) < DENORMAL_FLOOR ? 0 : s2;
  }
}
