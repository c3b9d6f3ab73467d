/**
 * Issue 26: what the mixer hears in a vocal take when it loads. One pass of cheap time-domain levels finds
 * the noise floor; one STFT pass (10 ms hop) then classes every frame (silence, voiced, unvoiced, breath),
 * learns the noise print from the take's own pauses, finds the singer's sibilant band, and measures the
 * voice's spectral balance against the genre's vocal target. Everything returned is plain JSON data: the
 * analysis worker posts it to the page, and the chain's stages (cleanup, riding, EQ, de-esser) read it.
 */
import type { Genre } from '../../../shared/genres';
import { measureTruePeakDb } from '../true-peak';
import { FftPlan } from './fft-plan';
import { BALANCE_BANDS, vocalTargetFor } from './genre-vocal-targets';

export * from './vocal-analysis';

import {
  type BalanceFinding,
  FRAME_BREATH,
  FRAME_SILENCE,
  FRAME_UNVOICED,
  FRAME_VOICED,
  type FrameClass,
  type TimeRange,
  type VocalAnalysis,
} from './vocal-analysis';

export type AnalyseProgress = (fraction: number) => void;

export const HOP_SECONDS = 0.01;
export const analysisFftSize = (sampleRate: number): number => (sampleRate > 50_000 ? 2048 : 1024);

const EPS = 1e-20;
/** Frame levels at or under this are digital silence, not a noise floor. */
const AUDIBLE_DB = -140;
/** Sixth-octave edges from 3.5 to 14 kHz (12 bands). */
const SIXTHS = 12;
const SIXTH_EDGES_HZ = Array.from({ length: SIXTHS + 1 }, (_, i) => 3500 * 2 ** (i / 6));
const powDb = (p: number) => 10 * Math.log10(p + EPS);
const round1 = (x: number) => Math.round(x * 10) / 10;

const percentile = (values: ArrayLike<number>, p: number): number => {
  if (values.length === 0) return Number.NEGATIVE_INFINITY;
  const sorted = Float64Array.from(values).sort();
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))));
  return sorted[i]!;
};

const hann = (n: number) => {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  return w;
};

/** Mono mixdown of the take (the mean of its channels). */
export const monoOf = (channels: readonly Float32Array[]): Float32Array => {
  if (channels.length === 1) return channels[0]!;
  const n = channels[0]?.length ?? 0;
  const out = new Float32Array(n);
  for (const ch of channels) for (let i = 0; i < n; i++) out[i]! += ch[i]! / channels.length;
  return out;
};

/** Merge ranges closer than `gap` seconds and drop the ones shorter than `min`. */
const mergeRanges = (ranges: TimeRange[], gap: number, min: number): TimeRange[] => {
  const out: TimeRange[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r.start - last.end < gap) last.end = r.end;
    else out.push({ ...r });
  }
  return out.filter((r) => r.end - r.start >= min);
};

/** Runs of frames satisfying `pred`, as time ranges. */
const runsOf = (count: number, hop: number, pred: (i: number) => boolean): TimeRange[] => {
  const out: TimeRange[] = [];
  let start = -1;
  for (let i = 0; i <= count; i++) {
    const on = i < count && pred(i);
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      out.push({ start: start * hop, end: i * hop });
      start = -1;
    }
  }
  return out;
};

const clippedRuns = (x: Float32Array, sampleRate: number): TimeRange[] => {
  let peak = 0;
  for (let i = 0; i < x.length; i++) peak = Math.max(peak, Math.abs(x[i]!));
  if (peak < 10 ** (-0.3 / 20)) return [];
  const at = peak * 0.999;
  const out: TimeRange[] = [];
  let start = -1;
  for (let i = 0; i <= x.length; i++) {
    const on = i < x.length && Math.abs(x[i]!) >= at;
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      if (i - start >= 3) out.push({ start: start / sampleRate, end: i / sampleRate });
      start = -1;
    }
  }
  return out;
};

/**
 * Analyse a vocal take. `channels` are the take's channels (mixed to mono for the analysis); the genre only
 * changes the balance findings (against its target).
 */
