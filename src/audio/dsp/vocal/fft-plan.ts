/**
 * A complex FFT with its tables computed once per size: the vocal chain's STFTs (analysis, noise reduction)
 * run tens of thousands of same-size transforms (decision 270).
 *
 * The work is radix-4 passes (two radix-2 stages fused: 3 complex multiplies and one read and write of the
 * array per four points, where two radix-2 stages make 4 and two), plus one radix-2 pass when log2(size) is
 * odd; each pass reads its twiddles from its own contiguous table. The forward transform is decimation in
 * frequency, so its output comes out in bit-reversed order; the inverse is decimation in time, so it takes
 * that order in and gives natural order out. An STFT that only scales bins (the noise reduction) therefore
 * never reorders: it reads bin k at `rev[k]`. `forward` adds the reordering for callers that want bins in
 * order.
 *
 * Both transforms run in the WebAssembly SIMD kernel (simd-kernels.wat's `fft`, the same operations in the
 * same order, so the same bits) where the thread has it, and in the JavaScript below otherwise.
 */
import { simdKernels } from '../wasm/simd-kernels';

/** Below this size the kernel's span-4 and radix-2 steps (8 and 4 points at a time) do not fit. */
const KERNEL_MIN_SIZE = 16;

export class FftPlan {
  readonly size: number;
  /** Position of bin k in the output of `forwardScrambled` (bit reversal of k). */
  readonly rev: Uint32Array;
  /** Per radix-4 pass (largest span first): cos/sin of w^k, w^2k, w^3k for k < span / 4, interleaved. */
  readonly #twiddles: Float64Array[];
  /** Spans of the radix-4 passes, largest first (the forward order). */
  readonly #spans: number[];
  /** log2(size) is odd: one radix-2 pass of span 2 after (forward) or before (inverse) the radix-4 passes. */
  readonly #radix2: boolean;
  /** The twiddles in the kernel's layout (simd-kernels.wat, `fft`), made on first use. */
  #laneTwiddles: Float64Array | null = null;

  constructor(size: number) {
    if (size < 2 || (size & (size - 1)) !== 0) throw new RangeError('FFT size must be a power of two');
    this.size = size;
    const bits = Math.round(Math.log2(size));
    this.rev = new Uint32Array(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
    this.#radix2 = bits % 2 === 1;
    this.#spans = [];
    this.#twiddles = [];
    for (let span = size; span >= 4; span >>= 2) {
      const q = span >> 2;
      const t = new Float64Array(6 * q);
      for (let k = 0; k < q; k++) {
        for (let m = 1; m <= 3; m++) {
          const angle = (-2 * Math.PI * m * k) / span;
          t[6 * k + 2 * (m - 1)] = Math.cos(angle);
          t[6 * k + 2 * (m - 1) + 1] = Math.sin(angle);
        }
      }
      this.#spans.push(span);
      this.#twiddles.push(t);
    }
  }

  /** In-place forward transform (e^{-i...}), unnormalised, bins in natural order. */
  forward(re: Float64Array, im: Float64Array): void {
    this.forwardScrambled(re, im);
    const rev = this.rev;
    for (let i = 0; i < this.size; i++) {
      const j = rev[i]!;
      if (i < j) {
        const tr = re[i]!;
        re[i] = re[j]!;
        re[j] = tr;
        const ti = im[i]!;
        im[i] = im[j]!;
        im[j] = ti;
      }
    }
  }

  /**
   * The kernel's table: per radix-4 pass in forward order, for spans >= 8 and each pair of k, w1r w1i w2r w2i
   * w3r w3i as (k, k + 1) lane pairs; for span 4 (k = 0 only), each value twice.
   */
  laneTwiddles(): Float64Array {
    if (this.#laneTwiddles) return this.#laneTwiddles;
    const out: number[] = [];
    this.#spans.forEach((span, p) => {
      const t = this.#twiddles[p]!;
      const q = span >> 2;
      for (let k = 0; k < q; k += 2)
        for (let j = 0; j < 6; j++) out.push(t[6 * k + j]!, t[6 * Math.min(k + 1, q - 1) + j]!);
    });
    this.#laneTwiddles = Float64Array.from(out);
    return this.#laneTwiddles;
  }

