/**
 * Matchering's published frequency-matching method, re-implemented as the baseline for reference
 * mastering (issue 16; matchering/stages.py and dsp.py, defaults of its Config): mid and side separately;
 * the average magnitude spectrum of each (4096-point boxcar STFT frames without overlap); the ratio
 * reference / target (target floored at 1e-6); LOWESS smoothing over the bins (frac 0.0375, no
 * robustness iterations); a FIR from the inverse real FFT, centred (ifftshift) and Hann-windowed;
 * "same"-mode convolution. Simplified: the whole signals instead of the loudest pieces, no level stage.
 * Test-only: not part of the engine.
 */
import { fft } from './band-levels';

const FFT_SIZE = 4096;
const LOWESS_FRAC = 0.0375;
const MIN_VALUE = 1e-6;

const averageMagnitude = (x: Float32Array): Float64Array => {
  const half = FFT_SIZE / 2;
  const sum = new Float64Array(half + 1);
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  let frames = 0;
  for (let start = 0; start + FFT_SIZE <= x.length; start += FFT_SIZE) {
    for (let i = 0; i < FFT_SIZE; i++) {
      re[i] = x[start + i]!;
      im[i] = 0;
    }
    fft(re, im);
    for (let k = 0; k <= half; k++) sum[k] = sum[k]! + Math.hypot(re[k]!, im[k]!);
    frames++;
  }
  return sum.map((v) => v / Math.max(1, frames));
};

/** LOWESS with tricube weights and a local linear fit at every x = 0..n-1 (statsmodels, it = 0). */
export const lowess = (y: Float64Array, frac: number): Float64Array => {
  const n = y.length;
  const k = Math.max(2, Math.ceil(frac * n));
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let lo = Math.max(0, Math.min(i - Math.floor(k / 2), n - k));
    while (lo > 0 && i - (lo - 1) < lo + k - 1 - i) lo--;
    while (lo + k < n && lo + k - i < i - lo) lo++;
    const hi = lo + k - 1;
    const dmax = Math.max(i - lo, hi - i) * 1.000001 || 1;
    let sw = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let sxy = 0;
    for (let j = lo; j <= hi; j++) {
      const d = Math.abs(j - i) / dmax;
      const w = (1 - d * d * d) ** 3;
      sw += w;
      sx += w * j;
      sy += w * y[j]!;
      sxx += w * j * j;
      sxy += w * j * y[j]!;
    }
    const mx = sx / sw;
    const my = sy / sw;
    const varx = sxx / sw - mx * mx;
    const slope = varx > 0 ? (sxy / sw - mx * my) / varx : 0;
    out[i] = my + slope * (i - mx);
  }
  return out;
};

const firFor = (target: Float32Array, reference: Float32Array): Float64Array => {
  const t = averageMagnitude(target);
  const r = averageMagnitude(reference);
  const ratio = r.map((v, k) => v / Math.max(MIN_VALUE, t[k]!));
  const smooth = lowess(ratio, LOWESS_FRAC);
  // irfft of a real, zero-phase spectrum: a symmetric impulse response centred at 0.
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  for (let k = 0; k <= FFT_SIZE / 2; k++) {
    re[k] = smooth[k]!;
    if (k > 0 && k < FFT_SIZE / 2) re[FFT_SIZE - k] = smooth[k]!;
  }
  fft(re, im);
  const fir = new Float64Array(FFT_SIZE);
  for (let i = 0; i < FFT_SIZE; i++) {
    // ifftshift, then a Hann window (scipy's symmetric window of length N).
    const v = re[(i + FFT_SIZE / 2) % FFT_SIZE]! / FFT_SIZE;
    fir[i] = v * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (FFT_SIZE - 1)));
  }
  return fir;
};

/** "same"-mode convolution by overlap-add FFT blocks. */
const convolveSame = (x: Float32Array, h: Float64Array): Float32Array => {
  const m = h.length;
  const size = 2 * FFT_SIZE;
  const hr = new Float64Array(size);
  const hi = new Float64Array(size);
  hr.set(h);
  fft(hr, hi);
  const full = new Float64Array(x.length + m - 1);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let start = 0; start < x.length; start += size - m + 1) {
    const n = Math.min(size - m + 1, x.length - start);
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < n; i++) re[i] = x[start + i]!;
    fft(re, im);
    for (let k = 0; k < size; k++) {
      const a = re[k]! * hr[k]! - im[k]! * hi[k]!;
      const b = re[k]! * hi[k]! + im[k]! * hr[k]!;
      // Conjugate for the inverse transform by the forward one.
      re[k] = a;
      im[k] = -b;
    }
    fft(re, im);
    for (let i = 0; i < n + m - 1 && start + i < full.length; i++)
      full[start + i] = full[start + i]! + re[i]! / size;
  }
  const offset = Math.floor((m - 1) / 2);
  return Float32Array.from({ length: x.length }, (_, i) => full[i + offset]!);
};

/** Target matched to reference, Matchering's way: returns new left/right channels. */
export const matcheringMatch = (target: Float32Array[], reference: Float32Array[]): Float32Array[] => {
  const ms = (c: Float32Array[]) => {
    const l = c[0]!;
    const r = c[1] ?? l;
    return [Float32Array.from(l, (v, i) => (v + r[i]!) / 2), Float32Array.from(l, (v, i) => (v - r[i]!) / 2)];
  };
  const [tm, ts] = ms(target) as [Float32Array, Float32Array];
  const [rm, rs] = ms(reference) as [Float32Array, Float32Array];
  const mid = convolveSame(tm, firFor(tm, rm));
  const side = convolveSame(ts, firFor(ts, rs));
  return [Float32Array.from(mid, (m, i) => m + side[i]!), Float32Array.from(mid, (m, i) => m - side[i]!)];
};
