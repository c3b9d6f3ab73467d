/**
 * The seven analysis bands of spec section 9 and their levels, from an averaged Hann-windowed spectrum of
 * the mono sum. Levels are in dB relative to a full-scale sine (a 0 dBFS sine inside a band reads 0 dB).
 */

export interface BandDefinition {
  name: string;
  lowHz: number;
  highHz: number;
}

export const ANALYSIS_BANDS: readonly BandDefinition[] = [
  { name: 'Sub Bass', lowHz: 20, highHz: 60 },
  { name: 'Bass', lowHz: 60, highHz: 250 },
  { name: 'Low Mids', lowHz: 250, highHz: 500 },
  { name: 'Mids', lowHz: 500, highHz: 2000 },
  { name: 'High Mids', lowHz: 2000, highHz: 4000 },
  { name: 'Presence', lowHz: 4000, highHz: 6000 },
  { name: 'Brilliance', lowHz: 6000, highHz: 20000 },
];

export interface BandLevel extends BandDefinition {
  levelDb: number;
}

/** In-place iterative radix-2 complex FFT; `re.length` must be a power of two. */
/**
 * Per size, the bit-reversal swaps and every stage's twiddles. The twiddles are the values the butterfly
 * loop's rotation recurrence produced when it ran per block (the same for every block of a stage), so the
 * transform gives the same bits as before, without the recurrence's multiplies in the inner loop.
 */
interface FftPlan {
  swaps: Uint32Array;
  twr: Float64Array;
  twi: Float64Array;
}
const fftPlans = new Map<number, FftPlan>();

const fftPlan = (n: number): FftPlan => {
  let plan = fftPlans.get(n);
  if (plan) return plan;
  const swaps: number[] = [];
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) swaps.push(i, j);
  }
  const twr = new Float64Array(Math.max(1, n - 1));
  const twi = new Float64Array(Math.max(1, n - 1));
  let at = 0;
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1;
    const step = (-2 * Math.PI) / size;
    const wr = Math.cos(step);
    const wi = Math.sin(step);
    let cr = 1;
    let ci = 0;
    for (let k = 0; k < half; k++) {
      twr[at + k] = cr;
      twi[at + k] = ci;
      const nr = cr * wr - ci * wi;
      ci = cr * wi + ci * wr;
      cr = nr;
    }
    at += half;
  }
  plan = { swaps: Uint32Array.from(swaps), twr, twi };
  fftPlans.set(n, plan);
  return plan;
};

export const fft = (re: Float64Array, im: Float64Array): void => {
  const n = re.length;
  const { swaps, twr, twi } = fftPlan(n);
  for (let s = 0; s < swaps.length; s += 2) {
    const i = swaps[s]!;
    const j = swaps[s + 1]!;
    const tr = re[i]!;
    re[i] = re[j]!;
    re[j] = tr;
    const ti = im[i]!;
    im[i] = im[j]!;
    im[j] = ti;
  }
  let at = 0;
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1;
    // The butterflies of a stage are independent: the early stages (many short blocks) run twiddle by
    // twiddle across the blocks, the later ones block by block.
    if (half < 8) {
      for (let k = 0; k < half; k++) {
        const cr = twr[at + k]!;
        const ci = twi[at + k]!;
        for (let a = k; a < n; a += size) {
          const b = a + half;
          const xr = re[b]! * cr - im[b]! * ci;
          const xi = re[b]! * ci + im[b]! * cr;
          re[b] = re[a]! - xr;
          im[b] = im[a]! - xi;
          re[a] = re[a]! + xr;
          im[a] = im[a]! + xi;
        }
      }
    } else
      for (let start = 0; start < n; start += size) {
        for (let k = 0; k < half; k++) {
          const cr = twr[at + k]!;
          const ci = twi[at + k]!;
          const a = start + k;
          const b = a + half;
          const xr = re[b]! * cr - im[b]! * ci;
          const xi = re[b]! * ci + im[b]! * cr;
          re[b] = re[a]! - xr;
          im[b] = im[a]! - xi;
          re[a] = re[a]! + xr;
          im[a] = im[a]! + xi;
        }
      }
    at += half;
  }
};

export interface BandLevelOptions {
  /** FFT size (power of two). Default 4096. */
  size?: number;
  /** At most this many frames, spread evenly over the signal. Default 96. */
  maxFrames?: number;
}

/** Where the analysed FFT frames start: at most `maxFrames`, spread evenly from the first to the last. */
const frameStarts = (length: number, size: number, maxFrames: number): number[] => {
  const available = Math.max(0, Math.floor((length - size) / size) + 1);
  const frames = Math.min(maxFrames, available);
  return Array.from({ length: frames }, (_, f) =>
    frames > 1 ? Math.round((f * (length - size)) / (frames - 1)) : 0,
  );
};

/**
 * Just the samples measureBandLevels reads, its frames laid end to end: the same options measure the
 * excerpt to the same levels, bit for bit (its frames then start at exact multiples of `size`). The
 * two-worker render measures the input's bands from it after the chain has overwritten the input.
 */
export const bandLevelExcerpt = (
  channels: readonly Float32Array[],
  { size = 4096, maxFrames = 96 }: BandLevelOptions = {},
): Float32Array[] => {
  const starts = frameStarts(channels[0]?.length ?? 0, size, maxFrames);
  return channels.map((data) => {
    const excerpt = new Float32Array(starts.length * size);
    starts.forEach((start, f) => {
      excerpt.set(data.subarray(start, start + size), f * size);
    });
    return excerpt;
  });
};

export const measureBandLevels = (
  channels: readonly Float32Array[],
  sampleRate: number,
  { size = 4096, maxFrames = 96 }: BandLevelOptions = {},
): BandLevel[] => {
  const power = new Float64Array(size / 2 + 1);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const window = Float64Array.from(
    { length: size },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size),
  );
  const starts = frameStarts(channels[0]?.length ?? 0, size, maxFrames);
  const frames = starts.length;
  const scale = 1 / channels.length;
  for (let f = 0; f < frames; f++) {
    const start = starts[f]!;
    for (let i = 0; i < size; i++) {
      let v = 0;
      for (const ch of channels) v += ch[start + i]!;
      re[i] = v * scale * window[i]!;
      im[i] = 0;
    }
    fft(re, im);
    for (let k = 0; k <= size / 2; k++) power[k] = power[k]! + re[k]! * re[k]! + im[k]! * im[k]!;
  }
  // Parseval: a sine of amplitude A puts N * A^2 * sum(w^2) / 4 into the positive-frequency bins;
  // normalise so that the band's sum reads A^2 (0 dB for a full-scale sine).
  const energyFactor = window.reduce((s, w) => s + w * w, 0) * size;
  const norm = frames > 0 ? 4 / (energyFactor * frames) : 0;
  return ANALYSIS_BANDS.map((band) => {
    const lo = Math.max(1, Math.ceil((band.lowHz * size) / sampleRate));
    const hi = Math.min(size / 2, Math.floor((band.highHz * size) / sampleRate));
    let sum = 0;
    for (let k = lo; k <= hi; k++) sum += power[k]!;
    const level = sum * norm;
    return { ...band, levelDb: level > 0 ? 10 * Math.log10(level) : -Infinity };
  });
};
