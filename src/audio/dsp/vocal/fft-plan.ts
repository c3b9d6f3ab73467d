/**
 * A radix-2 complex FFT with its bit-reversal and twiddle tables computed once per size: the vocal chain's
 * STFTs (analysis, noise reduction) run tens of thousands of same-size transforms, where band-levels' fft
 * recomputes its twiddles by recursion on every call.
 */
export class FftPlan {
  readonly size: number;
  readonly #rev: Uint32Array;
  readonly #cos: Float64Array;
  readonly #sin: Float64Array;

  constructor(size: number) {
    if (size < 2 || (size & (size - 1)) !== 0) throw new RangeError('FFT size must be a power of two');
    this.size = size;
    this.#rev = new Uint32Array(size);
    const bits = Math.log2(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.#rev[i] = r;
    }
    this.#cos = new Float64Array(size / 2);
    this.#sin = new Float64Array(size / 2);
    for (let k = 0; k < size / 2; k++) {
      this.#cos[k] = Math.cos((-2 * Math.PI * k) / size);
      this.#sin[k] = Math.sin((-2 * Math.PI * k) / size);
    }
  }

  /** In-place forward transform (e^{-i...}), unnormalised. */
  forward(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    const rev = this.#rev;
    for (let i = 0; i < n; i++) {
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
    const cos = this.#cos;
    const sin = this.#sin;
    for (let size = 2; size <= n; size <<= 1) {
      const half = size >> 1;
      const stride = n / size;
      for (let start = 0; start < n; start += size) {
        for (let k = 0, t = 0; k < half; k++, t += stride) {
          const a = start + k;
          const b = a + half;
          const wr = cos[t]!;
          const wi = sin[t]!;
          const xr = re[b]! * wr - im[b]! * wi;
          const xi = re[b]! * wi + im[b]! * wr;
          re[b] = re[a]! - xr;
          im[b] = im[a]! - xi;
          re[a] = re[a]! + xr;
          im[a] = im[a]! + xi;
        }
      }
    }
  }
}
