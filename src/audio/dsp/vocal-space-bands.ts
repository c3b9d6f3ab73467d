/**
 * Vocal space (decision 155): its four bands over the vocal's 1-5 kHz, their filters and response, the
 * profile type and the tuning constants of the carve. The processor is in vocal-space.ts.
 */

import { BiquadCascade, type BiquadCoefficients, designBiquad } from './biquad';

/** The vocal's band, Hz. */
export const VOCAL_BAND_HZ = { low: 1000, high: 5000 } as const;
export const VOCAL_SPACE_BANDS = 4;
/** The deepest cut, dB, at amount 100 ("at most a few dB"). */
export const MAX_CUT_DB = 5;

/** Band k spans VOCAL_BAND.low * RATIO^k .. RATIO^(k+1): 1000, 1495, 2236, 3344, 5000 Hz. */
export const RATIO = (VOCAL_BAND_HZ.high / VOCAL_BAND_HZ.low) ** (1 / VOCAL_SPACE_BANDS);
export const VOCAL_SPACE_EDGES_HZ: readonly number[] = Array.from(
  { length: VOCAL_SPACE_BANDS + 1 },
  (_, k) => VOCAL_BAND_HZ.low * RATIO ** k,
);
export const CENTRES_HZ = VOCAL_SPACE_EDGES_HZ.slice(0, -1).map((f) => f * Math.sqrt(RATIO));
/** Q whose -3 dB points are the band edges. */
export const BAND_Q = Math.sqrt(RATIO) / (RATIO - 1);

export const CONTROL = 32;
/** Envelope (mean square) time constant of the detectors. */
export const DETECT_MS = 20;
/** Cut smoothing: fast in (a syllable's onset), slower out (no pumping between syllables). */
export const ATTACK_MS = 15;
export const RELEASE_MS = 120;
/** The singing gate opens over this many dB above the threshold. */
export const GATE_RANGE_DB = 6;
/** The beat's masking margin: full cut when the beat is >= MASK_FULL_DB above the vocal in a band, none at
 * MASK_NONE_DB (the vocal already 6 dB clear). */
export const MASK_FULL_DB = 6;
export const MASK_NONE_DB = -6;
/**
 * Below this the releasing cut snaps to exactly 0 dB (gain exactly 1: the bypass is bit-exact), about
 * 0.55 s after the vocal stops; a 0.05 dB step, ramped over CONTROL frames, is inaudible.
 */
export const SNAP_DB = 0.05;
export const TINY = 1e-20;

/** What the analysis of the whole vocal stem found; the live path gets the same one as the render. */
export interface VocalSpaceProfile {
  /** Per band 0..1: how much of the vocal lives there (1 for its strongest band, 0 for >= 18 dB below). */
  weights: number[];
  /**
   * Vocal-band level (mean square of the mono band signal, dBFS) above which the vocal counts as singing;
   * +Infinity when the vocal never sings (then nothing is carved).
   */
  singingThresholdDb: number;
}

export const SILENT_VOCAL_PROFILE: VocalSpaceProfile = {
  weights: Array.from({ length: VOCAL_SPACE_BANDS }, () => 0),
  singingThresholdDb: Number.POSITIVE_INFINITY,
};

export const vocalSpaceBandDesigns = (sampleRate: number): BiquadCoefficients[] =>
  CENTRES_HZ.map((frequency) => designBiquad({ kind: 'bandpass', frequency, q: BAND_Q }, sampleRate));

/** Complex response [re, im] of a band-pass section (b1 = 0) at `hz`. */
export const bandpassAt = (c: BiquadCoefficients, hz: number, sampleRate: number): [number, number] => {
  const w = (2 * Math.PI * hz) / sampleRate;
  const nr = c.b0 + c.b2 * Math.cos(2 * w);
  const ni = -c.b2 * Math.sin(2 * w);
  const dr = 1 + c.a1 * Math.cos(w) + c.a2 * Math.cos(2 * w);
  const di = -(c.a1 * Math.sin(w) + c.a2 * Math.sin(2 * w));
  const d = dr * dr + di * di;
  return [(nr * dr + ni * di) / d, (ni * dr - nr * di) / d];
};

/**
 * Neighbouring band-passes overlap: with every band at the same depth the parallel sum peaks above one
 * (about 1.5 between the centres), so each band's share is divided by that peak. A uniform cut of D dB then
 * lowers the deepest frequency by exactly D dB and nowhere more.
 */
export const bandSumPeak = (designs: readonly BiquadCoefficients[], sampleRate: number): number => {
  let peak = 1;
  for (let i = 0; i <= 400; i++) {
    const hz = VOCAL_BAND_HZ.low * (VOCAL_BAND_HZ.high / VOCAL_BAND_HZ.low) ** (i / 400);
    let re = 0;
    for (const c of designs) re += bandpassAt(c, hz, sampleRate)[0];
    peak = Math.max(peak, re);
  }
  return peak;
};

/**
 * The carve's static response in dB at `hz` for per-band gains `gains` (1 = no cut): what the processor
 * does to a steady beat (for tests and the decision record).
 */
export const vocalSpaceResponseDb = (gains: readonly number[], hz: number, sampleRate: number): number => {
  const designs = vocalSpaceBandDesigns(sampleRate);
  const share = 1 / bandSumPeak(designs, sampleRate);
  let re = 1;
  let im = 0;
  designs.forEach((c, k) => {
    const [hr, hi] = bandpassAt(c, hz, sampleRate);
    re -= (1 - gains[k]!) * share * hr;
    im -= (1 - gains[k]!) * share * hi;
  });
  return 10 * Math.log10(re * re + im * im);
};

/** The mono sum of `channels[..][start..end)` into `out[0..end-start)`. */
export const monoInto = (
  out: Float32Array,
  channels: readonly Float32Array[],
  start: number,
  end: number,
): void => {
  const n = end - start;
  const count = channels.length;
  if (count === 0) {
    out.fill(0, 0, n);
    return;
  }
  const a = channels[0]!;
  if (count === 1) {
    out.set(a.subarray(start, end));
    return;
  }
  const b = channels[1]!;
  for (let i = 0; i < n; i++) out[i] = 0.5 * (a[start + i]! + b[start + i]!);
};

/**
 * One-channel band filters over their own copies of a signal, two at a time side by side
 * (BiquadCascade.processLanes: one in each SIMD lane, the same samples as one at a time; decision 270).
 */
export const filterBandPairs = (
  filters: readonly BiquadCascade[],
  bands: readonly Float32Array[],
  n: number,
) => {
  let k = 0;
  for (; k + 1 < filters.length; k += 2)
    BiquadCascade.processLanes(filters[k]!, bands[k]!, filters[k + 1]!, bands[k + 1]!, 0, n);
  if (k < filters.length) filters[k]!.process(bands[k]!, 0, 0, n);
};
