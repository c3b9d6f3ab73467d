/**
 * What the adaptive master knows about a track, measured in one pass over the input (decision 110):
 * - long-term average spectrum in 1/3-octave bands (31.5 Hz - 16 kHz), of the mid and of the side,
 *   unweighted (the target curve and the corrective EQ live on the same unweighted scale);
 * - crest factor (sample peak over RMS) and PLR (sample peak over integrated loudness);
 * - integrated loudness and loudness range (BS.1770-4 / EBU Tech 3342, the engine's meter);
 * - stereo correlation and width in four broad bands, and the low end's correlation below 120 Hz;
 * - the loudest 30 s (by K-weighted energy), for previews, and the RMS and peak of the multiband
 *   compressor's three bands over it (their crest factors set the compression, decision 113).
 *
 * The spectrum is averaged over up to `SPECTRUM_FRAMES` Hann-windowed FFT frames spread evenly over the
 * track; left and right go through one complex FFT (left real, right imaginary) and are separated after.
 */
import { fft } from './band-levels';
import { ThreeBandCrossover } from './crossover';
import { LoudnessMeter } from './loudness';
import { type BandDynamics, MULTIBAND_CROSSOVER } from './multiband-compressor';
import { sectionOctavesDb } from './section-balance';

export const THIRD_OCTAVE_CENTRES: readonly number[] = Array.from(
  { length: 28 },
  // Base-ten nominal centres 10^(k/10): 31.6, 39.8, ..., 15 849 Hz (k = 15..42).
  (_, i) => 10 ** ((15 + i) / 10),
);

export interface StereoBand {
  name: string;
  lowHz: number;
  highHz: number;
  /** Zero-lag correlation of the band-limited left and right, -1..1 (1 for mono or silence). */
  correlation: number;
  /** Side energy over total energy in the band: 0 mono, 0.5 uncorrelated, 1 out of phase. */
  width: number;
}

export const STEREO_BANDS: readonly { name: string; lowHz: number; highHz: number }[] = [
  { name: 'Low', lowHz: 20, highHz: 120 },
  { name: 'Low mids', lowHz: 120, highHz: 500 },
  { name: 'Mids', lowHz: 500, highHz: 4000 },
  { name: 'Highs', lowHz: 4000, highHz: 20000 },
];

/** The bass that must survive a mono fold-down: below this, correlation should stay >= 0.9. */
export const MONO_BASS_HZ = 120;

export interface TrackAnalysis {
  sampleRate: number;
  seconds: number;
  /** 1/3-octave band levels of the mid ((L+R)/2), dB re a full-scale sine in the band. */
  midDb: number[];
  /** The same for the side ((L-R)/2); -Infinity for mono. */
  sideDb: number[];
  peakDb: number;
  rmsDb: number;
  /** peakDb - rmsDb. */
  crestDb: number;
  integratedLufs: number;
  loudnessRangeLu: number;
  /** Peak-to-loudness ratio with the sample peak: peakDb - integratedLufs. */
  plrDb: number;
  stereo: StereoBand[];
  /** Correlation of left and right below 120 Hz (the first stereo band). */
  lowEndCorrelation: number;
  /** The loudest 30 s (the whole track when shorter). */
  loudest: { startSeconds: number; seconds: number };
  /** RMS and peak of the low / mid / high compressor bands over the loudest 30 s. */
  bandDynamics: BandDynamics[];
  /** The mid's level per octave in 1 s blocks (section-balance.ts): what a tone EQ does to the range. */
  sectionOctavesDb: number[][];
}

export const SPECTRUM_FFT = 16384;
export const SPECTRUM_FRAMES = 128;
const SECTION_SECONDS = 30;

const toDb = (v: number): number => (v > 0 ? 10 * Math.log10(v) : -Infinity);

