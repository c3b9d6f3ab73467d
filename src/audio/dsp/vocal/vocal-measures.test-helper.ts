/**
 * The issue 26 measures, computed the way the issue states them, on 10 ms frames (a 2048-point Hann FFT per
 * frame): sibilant peaks (98th percentile of 5-10 kHz) over the vowels' median (300 Hz-3 kHz), the spread of
 * the phrase levels, and the voice (1-10 kHz in the phrases) over the hiss in the pauses; and a musical-noise
 * measure (the kurtosis of the residual's time-frequency power against the input noise's).
 */
import { FftPlan } from './fft-plan';

const SIZE = 2048;
const plan = new FftPlan(SIZE);
const win = Float64Array.from({ length: SIZE }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / SIZE));

/** Band powers (linear) per 10 ms frame of x over [startS, endS). */
export const framePowers = (
  x: Float32Array,
  sampleRate: number,
  bands: readonly [number, number][],
  startS: number,
  endS: number,
): number[][] => {
  const hop = Math.round(sampleRate * 0.01);
  const re = new Float64Array(SIZE);
  const im = new Float64Array(SIZE);
  const out: number[][] = bands.map(() => []);
  const a = Math.max(0, Math.round(startS * sampleRate));
  const b = Math.min(x.length - SIZE, Math.round(endS * sampleRate) - SIZE);
  for (let s = a; s <= b; s += hop) {
    for (let i = 0; i < SIZE; i++) {
      re[i] = x[s + i]! * win[i]!;
      im[i] = 0;
    }
    plan.forward(re, im);
    for (const [k, [lo, hi]] of bands.entries()) {
      let p = 0;
      for (let j = Math.round((lo * SIZE) / sampleRate); j <= Math.round((hi * SIZE) / sampleRate); j++)
        p += re[j]! * re[j]! + im[j]! * im[j]!;
      out[k]!.push(p);
    }
  }
  return out;
};

const db = (p: number) => 10 * Math.log10(p + 1e-30);
const pct = (v: number[], p: number) => {
  const s = [...v].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.round((p / 100) * (s.length - 1)))]!;
};
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);

export interface Range {
  start: number;
  end: number;
}

/** Sibilant peaks (98th pct of 5-10 kHz frames in the phrases) over the vowels' median level, dB. */
export const sibilantOverVowelsDb = (x: Float32Array, sr: number, phrases: readonly Range[]): number => {
  const sib: number[] = [];
  const vow: number[] = [];
  for (const p of phrases) {
    const [s, v] = framePowers(
      x,
      sr,
      [
        [5000, 10_000],
        [300, 3000],
      ],
      p.start,
      p.end,
    );
    sib.push(...s!.map(db));
    vow.push(...v!.map(db));
  }
  return pct(sib, 98) - pct(vow, 50);
};

/** Each phrase's level above the beat's bands (300 Hz-10 kHz), dB. */
export const phraseLevelsDb = (x: Float32Array, sr: number, phrases: readonly Range[]): number[] =>
  phrases.map((p) => db(mean(framePowers(x, sr, [[300, 10_000]], p.start, p.end)[0]!)));

/** Voice (1-10 kHz, mean power in the phrases) over the hiss (1-10 kHz, mean power in the pauses), dB. */
export const voiceOverHissDb = (
  x: Float32Array,
  sr: number,
  phrases: readonly Range[],
  pauses: readonly Range[],
): number => {
  const v = phrases.flatMap((p) => framePowers(x, sr, [[1000, 10_000]], p.start, p.end)[0]!);
  const h = pauses.flatMap((p) => framePowers(x, sr, [[1000, 10_000]], p.start, p.end)[0]!);
  return db(mean(v)) - db(mean(h));
};

/** Mean 1-4 kHz power of the phrases, dB. */
export const voiceBandDb = (x: Float32Array, sr: number, phrases: readonly Range[]): number =>
  db(mean(phrases.flatMap((p) => framePowers(x, sr, [[1000, 4000]], p.start, p.end)[0]!)));

/**
 * Musical noise: the kurtosis (E[p^2] / E[p]^2) of the per-bin powers (1-10 kHz, each bin over its own
 * mean) in the pauses. Gaussian noise gives 2 whatever its level; isolated tonal blips that come and go
 * (musical noise) make it much larger. Returned: processed over original.
 */
export const kurtosisRatio = (
  before: Float32Array,
  after: Float32Array,
  sr: number,
  pauses: readonly Range[],
): number => {
  const k = (x: Float32Array) => {
    const lo = Math.round((1000 * SIZE) / sr);
    const hi = Math.round((10_000 * SIZE) / sr);
    const bands: [number, number][] = [];
    for (let j = lo; j <= hi; j += 1) bands.push([(j * sr) / SIZE, (j * sr) / SIZE]);
    const perBin = bands.map(() => [] as number[]);
    for (const p of pauses) {
      const fp = framePowers(x, sr, bands, p.start, p.end);
      for (const [b, v] of fp.entries()) perBin[b]!.push(...v);
    }
    let num = 0;
    let count = 0;
    for (const v of perBin) {
      const m = mean(v);
      for (const q of v) {
        num += (q / m) ** 2;
        count++;
      }
    }
    return num / count;
  };
  return k(after) / k(before);
};