  /** In-place forward transform (e^{-i...}), unnormalised; bin k is left at `rev[k]`. */
  forwardScrambled(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    const kernels = n >= KERNEL_MIN_SIZE ? simdKernels() : null;
    if (kernels) {
      kernels.fft(this.laneTwiddles(), re, im, n, false);
      return;
    }
    for (let p = 0; p < this.#spans.length; p++) {
      const span = this.#spans[p]!;
      const q = span >> 2;
      const t = this.#twiddles[p]!;
      for (let k = 0; k < q; k++) {
        const w1r = t[6 * k]!;
        const w1i = t[6 * k + 1]!;
        const w2r = t[6 * k + 2]!;
        const w2i = t[6 * k + 3]!;
        const w3r = t[6 * k + 4]!;
        const w3i = t[6 * k + 5]!;
        for (let a = k; a < n; a += span) {
          const b = a + q;
          const c = b + q;
          const d = c + q;
          const ar = re[a]!;
          const ai = im[a]!;
          const br = re[b]!;
          const bi = im[b]!;
          const cr = re[c]!;
          const ci = im[c]!;
          const dr = re[d]!;
          const di = im[d]!;
          // Sums and differences of the two radix-2 halves; -i (b - d) is (bi - di, -(br - dr)).
          const s0r = ar + cr;
          const s0i = ai + ci;
          const s1r = br + dr;
          const s1i = bi + di;
          const d0r = ar - cr;
          const d0i = ai - ci;
          const d1r = bi - di;
          const d1i = dr - br;
          re[a] = s0r + s1r;
          im[a] = s0i + s1i;
          // Bit-reversed placement: b holds the w^2k term, c the w^k term, d the w^3k term.
          const xr = s0r - s1r;
          const xi = s0i - s1i;
          re[b] = xr * w2r - xi * w2i;
          im[b] = xr * w2i + xi * w2r;
          const yr = d0r + d1r;
          const yi = d0i + d1i;
          re[c] = yr * w1r - yi * w1i;
          im[c] = yr * w1i + yi * w1r;
          const zr = d0r - d1r;
          const zi = d0i - d1i;
          re[d] = zr * w3r - zi * w3i;
          im[d] = zr * w3i + zi * w3r;
        }
      }
    }
    if (this.#radix2)
      for (let a = 0; a < n; a += 2) {
        const ar = re[a]!;
        const ai = im[a]!;
        const br = re[a + 1]!;
        const bi = im[a + 1]!;
        re[a] = ar + br;
        im[a] = ai + bi;
        re[a + 1] = ar - br;
        im[a + 1] = ai - bi;
      }
  }

  /**
   * In-place inverse transform (e^{+i...}), unnormalised (the result is `size` times the signal), of bins
   * laid out as `forwardScrambled` leaves them; the output is in natural order.
   */
  inverseScrambled(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    const kernels = n >= KERNEL_MIN_SIZE ? simdKernels() : null;
    if (kernels) {
      kernels.fft(this.laneTwiddles(), re, im, n, true);
      return;
    }
    if (this.#radix2)
      for (let a = 0; a < n; a += 2) {
        const ar = re[a]!;
        const ai = im[a]!;
        const br = re[a + 1]!;
        const bi = im[a + 1]!;
        re[a] = ar + br;
        im[a] = ai + bi;
        re[a + 1] = ar - br;
        im[a + 1] = ai - bi;
      }
    for (let p = this.#spans.length - 1; p >= 0; p--) {
      const span = this.#spans[p]!;
      const q = span >> 2;
      const t = this.#twiddles[p]!;
      for (let k = 0; k < q; k++) {
        // Conjugate twiddles: the forward pass run backwards.
        const w1r = t[6 * k]!;
        const w1i = -t[6 * k + 1]!;
        const w2r = t[6 * k + 2]!;
        const w2i = -t[6 * k + 3]!;
        const w3r = t[6 * k + 4]!;
        const w3i = -t[6 * k + 5]!;
        for (let a = k; a < n; a += span) {
          const b = a + q;
          const c = b + q;
          const d = c + q;
          const ar = re[a]!;
          const ai = im[a]!;
          const xr0 = re[b]!;
          const xi0 = im[b]!;
          const yr0 = re[c]!;
          const yi0 = im[c]!;
          const zr0 = re[d]!;
          const zi0 = im[d]!;
          // B = w^2k b, C = w^k c, D = w^3k d (b, c, d as the forward pass placed them).
          const Br = xr0 * w2r - xi0 * w2i;
          const Bi = xr0 * w2i + xi0 * w2r;
          const Cr = yr0 * w1r - yi0 * w1i;
          const Ci = yr0 * w1i + yi0 * w1r;
          const Dr = zr0 * w3r - zi0 * w3i;
          const Di = zr0 * w3i + zi0 * w3r;
          const s0r = ar + Br;
          const s0i = ai + Bi;
          const d0r = ar - Br;
          const d0i = ai - Bi;
          const s1r = Cr + Dr;
          const s1i = Ci + Di;
          // i (C - D)
          const e1r = Di - Ci;
          const e1i = Cr - Dr;
          re[a] = s0r + s1r;
          im[a] = s0i + s1i;
          re[c] = s0r - s1r;
          im[c] = s0i - s1i;
          re[b] = d0r + e1r;
          im[b] = d0i + e1i;
          re[d] = d0r - e1r;
          im[d] = d0i - e1i;
        }
      }
    }
  }
}