/** Peak and sum of squares of one channel; two accumulators so consecutive additions do not wait on each other. */
export const peakAndSumSquares = (data: Float32Array): { peak: number; sumSquares: number } => {
  let s0 = 0;
  let s1 = 0;
  let p0 = 0;
  let p1 = 0;
  const n = data.length;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const a = data[i]!;
    const b = data[i + 1]!;
    s0 += a * a;
    s1 += b * b;
    const aa = a < 0 ? -a : a;
    const ab = b < 0 ? -b : b;
    if (aa > p0) p0 = aa;
    if (ab > p1) p1 = ab;
  }
  if (i < n) {
    const a = data[i]!;
    s0 += a * a;
    if (Math.abs(a) > p0) p0 = Math.abs(a);
  }
  return { peak: Math.max(p0, p1), sumSquares: s0 + s1 };
};

/** Bin ranges [lo, hi] of each band edge pair at this FFT size and rate. */
const binRange = (lowHz: number, highHz: number, size: number, sampleRate: number): [number, number] => [
  Math.max(1, Math.ceil((lowHz * size) / sampleRate)),
  Math.min(size / 2, Math.floor((highHz * size) / sampleRate)),
];

/** Per-bin power sums of the whole average: mid, side, left, right, and the real cross-spectrum L.R*. */
export interface SpectrumSums {
  mid: Float64Array;
  side: Float64Array;
  left: Float64Array;
  right: Float64Array;
  cross: Float64Array;
  frames: number;
  window: Float64Array;
}

const averageSpectrum = (
  channels: readonly Float32Array[],
  size: number,
  maxFrames: number,
  checkpoint?: () => void,
): SpectrumSums => {
  const length = channels[0]?.length ?? 0;
  const half = size / 2;
  const sums: SpectrumSums = {
    mid: new Float64Array(half + 1),
    side: new Float64Array(half + 1),
    left: new Float64Array(half + 1),
    right: new Float64Array(half + 1),
    cross: new Float64Array(half + 1),
    frames: 0,
    window: Float64Array.from({ length: size }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size)),
  };
  // Short input: one zero-padded frame.
  const available = length >= size ? Math.floor((length - size) / size) + 1 : length > 0 ? 1 : 0;
  const frames = Math.min(maxFrames, available);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const left = channels[0]!;
  const right = channels[1] ?? left;
  const w = sums.window;
  for (let f = 0; f < frames; f++) {
    if ((f & 15) === 15) checkpoint?.();
    const start = frames > 1 ? Math.round((f * Math.max(0, length - size)) / (frames - 1)) : 0;
    const n = Math.min(size, length - start);
    for (let i = 0; i < n; i++) {
      re[i] = left[start + i]! * w[i]!;
      im[i] = right[start + i]! * w[i]!;
    }
    re.fill(0, n);
    im.fill(0, n);
    fft(re, im);
    // Z = L + jR; L_k = (Z_k + conj Z_{N-k}) / 2, R_k = (Z_k - conj Z_{N-k}) / 2j.
    for (let k = 0; k <= half; k++) {
      const j = (size - k) & (size - 1);
      const lr = 0.5 * (re[k]! + re[j]!);
      const li = 0.5 * (im[k]! - im[j]!);
      const rr = 0.5 * (im[k]! + im[j]!);
      const ri = 0.5 * (re[j]! - re[k]!);
      const mr = 0.5 * (lr + rr);
      const mi = 0.5 * (li + ri);
      const sr = 0.5 * (lr - rr);
      const si = 0.5 * (li - ri);
      sums.left[k] = sums.left[k]! + lr * lr + li * li;
      sums.right[k] = sums.right[k]! + rr * rr + ri * ri;
      sums.cross[k] = sums.cross[k]! + lr * rr + li * ri;
      sums.mid[k] = sums.mid[k]! + mr * mr + mi * mi;
      sums.side[k] = sums.side[k]! + sr * sr + si * si;
    }
  }
  sums.frames = frames;
  return sums;
};

