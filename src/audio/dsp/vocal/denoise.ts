/**
 * Issue 26, cleanup: spectral noise reduction from the noise print the analysis learned in the take's own
 * pauses (decision 180). A short-time Fourier transform (the analysis' FFT size, 50 % overlap, square-root
 * Hann window on both sides, which reconstructs exactly when every gain is 1), and per bin the
 * decision-directed Wiener gain of Ephraim and Malah: the a-priori SNR is mostly the previous frame's clean
 * estimate, so a lone noise peak cannot open the gain for one frame (the tonal "musical noise" of plain
 * spectral subtraction). The gains are then smoothed across neighbouring bins and floored, so the residual
 * stays a quieter copy of the same hiss rather than twinkling tones. Two real frames share one complex FFT
 * (the even/odd trick: the same work as a real FFT of half the size), so the cost is one forward and one inverse
 * complex FFT per two hops, in the FFT's own bit-reversed bin order (decision 270). Between the windows, the
 * transforms, powers, gains and scaling of a pair run in the WebAssembly SIMD kernel where the thread has it
 * (the same operations in the same order: the same samples, decision 291).
 */

import { type DenoiseState, simdKernels } from '../wasm/simd-kernels';
import type { NoisePrint } from './analyse-vocal';
import { FftPlan } from './fft-plan';

export interface DenoiseOptions {
  /** The most any bin is lowered, dB (the gain floor). */
  maxReductionDb: number;
  /** Decision-directed smoothing (0.98 in Ephraim-Malah); closer to 1 is smoother and slower. */
  alpha?: number;
  /** Noise over-estimate, so the hiss's own fluctuations fall under the gain's knee. */
  overSubtraction?: number;
}

const TINY = 1e-20;

/** Expected |X_k|^2 of the noise under the denoiser's window, from the analysis' per-bin RMS levels. */
const noisePowers = (print: NoisePrint): Float64Array => {
  const size = print.fftSize;
  // The print is 2|X|^2 / (sum w^2 * N) per bin; with the square-root Hann window, sum w^2 = N / 2, so the
  // expected |X|^2 of the same noise is p * N^2 / 4.
  return Float64Array.from(print.magnitudesDb, (db) => (10 ** (db / 10) * size * size) / 4);
};

export interface DenoiseReport {
  /** Mean gain over the frames the analysis calls pauses, dB (negative: removed). */
  pauseReductionDb: number;
}

/**
 * Denoise `x` in place over its whole length. `isPause(frame)` says whether the STFT frame centred on sample
 * `frame * hop` is a pause (for the report only). `tick` is awaited every `frames` hops with the fraction done.
 */
