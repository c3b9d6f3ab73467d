/**
 * Sample-rate conversion by a rational factor L/M with a polyphase windowed-sinc (Kaiser) filter: one
 * anti-alias/anti-image low-pass, designed for ≥ 100 dB stopband from the lower Nyquist and a flat
 * passband to 20 kHz (or 90 % of the lower Nyquist when that is below 20 kHz). Each output sample is one
 * dot product of 2H taps of the input with the filter phase for its fractional position (decision 122).
 */

const STOPBAND_DB = 100;
/** Above this many phases the table is interpolated between 1024 phases (error ≈ (1/1024)² of a tap). */
const MAX_EXACT_PHASES = 1024;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Modified Bessel function of the first kind, order 0 (Kaiser window), by its power series. */
const bessel0 = (x: number): number => {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
};

export interface ResamplerDesign {
  /** Interpolation and decimation factors: output rate / input rate = up / down. */
  up: number;
  down: number;
  /** Taps either side of the output position, in input samples. */
  half: number;
  phases: number;
  /** phases + 1 rows of 2·half taps (the extra row closes interpolation at fraction 1). */
  table: Float32Array;
}

export const designResampler = (inputRate: number, outputRate: number): ResamplerDesign => {
  const g = gcd(inputRate, outputRate);
  const up = outputRate / g;
  const down = inputRate / g;
  const nyquist = Math.min(inputRate, outputRate) / 2;
  const passband = Math.min(20_000, nyquist * 0.9);
  // Cut-off mid-way through the transition; the stopband starts at the lower Nyquist, so nothing above it
  // folds back (downsampling) or survives as an image (upsampling) louder than STOPBAND_DB down.
  const cutoff = (passband + nyquist) / 2 / inputRate; // cycles per input sample
  const transition = (nyquist - passband) / inputRate;
  const beta = 0.1102 * (STOPBAND_DB - 8.7);
  const taps = Math.ceil((STOPBAND_DB - 7.95) / (14.36 * transition)) + 1;
  const half = Math.ceil(taps / 2);
  const phases = Math.min(up, MAX_EXACT_PHASES);
  const width = 2 * half;
  const table = new Float32Array((phases + 1) * width);
  const norm = bessel0(beta);
  for (let p = 0; p <= phases; p++) {
    const frac = p / phases;
    for (let k = 0; k < width; k++) {
      // Tap k weighs input sample (i - half + 1 + k) for an output at input position i + frac.
      const t = k - half + 1 - frac;
      const x = 2 * cutoff * t;
      const sinc = t === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const w = Math.abs(t) >= half ? 0 : bessel0(beta * Math.sqrt(1 - (t / half) ** 2)) / norm;
      table[p * width + k] = 2 * cutoff * sinc * w;
    }
  }
  return { up, down, half, phases, table };
};

/** Output length for an input of `frames` samples: the same duration, rounded to the nearest sample. */
export const resampledLength = (frames: number, inputRate: number, outputRate: number): number =>
  Math.round((frames * outputRate) / inputRate);

/** One channel at the new rate. */
export const resampleChannel = (
  input: Float32Array,
  inputRate: number,
  outputRate: number,
  design: ResamplerDesign = designResampler(inputRate, outputRate),
): Float32Array => {
  if (inputRate === outputRate) return input.slice();
  const out = new Float32Array(resampledLength(input.length, inputRate, outputRate));
  resampleRange(input, out, 0, out.length, design);
  return out;
};

/**
 * Output samples [from, to) of `input` resampled into `out` (whose length is resampledLength(...)); a
 * worker computes a long channel in slices so it can report progress and stop between them.
 */
export const resampleRange = (
  input: Float32Array,
  out: Float32Array,
  from: number,
  to: number,
  design: ResamplerDesign,
): void => {
  const { up, down, half, phases, table } = design;
  const width = 2 * half;
  const n = input.length;
  const exact = phases === up;
  for (let j = from; j < to; j++) {
    // Output j sits at input position j·down/up = i + r/up.
    const pos = j * down;
    const i = Math.floor(pos / up);
    const r = pos - i * up;
    const first = i - half + 1;
    let acc = 0;
    if (exact) {
      const row = r * width;
      if (first >= 0 && first + width <= n) {
        for (let k = 0; k < width; k++) acc += input[first + k]! * table[row + k]!;
      } else {
        for (let k = 0; k < width; k++) {
          const at = first + k;
          if (at >= 0 && at < n) acc += input[at]! * table[row + k]!;
        }
      }
    } else {
      const f = (r / up) * phases;
      const p = Math.floor(f);
      const mix = f - p;
      const a = p * width;
      const b = a + width;
      for (let k = 0; k < width; k++) {
        const at = first + k;
        if (at < 0 || at >= n) continue;
        acc += input[at]! * (table[a + k]! + mix * (table[b + k]! - table[a + k]!));
      }
    }
    out[j] = acc;
  }
};
