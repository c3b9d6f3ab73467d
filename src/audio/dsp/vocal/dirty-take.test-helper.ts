/**
 * Issue 26's test take, built as the issue describes: espeak-ng speech full of "s" sounds, the second
 * sentence 8 dB quieter, steady hiss at about -50 dBFS and mains hum, breaths (noise bursts) between the phrases, and an
 * instrumental (a bass line and a kick) that stays below the voice's bands. Node only (espeak-ng, ffmpeg).
 */
import { espeakVocal } from '../vocal-space.test-helper';

export const SIBILANT_LINES = [
  'Sister Suzy sells sixty six silver sea shells, so she says.',
  'Sometimes the sun sets slowly, its soft sparkle passing the silent city.',
  'Six sleek swans swam swiftly southwards, seeking safety.',
];

/** Deterministic white noise (a small LCG), so every run measures the same take. */
export const noise = (n: number, seed = 1): Float32Array => {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    const a = s / 4_294_967_296;
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    const b = s / 4_294_967_296;
    // Sum of two uniforms, scaled to unit RMS (variance of a uniform difference is 1/6).
    out[i] = (a - b) * Math.sqrt(6);
  }
  return out;
};

export interface DirtyTake {
  /** The dirty vocal, mono. */
  vocal: Float32Array;
  /** The clean voice alone with its phrase levels (no hiss, no breaths): the reference for "voice". */
  clean: Float32Array;
  /** The hiss alone, as added. */
  hiss: Float32Array;
  instrumental: [Float32Array, Float32Array];
  sampleRate: number;
  /** Where each sentence sits, seconds. */
  phrases: { start: number; end: number; gainDb: number }[];
  breaths: { start: number; end: number }[];
}

export const HISS_DBFS = -50;
export const QUIET_PHRASE_DB = -8;
export const HUM_DBFS = -56;

/** The take at `sampleRate`, or null when espeak-ng or ffmpeg is missing. */
export const dirtyTake = async (sampleRate = 44_100): Promise<DirtyTake | null> => {
  const pause = 1.2;
  const spoken = await espeakVocal(SIBILANT_LINES, sampleRate, pause);
  if (!spoken) return null;
  const src = spoken[0]!;
  const n = src.length;
  // Find the sentences: runs of signal separated by the pauses espeakVocal put in.
  const phrases: DirtyTake['phrases'] = [];
  const hop = Math.round(sampleRate * 0.05);
  let start = -1;
  let lastLoud = -1;
  for (let i = 0; i < n; i += hop) {
    let peak = 0;
    for (let j = i; j < Math.min(n, i + hop); j++) peak = Math.max(peak, Math.abs(src[j]!));
    if (peak > 1e-3) {
      if (start < 0) start = i;
      lastLoud = i + hop;
    } else if (start >= 0 && i - lastLoud > sampleRate * 0.6) {
      phrases.push({ start: start / sampleRate, end: lastLoud / sampleRate, gainDb: 0 });
      start = -1;
    }
  }
  if (start >= 0) phrases.push({ start: start / sampleRate, end: lastLoud / sampleRate, gainDb: 0 });
  // Level the take: peaks of the voice near -6 dBFS, the second sentence 8 dB under the others.
  let peak = 0;
  for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs(src[i]!));
  const norm = 0.5 / peak;
  const clean = new Float32Array(n);
  for (const [k, p] of phrases.entries()) {
    p.gainDb = k === 1 ? QUIET_PHRASE_DB : 0;
    const g = norm * 10 ** (p.gainDb / 20);
    const a = Math.max(0, Math.round(p.start * sampleRate) - hop);
    const b = Math.min(n, Math.round(p.end * sampleRate) + hop);
    for (let i = a; i < b; i++) clean[i] = src[i]! * g;
  }
  // Breaths: 350 ms band-limited noise bursts (a one-pole low-pass of white noise) just before phrases
  // two and three, at about -38 dBFS RMS.
  const vocal = Float32Array.from(clean);
  const breaths: DirtyTake['breaths'] = [];
  const burst = noise(Math.round(0.35 * sampleRate), 7);
  for (const p of phrases.slice(1)) {
    const end = p.start - 0.15;
    const startS = end - 0.35;
    breaths.push({ start: startS, end });
    const a = Math.round(startS * sampleRate);
    let lp = 0;
    for (let i = 0; i < burst.length; i++) {
      lp += 0.3 * (burst[i]! - lp);
      const env = Math.sin((Math.PI * i) / burst.length);
      vocal[a + i]! += lp * env * 10 ** (-32 / 20);
    }
  }
  // Steady hiss at -50 dBFS RMS, and mains hum (60 Hz with its odd harmonics) about -56 dBFS: both are the
  // "noise" of the take (kept in `hiss`, so the musical-noise measure sees all of it).
  const hiss = noise(n, 3);
  const hissGain = 10 ** (HISS_DBFS / 20);
  const humGain = 10 ** (HUM_DBFS / 20) * Math.SQRT2;
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    const hum =
      humGain *
      (Math.sin(2 * Math.PI * 60 * t) +
        0.5 * Math.sin(2 * Math.PI * 180 * t) +
        0.25 * Math.sin(2 * Math.PI * 300 * t));
    hiss[i] = hiss[i]! * hissGain + hum;
    vocal[i]! += hiss[i]!;
  }
  // The instrumental below the voice's bands: a 55 Hz bass with a 110 Hz partial and a decaying 50 Hz kick
  // on every beat at 100 BPM.
  const left = new Float32Array(n);
  const beat = Math.round((60 / 100) * sampleRate);
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    const k = (i % beat) / sampleRate;
    left[i] =
      0.25 * Math.sin(2 * Math.PI * 55 * t) +
      0.08 * Math.sin(2 * Math.PI * 110 * t) +
      0.4 * Math.exp(-k * 18) * Math.sin(2 * Math.PI * 50 * k);
  }
  return { vocal, clean, hiss, instrumental: [left, Float32Array.from(left)], sampleRate, phrases, breaths };
};
