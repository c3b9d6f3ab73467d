/**
 * The album's per-track figures from the 1/3-octave analysis (mid, long-term): tilt and low end as band
 * regions against the low mids, each region's level the mean power per band (so regions of different
 * widths compare). The tilt's regions are decision 213's (4-16 kHz minus 250 Hz-1 kHz).
 */
import { THIRD_OCTAVE_CENTRES } from '../dsp/track-analysis';

const regionDb = (levelsDb: readonly number[], lowHz: number, highHz: number): number => {
  let power = 0;
  let bands = 0;
  THIRD_OCTAVE_CENTRES.forEach((fc, k) => {
    // Nominal centres (10^(k/10)) sit a hair off the round figures: 0.5 % tolerance.
    if (fc < lowHz * 0.995 || fc > highHz * 1.005) return;
    const v = levelsDb[k]!;
    if (Number.isFinite(v)) power += 10 ** (v / 10);
    bands++;
  });
  return bands > 0 && power > 0 ? 10 * Math.log10(power / bands) : Number.NEGATIVE_INFINITY;
};

/** 4-16 kHz minus 250 Hz-1 kHz, dB (lower: duller). */
export const tiltDb = (midDb: readonly number[]): number =>
  regionDb(midDb, 4000, 16000) - regionDb(midDb, 250, 1000);

/** 40-125 Hz minus 250 Hz-1 kHz, dB. */
export const lowEndDb = (midDb: readonly number[]): number =>
  regionDb(midDb, 40, 125) - regionDb(midDb, 250, 1000);

export const median = (values: readonly number[]): number => {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
