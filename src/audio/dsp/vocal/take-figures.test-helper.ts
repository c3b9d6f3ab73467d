/**
 * Issue 26's figures for a mix of the dirty take (dirty-take.test-helper.ts), measured as the issue states
 * them (vocal-measures.test-helper.ts), in one place for the unit tests that run the mixdown in Node and the
 * end-to-end test that measures the file the mixer page downloads. Plus an independent reading of the hiss
 * figure through sox's own band-pass and plain RMS over the same windows.
 */
import { soxBand } from '../vocal-space.test-helper';
import type { DirtyTake } from './dirty-take.test-helper';
import {
  phraseLevelsDb,
  type Range,
  sibilantOverVowelsDb,
  voiceBandDb,
  voiceOverHissDb,
} from './vocal-measures.test-helper';

/** The hiss window: the pause before the first phrase, where no reverb or delay of the voice rings yet. */
export const hissWindows = (t: Pick<DirtyTake, 'phrases'>): Range[] => [
  { start: 0.05, end: t.phrases[0]!.start - 0.1 },
];

/** The mid (L + R) / 2 of a stereo mix: the centred voice. */
export const mixMid = (channels: readonly Float32Array[]): Float32Array => {
  const [l, r = l] = channels as [Float32Array, Float32Array?];
  return Float32Array.from(l, (v, i) => 0.5 * (v + r[i]!));
};

export interface TakeFigures {
  /** Sibilant peaks (98th percentile, 5-10 kHz) over the vowels' median (300 Hz-3 kHz), dB. */
  sibilantDb: number;
  /** Loudest phrase minus quietest, dB (300 Hz-10 kHz). */
  spreadDb: number;
  /** Voice (1-10 kHz in the phrases) over the hiss (the same band in the pause), dB. */
  voiceOverHissDb: number;
  /** The voice's 1-4 kHz level in the phrases, dB. */
  voiceBandDb: number;
  phraseDb: number[];
}

export const takeFigures = (
  x: Float32Array,
  sampleRate: number,
  t: Pick<DirtyTake, 'phrases'>,
): TakeFigures => {
  const phraseDb = phraseLevelsDb(x, sampleRate, t.phrases);
  return {
    sibilantDb: sibilantOverVowelsDb(x, sampleRate, t.phrases),
    spreadDb: Math.max(...phraseDb) - Math.min(...phraseDb),
    voiceOverHissDb: voiceOverHissDb(x, sampleRate, t.phrases, hissWindows(t)),
    voiceBandDb: voiceBandDb(x, sampleRate, t.phrases),
    phraseDb,
  };
};

const meanPowerDb = (x: Float32Array, sampleRate: number, ranges: readonly Range[]): number => {
  let sum = 0;
  let count = 0;
  for (const r of ranges) {
    const a = Math.max(0, Math.round(r.start * sampleRate));
    const b = Math.min(x.length, Math.round(r.end * sampleRate));
    for (let i = a; i < b; i++) sum += x[i]! * x[i]!;
    count += Math.max(0, b - a);
  }
  return 10 * Math.log10(sum / Math.max(1, count) + 1e-30);
};

/**
 * The voice-over-hiss figure read independently: sox's linear-phase FIR band-pass (`sinc 1000-10000`), then
 * the plain mean power of the samples in the phrases over that in the pause, dB.
 */
export const soxVoiceOverHissDb = async (
  x: Float32Array,
  sampleRate: number,
  t: Pick<DirtyTake, 'phrases'>,
): Promise<number> => {
  const [band] = await soxBand([x], sampleRate, 1000, 10_000);
  return meanPowerDb(band!, sampleRate, t.phrases) - meanPowerDb(band!, sampleRate, hissWindows(t));
};