export const analyseVocal = (
  channels: readonly Float32Array[],
  sampleRate: number,
  genre: Genre = 'pop',
  onProgress?: AnalyseProgress,
): VocalAnalysis => {
  const x = monoOf(channels);
  const n = x.length;
  const size = analysisFftSize(sampleRate);
  const bins = size / 2 + 1;
  const hop = Math.max(1, Math.round(sampleRate * HOP_SECONDS));
  const hopSeconds = hop / sampleRate;
  const frames = Math.max(1, Math.ceil(n / hop));
  const binHz = sampleRate / size;
  const binOf = (hz: number) => Math.min(bins - 1, Math.max(0, Math.round(hz / binHz)));

  // Pass 1: full-band RMS per frame (window of `size` centred on the frame), so the floor is known before
  // the spectral pass decides which frames are pauses.
  const levels = new Float64Array(frames);
  // Progress (a worker's checkpoint, see workers/pause-gate.ts) every few milliseconds of work.
  const progressEvery = Math.max(1, Math.floor(frames / 200));
  for (let f = 0; f < frames; f++) {
    if (f % progressEvery === 0) onProgress?.((0.1 * f) / frames);
    const c = f * hop;
    const a = Math.max(0, c - size / 2);
    const b = Math.min(n, c + size / 2);
    let s = 0;
    for (let i = a; i < b; i++) s += x[i]! * x[i]!;
    levels[f] = powDb(s / Math.max(1, b - a));
  }
  onProgress?.(0.1);
  // The floor: the quietest tenth of the frames that carry any signal at all (digital silence is no floor).
  const audible = Array.from(levels).filter((l) => l > AUDIBLE_DB);
  const noiseFloorDb = audible.length ? percentile(audible, 10) : -140;
  const pauseCeiling = noiseFloorDb + 6;

  // Pass 2: the STFT. Per frame: vowel band (300-3000), 1-10 kHz, the voice's low share and flatness, and the
  // spectra accumulated into the noise print (pauses), the voiced LTAS (balance) and the high-band spectra of
  // the candidate sibilant frames.
  const win = hann(size);
  const winPower = win.reduce((s, w) => s + w * w, 0);
  const plan = new FftPlan(size);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const power = new Float64Array(bins);
  const powerNext = new Float64Array(bins);
  const noiseAcc = new Float64Array(bins);
  let noiseFrames = 0;
  const voicedAcc = new Float64Array(bins);
  let voicedFrames = 0;
  const sibAcc = new Float64Array(bins);
  let sibFrames = 0;
  const vowelDb = new Float64Array(frames);
  const highShare = new Float64Array(frames);
  const classes: FrameClass[] = new Array(frames).fill(FRAME_SILENCE);
  const b80 = binOf(80);
  const b300 = binOf(300);
  const b2500 = binOf(2500);
  const b3000 = binOf(3000);
  const b4000 = binOf(4000);
  const b12k = binOf(Math.min(12_000, sampleRate * 0.49));
  const b100 = binOf(100);
  // Sixth-octave high bands per frame (3.5-14 kHz), so the sibilant band's level per frame can be read once
  // the band is known without a second STFT.
  const sixthBins = SIXTH_EDGES_HZ.map((hz) => binOf(hz));
  const sixths = new Float32Array(frames * SIXTHS);

  for (let f = 0; f < frames; f++) {
    // Two frames per complex FFT (f in the real part, f + 1 in the imaginary part), split after.
    if (f % 2 === 0) {
      const c = f * hop - size / 2;
      for (let i = 0; i < size; i++) {
        const j = c + i;
        const j1 = j + hop;
        re[i] = j >= 0 && j < n ? x[j]! * win[i]! : 0;
        im[i] = j1 >= 0 && j1 < n ? x[j1]! * win[i]! : 0;
      }
      plan.forward(re, im);
      for (let k = 0; k < bins; k++) {
        const m = (size - k) % size;
        const zr = re[k]!;
        const zi = im[k]!;
        const cr = re[m]!;
        const ci = -im[m]!;
        const x0r = 0.5 * (zr + cr);
        const x0i = 0.5 * (zi + ci);
        const x1r = 0.5 * (zi - ci);
        const x1i = -0.5 * (zr - cr);
        const scale = (k === 0 || k === bins - 1 ? 1 : 2) / (winPower * size);
        power[k] = scale * (x0r * x0r + x0i * x0i);
        powerNext[k] = scale * (x1r * x1r + x1i * x1i);
      }
    } else power.set(powerNext);
    let total = 0;
    for (let k = 0; k < bins; k++) total += power[k]!;
    let low = 0;
    for (let k = b80; k <= b2500; k++) low += power[k]!;
    let vowel = 0;
    for (let k = b300; k <= b3000; k++) vowel += power[k]!;
    let high = 0;
    for (let k = b4000; k <= b12k; k++) high += power[k]!;
    // Flatness over 100 Hz-4 kHz: harmonics make it small, noise (breath, hiss) keeps it near 0.5.
    let logSum = 0;
    let linSum = 0;
    for (let k = b100; k <= b4000; k++) {
      logSum += Math.log(power[k]! + EPS);
      linSum += power[k]!;
    }
    const count = b4000 - b100 + 1;
    const flatness = Math.exp(logSum / count) / (linSum / count + EPS);
    for (let b = 0; b < SIXTHS; b++) {
      let s = 0;
      for (let k = sixthBins[b]!; k < sixthBins[b + 1]!; k++) s += power[k]!;
      sixths[f * SIXTHS + b] = s;
    }
    vowelDb[f] = powDb(vowel);
    highShare[f] = high / (total + EPS);
    const level = levels[f]!;
    const lowShare = low / (total + EPS);
    if (level <= pauseCeiling) {
      classes[f] = FRAME_SILENCE;
      // Digital silence (the timeline around a clip, a gated gap) is a pause with no noise to learn: it
      // would pull the print under the hiss (8 dB for a 21 s take on the mixdown's 60 s timeline).
      if (level > AUDIBLE_DB) {
        for (let k = 0; k < bins; k++) noiseAcc[k]! += power[k]!;
        noiseFrames++;
      }
    } else if (level > noiseFloorDb + 9 && lowShare > 0.5 && flatness < 0.3) {
      classes[f] = FRAME_VOICED;
      for (let k = 0; k < bins; k++) voicedAcc[k]! += power[k]!;
      voicedFrames++;
    } else {
      classes[f] = FRAME_UNVOICED;
      if (highShare[f]! > 0.5 && level > noiseFloorDb + 15) {
        for (let k = b4000; k <= b12k; k++) sibAcc[k]! += power[k]!;
        sibFrames++;
      }
    }
    if (f % progressEvery === 0) onProgress?.(0.1 + (0.8 * f) / frames);
  }

  // Breaths: unvoiced runs (not sibilant-dominated) of 120 ms-1.2 s that sit well under the voiced level and
  // touch no voiced frame for at least one frame either side (breaths come between phrases, not inside words).
  const voicedLevels: number[] = [];
  for (let f = 0; f < frames; f++) if (classes[f] === FRAME_VOICED) voicedLevels.push(levels[f]!);
  const voicedMedian = voicedLevels.length ? percentile(voicedLevels, 50) : noiseFloorDb + 20;
  const unvoicedRuns = runsOf(frames, 1, (f) => classes[f] === FRAME_UNVOICED);
  const breaths: TimeRange[] = [];
  for (const r of unvoicedRuns) {
    const a = r.start;
    const b = r.end;
    const dur = (b - a) * hopSeconds;
    if (dur < 0.12 || dur > 1.2) continue;
    let e = 0;
    let hs = 0;
    for (let f = a; f < b; f++) {
      e += 10 ** (levels[f]! / 10);
      hs += highShare[f]!;
    }
    const lvl = powDb(e / (b - a));
    if (lvl < voicedMedian - 8 && hs / (b - a) < 0.6) {
      for (let f = a; f < b; f++) classes[f] = FRAME_BREATH;
      breaths.push({ start: a * hopSeconds, end: b * hopSeconds });
    }
  }

  // Phrases and words: activity is voiced or unvoiced (not breath, not silence); words join over gaps under
  // 60 ms, phrases over gaps under 350 ms.
  const active = (f: number) => classes[f] === FRAME_VOICED || classes[f] === FRAME_UNVOICED;
  const rangeLevel = (r: TimeRange): number => {
    const a = Math.round(r.start / hopSeconds);
    const b = Math.round(r.end / hopSeconds);
    let e = 0;
    let m = 0;
    for (let f = a; f < b; f++)
      if (active(f)) {
        e += 10 ** (levels[f]! / 10);
        m++;
      }
    return m ? round1(powDb(e / m)) : noiseFloorDb;
  };
  const activity = runsOf(frames, hopSeconds, active);
  const words = mergeRanges(activity, 0.06, 0.05).map((r) => ({ ...r, levelDb: rangeLevel(r) }));
  const phrases = mergeRanges(activity, 0.35, 0.2).map((r) => ({ ...r, levelDb: rangeLevel(r) }));
  const phraseLevels = phrases.map((p) => p.levelDb);
  const phraseMedianDb = phraseLevels.length ? percentile(phraseLevels, 50) : noiseFloorDb;
  const phraseSpreadDb = phraseLevels.length ? Math.max(...phraseLevels) - Math.min(...phraseLevels) : 0;

  // The noise print: mean power per bin over the pauses, as the RMS amplitude in dB.
  const magnitudesDb = Array.from(noiseAcc, (p) =>
    noiseFrames ? round1(powDb(p / noiseFrames)) : round1(noiseFloorDb - 10 * Math.log10(bins)),
  );

  // Sibilant band: the sibilant frames' mean spectrum smoothed over a third of an octave; its peak, and the
  // -6 dB points either side (at least half an octave wide, so the de-esser never becomes a notch).
  let peakHz = 6500;
  let loHz = 4500;
  let hiHz = 9500;
  if (sibFrames > 0) {
    const smooth = new Float64Array(bins);
    for (let k = b4000; k <= b12k; k++) {
      const a = binOf(k * binHz * 2 ** (-1 / 6));
      const b = binOf(k * binHz * 2 ** (1 / 6));
      let s = 0;
      for (let j = a; j <= b; j++) s += sibAcc[j]!;
      smooth[k] = s / (b - a + 1);
    }
    let kPeak = b4000;
    for (let k = b4000; k <= b12k; k++) if (smooth[k]! > smooth[kPeak]!) kPeak = k;
    const edge = smooth[kPeak]! / 4;
    let kLo = kPeak;
    while (kLo > b4000 && smooth[kLo - 1]! >= edge) kLo--;
    let kHi = kPeak;
    while (kHi < b12k && smooth[kHi + 1]! >= edge) kHi++;
    peakHz = kPeak * binHz;
    loHz = Math.min(kLo * binHz, peakHz * 2 ** -0.25);
    hiHz = Math.max(kHi * binHz, peakHz * 2 ** 0.25);
  }
  // How hot: the band's 98th-percentile frame level over the vowels' median, as the issue measures it.
  // The sixth-octave bands whose centres fall in the found band stand for it.
  const inBand: number[] = [];
  for (let b = 0; b < SIXTHS; b++) {
    const centre = Math.sqrt(SIXTH_EDGES_HZ[b]! * SIXTH_EDGES_HZ[b + 1]!);
    if (centre >= loHz && centre <= hiHz) inBand.push(b);
  }
  const sibBandDb = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let s = 0;
    for (const b of inBand) s += sixths[f * SIXTHS + b]!;
    sibBandDb[f] = powDb(s);
  }
  const vowelVoiced: number[] = [];
  for (let f = 0; f < frames; f++) if (classes[f] === FRAME_VOICED) vowelVoiced.push(vowelDb[f]!);
  const audibleSib: number[] = [];
  for (let f = 0; f < frames; f++) if (levels[f]! > pauseCeiling) audibleSib.push(sibBandDb[f]!);
  const hotDb =
    audibleSib.length && vowelVoiced.length ? percentile(audibleSib, 98) - percentile(vowelVoiced, 50) : 0;
  onProgress?.(0.95);

  // Balance: the voiced LTAS in each band, per Hz, relative to the 1-2 kHz reference, against the target.
  const target = vocalTargetFor(genre);
  const bandDensity = (lo: number, hi: number) => {
    const a = binOf(lo);
    const b = Math.max(a, binOf(Math.min(hi, sampleRate * 0.49)));
    let s = 0;
    for (let k = a; k <= b; k++) s += voicedAcc[k]!;
    return powDb(s / (b - a + 1) / Math.max(1, voicedFrames));
  };
  const ref = bandDensity(1000, 2000);
  const balance: BalanceFinding[] = BALANCE_BANDS.map((band) => {
    const levelDb = voicedFrames ? round1(bandDensity(band.loHz, band.hiHz) - ref) : 0;
    return {
      band: band.band,
      loHz: band.loHz,
      hiHz: band.hiHz,
      levelDb,
      offTargetDb: voicedFrames ? round1(levelDb - target.curve[band.band]) : 0,
    };
  });

  // Crest factor of the voiced frames: sample peak over the voiced RMS.
  let voicedPeak = 0;
  let voicedEnergy = 0;
  let voicedSamples = 0;
  for (let f = 0; f < frames; f++) {
    if (classes[f] !== FRAME_VOICED) continue;
    const a = f * hop;
    const b = Math.min(n, a + hop);
    for (let i = a; i < b; i++) {
      const v = x[i]!;
      voicedPeak = Math.max(voicedPeak, Math.abs(v));
      voicedEnergy += v * v;
      voicedSamples++;
    }
  }
  const crestDb = voicedSamples
    ? round1(20 * Math.log10(voicedPeak + EPS) - powDb(voicedEnergy / voicedSamples))
    : 0;

  const truePeak = measureTruePeakDb(channels, () => onProgress?.(0.95));
  onProgress?.(1);
  return {
    sampleRate,
    durationSeconds: n / sampleRate,
    genre,
    noiseFloorDb: round1(noiseFloorDb),
    noisePrint: { fftSize: size, sampleRate, magnitudesDb, frames: noiseFrames },
    breaths,
    sibilance: {
      loHz: Math.round(loHz),
      hiHz: Math.round(hiHz),
      peakHz: Math.round(peakHz),
      hotDb: round1(hotDb),
      frames: sibFrames,
      vowelMedianDb: round1(vowelVoiced.length ? percentile(vowelVoiced, 50) : noiseFloorDb),
    },
    phrases,
    words,
    phraseMedianDb: round1(phraseMedianDb),
    phraseSpreadDb: round1(phraseSpreadDb),
    balance,
    truePeakDbtp: Number.isFinite(truePeak) ? round1(truePeak) : -140,
    clipped: clippedRuns(x, sampleRate),
    crestDb,
    voicing: { hopSeconds, classes, levelsDb: Array.from(levels, round1) },
  };
};
