/**
 * Issue 26, level riding before the compressor (decision 181): a gain curve, decided from the analysis'
 * phrases and words, that brings each phrase to the take's median phrase level and each word half way to its
 * phrase's level. Pauses and breaths are never ridden up (their gain is at most 0 dB), the range is limited,
 * and the curve is smoothed forwards and backwards (so it starts moving before a phrase, like a hand on a
 * fader that knows the song) and read per sample by linear interpolation between 10 ms points.
 */
import { FRAME_BREATH, type VocalAnalysis } from './analyse-vocal';

export interface RideOptions {
  /** Most the rider lifts and lowers, dB. */
  maxUpDb: number;
  maxDownDb: number;
  /** How far a word moves toward its phrase's level (0..1). */
  wordAmount?: number;
  /** Smoothing time constant, seconds. */
  smoothSeconds?: number;
}

export interface RideCurve {
  hopSeconds: number;
  /** Gain per 10 ms point, dB. */
  gainsDb: Float32Array;
  minDb: number;
  maxDb: number;
  /** The gains as linear factors, made on first use. */
  linear?: Float32Array;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export const rideCurve = (analysis: VocalAnalysis, options: RideOptions): RideCurve => {
  const { hopSeconds, classes } = analysis.voicing;
  const frames = classes.length;
  const target = analysis.phraseMedianDb;
  const wordAmount = options.wordAmount ?? 0.5;
  const raw = new Float32Array(frames);
  // Inside a phrase the gaps between words ride with it (else the hiss between words would pump); outside
  // the phrases, and on breaths anywhere, the gain is at most 0 dB.
  const rideable = (f: number) => inPhrase[f] === 1 && classes[f] !== FRAME_BREATH;
  const phraseGain = new Float32Array(frames);
  const inPhrase = new Uint8Array(frames);
  for (const p of analysis.phrases) {
    const g = clamp(target - p.levelDb, -options.maxDownDb, options.maxUpDb);
    const a = Math.max(0, Math.round(p.start / hopSeconds));
    const b = Math.min(frames, Math.round(p.end / hopSeconds));
    for (let f = a; f < b; f++) {
      phraseGain[f] = g;
      inPhrase[f] = 1;
    }
  }
  const wordGain = new Float32Array(frames);
  for (const w of analysis.words) {
    const a = Math.max(0, Math.round(w.start / hopSeconds));
    const b = Math.min(frames, Math.round(w.end / hopSeconds));
    const mid = Math.min(frames - 1, (a + b) >> 1);
    // The word's phrase level is the phrase gain's complement at the word's middle.
    const phraseLevel = target - phraseGain[mid]!;
    const g = clamp(wordAmount * (phraseLevel - w.levelDb), -4, 4);
    for (let f = a; f < b; f++) wordGain[f] = g;
  }
  for (let f = 0; f < frames; f++) {
    const g = clamp(phraseGain[f]! + wordGain[f]!, -options.maxDownDb, options.maxUpDb);
    raw[f] = rideable(f) ? g : Math.min(0, g);
  }
  // Forward-backward one-pole smoothing: zero phase, so the curve leads the phrase as much as it trails it.
  const k = 1 - Math.exp(-hopSeconds / (options.smoothSeconds ?? 0.04));
  const out = Float32Array.from(raw);
  for (let f = 1; f < frames; f++) out[f] = out[f - 1]! + k * (out[f]! - out[f - 1]!);
  for (let f = frames - 2; f >= 0; f--) out[f] = out[f + 1]! + k * (out[f]! - out[f + 1]!);
  // The smoothing carries a lift a little into the pauses: clamp again so noise and breaths are never
  // raised there (the per-sample interpolation still turns the step into a 10 ms ramp).
  for (let f = 0; f < frames; f++) if (!rideable(f)) out[f] = Math.min(out[f]!, 0);
  let minDb = 0;
  let maxDb = 0;
  for (let f = 0; f < frames; f++) {
    minDb = Math.min(minDb, out[f]!);
    maxDb = Math.max(maxDb, out[f]!);
  }
  return { hopSeconds, gainsDb: out, minDb, maxDb };
};

/** Apply the curve to `x[start..end)`, where sample i is at (i + offset) / sampleRate on the curve's clock. */
export const applyRide = (
  x: Float32Array,
  curve: RideCurve,
  sampleRate: number,
  start: number,
  end: number,
  offset = 0,
): void => {
  // Linear gains at the 10 ms points (one power per point, not per sample), interpolated per sample.
  const gains = curve.linear ?? Float32Array.from(curve.gainsDb, (db) => 10 ** (db / 20));
  curve.linear = gains;
  const last = gains.length - 1;
  if (last < 0) return;
  const step = 1 / (curve.hopSeconds * sampleRate);
  for (let i = start; i < end; i++) {
    const pos = (i + offset) * step;
    const f = Math.min(last, Math.floor(pos));
    const g = f >= last ? gains[last]! : gains[f]! + (pos - f) * (gains[f + 1]! - gains[f]!);
    if (g !== 1) x[i]! *= g;
  }
};