/** Band levels (dB re a full-scale sine) of a per-bin power sum. */
const bandLevels = (power: Float64Array, s: SpectrumSums, size: number, sampleRate: number): number[] => {
  // Parseval, as in band-levels.ts: a sine of amplitude A reads A^2 over its band.
  const energyFactor = s.window.reduce((sum, w) => sum + w * w, 0) * size;
  const norm = s.frames > 0 ? 4 / (energyFactor * s.frames) : 0;
  return THIRD_OCTAVE_CENTRES.map((fc) => {
    const [lo, hi] = binRange(fc * 2 ** -(1 / 6), fc * 2 ** (1 / 6), size, sampleRate);
    let sum = 0;
    for (let k = lo; k <= hi; k++) sum += power[k]!;
    // A band narrower than a bin (low bands at high rates) reads the nearest bin.
    if (hi < lo) sum = power[Math.min(size / 2, Math.round((fc * size) / sampleRate))]!;
    return toDb(sum * norm);
  });
};

const loudestSection = (meter: LoudnessMeter, seconds: number) => {
  const blocks = meter.subBlockCount;
  const span = SECTION_SECONDS * 10;
  if (blocks <= span) return { startSeconds: 0, seconds: Math.min(seconds, SECTION_SECONDS) };
  // Sliding sum over the 100 ms sub-blocks: one add and one subtract per step.
  const first = meter.windowSum(0, span);
  let sum = first.sum;
  let best = sum;
  let bestStart = 0;
  for (let start = 1; start + span <= blocks; start++) {
    sum += meter.windowSum(start + span - 1, 1).sum - meter.windowSum(start - 1, 1).sum;
    if (sum > best) {
      best = sum;
      bestStart = start;
    }
  }
  return { startSeconds: bestStart / 10, seconds: SECTION_SECONDS };
};

/** The three compressor bands' RMS and sample peak over `frames` from `start` (crossover run on that span only). */
const bandDynamicsOf = (
  channels: readonly Float32Array[],
  sampleRate: number,
  start: number,
  end: number,
): BandDynamics[] => {
  const crossover = new ThreeBandCrossover(sampleRate, channels.length, MULTIBAND_CROSSOVER);
  const sums = [0, 0, 0];
  const peaks = [0, 0, 0];
  for (let from = start; from < end; from += 4096) {
    const to = Math.min(end, from + 4096);
    crossover.split(channels, from, to);
    crossover.bands.forEach((band, b) => {
      for (const data of band) {
        const stats = peakAndSumSquares(data.subarray(0, to - from));
        sums[b] = sums[b]! + stats.sumSquares;
        if (stats.peak > peaks[b]!) peaks[b] = stats.peak;
      }
    });
  }
  const count = Math.max(1, (end - start) * channels.length);
  return sums.map((sum, b) => ({ rmsDb: toDb(sum / count), peakDb: 2 * toDb(peaks[b]!) }));
};

export interface AnalysisOptions {
  fftSize?: number;
  maxFrames?: number;
  /** Called between blocks of a few milliseconds (a worker's pause point, workers/pause-gate.ts). */
  checkpoint?: () => void;
}

/**
 * The spectrum half of the analysis (the averaged FFT frames): independent of the rest, so the two-worker
 * render runs it in its second worker (decision 141); `analyseTrack(..., spectrum)` takes it.
 */
export const trackSpectrum = (
  channels: readonly Float32Array[],
  options: AnalysisOptions = {},
): SpectrumSums =>
  averageSpectrum(
    channels,
    options.fftSize ?? SPECTRUM_FFT,
    options.maxFrames ?? SPECTRUM_FRAMES,
    options.checkpoint,
  );

/** The level half of the analysis: peak, RMS, loudness and range, the loudest 30 s and its band dynamics. */
export interface TrackLevels {
  sampleRate: number;
  frames: number;
  channels: number;
  peakDb: number;
  rmsDb: number;
  integratedLufs: number;
  loudnessRangeLu: number;
  loudest: { startSeconds: number; seconds: number };
  bandDynamics: BandDynamics[];
  sectionOctavesDb: number[][];
}