export const denoiseInPlace = async (
  x: Float32Array,
  print: NoisePrint,
  options: DenoiseOptions,
  tick: (fraction: number) => Promise<void> = async () => {},
  isPause: (seconds: number) => boolean = () => false,
): Promise<DenoiseReport> => {
  const N = print.fftSize;
  const hop = N / 2;
  const bins = N / 2 + 1;
  const sr = print.sampleRate;
  const lambda = noisePowers(print);
  const over = options.overSubtraction ?? 1.4;
  for (let k = 0; k < bins; k++) lambda[k]! *= over;
  const alpha = options.alpha ?? 0.98;
  const floor = 10 ** (-Math.max(0, options.maxReductionDb) / 20);
  const win = new Float64Array(N);
  for (let i = 0; i < N; i++) win[i] = Math.sqrt(0.5 - 0.5 * Math.cos((2 * Math.PI * i) / N));
  // The synthesis window with the inverse FFT's 1 / N folded in.
  const winOut = Float64Array.from(win, (w) => w / N);
  const invLambda = Float64Array.from(lambda, (l) => 1 / (l + TINY));
  const n = x.length;
  // Frame f covers [f * hop - hop, f * hop + hop): frames from -1 so the first samples get full overlap.
  const first = -1;
  const last = Math.ceil(n / hop);
  const plan = new FftPlan(N);
  const rev = plan.rev;
  const re = new Float64Array(N);
  const im = new Float64Array(N);
  const prevClean = new Float64Array(bins); // |S|^2 estimate of the previous frame
  const g0 = new Float64Array(bins);
  const g1 = new Float64Array(bins);
  const p0 = new Float64Array(bins);
  const p1 = new Float64Array(bins);
  // Overlap-add of one pair of frames: [a0, a0 + 4 hop). After a pair, its first two hops are final (the
  // next pair starts there and reads x from there on), so they go straight back into x.
  const acc = new Float64Array(2 * N);
  const wasm = N >= 16 ? simdKernels() : null;
  const state: DenoiseState | null = wasm && {
    table: plan.laneTwiddles(),
    rev,
    lambda,
    invLambda,
    prevClean,
    g0,
    g1,
  };
  let pauseGain = 0;
  let pauseBins = 0;
  const total = last - first + 1;
  let done = 0;

  const gainsFor = (p: Float64Array, g: Float64Array) => {
    for (let k = 0; k < bins; k++) {
      const pk = p[k]!;
      const l = lambda[k]!;
      const xi = (alpha * prevClean[k]! + (1 - alpha) * (pk > l ? pk - l : 0)) * invLambda[k]!;
      g[k] = xi / (1 + xi);
    }
    // Across bins: [1 2 1] / 4 of the raw gains (the previous raw one kept in a local, as g is written over),
    // so one bin cannot open alone; then the floor.
    let before = g[0]!;
    for (let k = 0; k < bins; k++) {
      const here = g[k]!;
      const s = k === 0 || k === bins - 1 ? here : 0.25 * before + 0.5 * here + 0.25 * g[k + 1]!;
      before = here;
      const v = s > floor ? s : floor;
      g[k] = v;
      prevClean[k] = v * v * p[k]!;
    }
  };
  const notePause = (g: Float64Array) => {
    let s = 0;
    for (let k = 0; k < bins; k++) s += g[k]! * g[k]!;
    pauseGain += s / bins;
    pauseBins++;
  };

  for (let f = first; f <= last; f += 2) {
    // Two frames f and f + 1 as the real and imaginary parts of one FFT.
    const a0 = f * hop - hop;
    const a1 = a0 + hop;
    if (a0 >= 0 && a1 + N <= n)
      for (let i = 0; i < N; i++) {
        re[i] = x[a0 + i]! * win[i]!;
        im[i] = x[a1 + i]! * win[i]!;
      }
    else
      for (let i = 0; i < N; i++) {
        const j0 = a0 + i;
        const j1 = a1 + i;
        re[i] = j0 >= 0 && j0 < n ? x[j0]! * win[i]! : 0;
        im[i] = j1 >= 0 && j1 < n ? x[j1]! * win[i]! : 0;
      }
    if (wasm && state) wasm.denoiseBins(state, re, im, alpha, floor);
    else {
      // Bins stay where the scrambled transform leaves them (bin k at rev[k]); the inverse takes them so.
      plan.forwardScrambled(re, im);
      // Split: X0[k] = (Z[k] + conj Z[N-k]) / 2, X1[k] = (Z[k] - conj Z[N-k]) / 2i.
      for (let k = 0; k < bins; k++) {
        const i = rev[k]!;
        const m = rev[(N - k) & (N - 1)]!;
        const zr = re[i]!;
        const zi = im[i]!;
        const cr = re[m]!;
        const ci = -im[m]!;
        const x0r = 0.5 * (zr + cr);
        const x0i = 0.5 * (zi + ci);
        const x1r = 0.5 * (zi - ci);
        const x1i = -0.5 * (zr - cr);
        p0[k] = x0r * x0r + x0i * x0i;
        p1[k] = x1r * x1r + x1i * x1i;
      }
      gainsFor(p0, g0);
      gainsFor(p1, g1);
      // Y = G0 X0 + i G1 X1 is Z with each half scaled: Y[k] = G0[k] X0[k] + i G1[k] X1[k] (G symmetric, real).
      for (let k = 0; k < bins; k++) {
        const i = rev[k]!;
        const m = rev[(N - k) & (N - 1)]!;
        const zr = re[i]!;
        const zi = im[i]!;
        const cr = re[m]!;
        const ci = -im[m]!;
        const x0r = 0.5 * (zr + cr);
        const x0i = 0.5 * (zi + ci);
        const x1r = 0.5 * (zi - ci);
        const x1i = -0.5 * (zr - cr);
        const a = g0[k]!;
        const b = g1[k]!;
        // G0 X0 + i G1 X1; bin N-k holds conj(X0) G0 + i G1 conj(X1).
        re[i] = a * x0r - b * x1i;
        im[i] = a * x0i + b * x1r;
        if (m !== i) {
          re[m] = a * x0r + b * x1i;
          im[m] = -a * x0i + b * x1r;
        }
      }
      plan.inverseScrambled(re, im);
    }
    if (isPause((f * hop) / sr)) notePause(g0);
    if (isPause(((f + 1) * hop) / sr)) notePause(g1);
    for (let i = 0; i < N; i++) {
      acc[i]! += re[i]! * winOut[i]!;
      acc[hop + i]! += im[i]! * winOut[i]!;
    }
    const from = Math.max(0, a0);
    const to = Math.min(n, a0 + N);
    for (let j = from; j < to; j++) x[j] = acc[j - a0]!;
    acc.copyWithin(0, N, N + hop);
    acc.fill(0, hop);
    done += 2;
    if (done % 256 === 0) await tick(Math.min(1, done / total));
  }
  await tick(1);
  return { pauseReductionDb: pauseBins ? 10 * Math.log10(pauseGain / pauseBins + TINY) : 0 };
};
