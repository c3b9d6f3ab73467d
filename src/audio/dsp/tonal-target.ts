/**
 * The target tonal curve (decision 111): the long-term 1/3-octave band levels a balanced master has,
 * relative to its own level. Unweighted, like the analysis (track-analysis.ts).
 *
 * Base: piecewise linear in log frequency through TARGET_ANCHORS (band level re 1 kHz): a plateau from
 * 63 to 200 Hz, about -2 dB/octave from 200 Hz to 1 kHz and -4.5 dB/octave above, a gentle roll-off under
 * 63 Hz. Derived from eleven produced tracks measured here (mean slope 200 Hz-10 kHz -3.6 dB/octave,
 * range -1.9..-4.8) and the widely cited -4.5 dB/octave of mastered music, which these masters show above
 * 1 kHz (decision 111). The preset's tilt turns the curve around 1 kHz.
 */
import { THIRD_OCTAVE_CENTRES } from './track-analysis';

/** [Hz, dB re 1 kHz] */
export const TARGET_ANCHORS: readonly (readonly [number, number])[] = [
  [31.5, -0.5],
  [40, 1.5],
  [50, 3],
  [63, 4],
  [100, 4.5],
  [200, 4.5],
  [1000, 0],
  [16000, -18],
];
/**
 * Bands the tone match looks at: below 40 Hz the chain's 30 Hz high-pass rules; the 16 kHz band is left out
 * because lossy codecs (MP3, Vorbis) cut there and a missing band says nothing about the mix.
 */
export const MATCH_LOW_HZ = 39;
export const MATCH_HIGH_HZ = 12600;

export const targetCurveDb = (hz: number, tiltDbPerOctave = 0): number => {
  const a = TARGET_ANCHORS;
  let i = 0;
  while (i < a.length - 2 && hz > a[i + 1]![0]) i++;
  const [f0, d0] = a[i]!;
  const [f1, d1] = a[i + 1]!;
  const base = d0 + ((d1 - d0) * Math.log2(hz / f0)) / Math.log2(f1 / f0);
  return base + tiltDbPerOctave * Math.log2(hz / 1000);
};

/** Indices of THIRD_OCTAVE_CENTRES the match uses. */
export const MATCH_BANDS: readonly number[] = THIRD_OCTAVE_CENTRES.flatMap((fc, k) =>
  fc >= MATCH_LOW_HZ && fc <= MATCH_HIGH_HZ ? [k] : [],
);

/** A band this far under the curve holds no content (e.g. above a lossy codec's cutoff): it is left out. */
export const EMPTY_BAND_DB = 24;

/**
 * Band levels minus the target, with the overall level removed (the mean over the matched bands is 0):
 * positive where the track is louder than the curve. Empty bands (silent, or more than EMPTY_BAND_DB under
 * the rest) read NaN and take no part in the mean.
 */
export const deviationFromTarget = (levelsDb: readonly number[], tiltDbPerOctave = 0): number[] =>
  deviationFromCurve(
    levelsDb,
    THIRD_OCTAVE_CENTRES.map((fc) => targetCurveDb(fc, tiltDbPerOctave)),
  ).deviation;

/**
 * The same against any curve on the 1/3-octave grid (a reference track's spectrum); `offset` given: the
 * level difference to remove instead of the mean (the side is measured against the mid's offset, so a
 * width difference shows as a level difference of the side).
 */
export const deviationFromCurve = (
  levelsDb: readonly number[],
  curveDb: readonly number[],
  offset?: number,
): { deviation: number[]; offset: number } => {
  const raw = THIRD_OCTAVE_CENTRES.map((_, k) => levelsDb[k]! - curveDb[k]!);
  const meanOf = (values: number[]) =>
    values.length > 0 ? values.reduce((s, v) => s + v, 0) / values.length : 0;
  const finite = MATCH_BANDS.map((k) => raw[k]!).filter(Number.isFinite);
  const first = offset ?? meanOf(finite);
  const used = offset ?? meanOf(finite.filter((v) => v - first > -EMPTY_BAND_DB));
  return {
    deviation: raw.map((v) => (Number.isFinite(v) && v - used > -EMPTY_BAND_DB ? v - used : Number.NaN)),
    offset: used,
  };
};

/** RMS of the deviation over the matched bands, dB: the "how far from the target" figure. */
export const rmsDeviationDb = (levelsDb: readonly number[], tiltDbPerOctave = 0): number => {
  const d = deviationFromTarget(levelsDb, tiltDbPerOctave);
  const values = MATCH_BANDS.map((k) => d[k]!).filter(Number.isFinite);
  return Math.sqrt(values.reduce((s, v) => s + v * v, 0) / Math.max(1, values.length));
};