/** Whole seconds per loudness push between checkpoints: a sub-block is never cut, so the sums stay the same. */
const CHECKPOINT_SECONDS = 4;

/**
 * The levels half of the analysis. `checkpoint` (a worker's pause point, workers/pause-gate.ts) is called
 * between blocks of a few milliseconds; the result is the same with or without it.
 */
export const trackLevels = (
  channels: readonly Float32Array[],
  sampleRate: number,
  checkpoint?: () => void,
): TrackLevels => {
  const frames = channels[0]?.length ?? 0;
  const count = channels.length;
  let peak = 0;
  let sumSquares = 0;
  for (const ch of channels) {
    const stats = peakAndSumSquares(ch);
    if (stats.peak > peak) peak = stats.peak;
    sumSquares += stats.sumSquares;
  }
  const meter = new LoudnessMeter(sampleRate, count, { truePeak: false });
  if (!checkpoint) meter.push(channels);
  else
    for (let start = 0; start < frames; start += CHECKPOINT_SECONDS * sampleRate) {
      checkpoint();
      meter.push(channels, start, Math.min(frames, start + CHECKPOINT_SECONDS * sampleRate));
    }
  const loudest = loudestSection(meter, frames / sampleRate);
  return {
    sampleRate,
    frames,
    channels: count,
    peakDb: 2 * toDb(peak),
    rmsDb: toDb(sumSquares / Math.max(1, frames * count)),
    integratedLufs: meter.integrated(),
    loudnessRangeLu: meter.loudnessRange(),
    loudest,
    bandDynamics: bandDynamicsOf(
      channels,
      sampleRate,
      Math.round(loudest.startSeconds * sampleRate),
      Math.min(frames, Math.round((loudest.startSeconds + loudest.seconds) * sampleRate)),
    ),
    sectionOctavesDb: sectionOctavesDb(channels, sampleRate, checkpoint),
  };
};

/** The two halves together (the spectrum measured with `options`' FFT size). */
export const combineAnalysis = (
  levels: TrackLevels,
  spectrum: SpectrumSums,
  options: AnalysisOptions = {},
): TrackAnalysis => {
  const size = options.fftSize ?? SPECTRUM_FFT;
  const { sampleRate, peakDb, rmsDb, integratedLufs } = levels;
  const stereo = STEREO_BANDS.map((band) => {
    const [lo, hi] = binRange(band.lowHz, band.highHz, size, sampleRate);
    let l = 0;
    let r = 0;
    let x = 0;
    let m = 0;
    let sd = 0;
    for (let k = lo; k <= hi; k++) {
      l += spectrum.left[k]!;
      r += spectrum.right[k]!;
      x += spectrum.cross[k]!;
      m += spectrum.mid[k]!;
      sd += spectrum.side[k]!;
    }
    const correlation = l > 0 && r > 0 ? x / Math.sqrt(l * r) : 1;
    return { ...band, correlation, width: m + sd > 0 ? sd / (m + sd) : 0 };
  });
  return {
    sampleRate,
    seconds: levels.frames / sampleRate,
    midDb: bandLevels(spectrum.mid, spectrum, size, sampleRate),
    sideDb:
      levels.channels > 1
        ? bandLevels(spectrum.side, spectrum, size, sampleRate)
        : THIRD_OCTAVE_CENTRES.map(() => -Infinity),
    peakDb,
    rmsDb,
    crestDb: peakDb - rmsDb,
    integratedLufs,
    loudnessRangeLu: levels.loudnessRangeLu,
    plrDb: peakDb - integratedLufs,
    stereo,
    lowEndCorrelation: stereo[0]!.correlation,
    loudest: levels.loudest,
    bandDynamics: levels.bandDynamics,
    sectionOctavesDb: levels.sectionOctavesDb,
  };
};

export const analyseTrack = (
  channels: readonly Float32Array[],
  sampleRate: number,
  options: AnalysisOptions = {},
): TrackAnalysis =>
  combineAnalysis(trackLevels(channels, sampleRate), trackSpectrum(channels, options), options);
