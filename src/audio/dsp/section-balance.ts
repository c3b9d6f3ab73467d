/**
 * How a track's balance moves between its sections, and what a tone EQ would do to its loudness range
 * (decision 218). A broad EQ changes each section's loudness by a different amount when the sections differ
 * in balance: on hr-domina-mountain the genre's tone EQ alone took the LRA from 6.5 to 3.8 LU (its loud
 * parts live in the mids it cut), under the LRA rule (decision 116). The analysis keeps the mid's level per
 * octave in 1 s blocks; the plan then foresees the range after an EQ from those blocks, as BS.1770/EBU 3342
 * would measure it (3 s windows, relative gate, 10th to 95th percentile), and takes the correction only as
 * far as it keeps the range.
 */
import { BiquadCascade, designBiquad } from './biquad';

/** Octave centres of the section balance (the tone EQ's and the genre targets' octaves). */
export const SECTION_OCTAVES_HZ: readonly number[] = [63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000];
/** The K-weighting's gain at each octave centre (BS.1770's high-pass and high shelf). */
const K_WEIGHT_DB = [-1.3, -0.4, 0, 0, 0.1, 0.9, 3.1, 3.9, 4.0];
const BLOCK_SECONDS = 1;
const WINDOW_BLOCKS = 3;
const RELATIVE_GATE_LU = 20;

/** The channels' summed power (dB) per octave in 1 s blocks: rows are blocks, columns SECTION_OCTAVES_HZ. */
export const sectionOctavesDb = (channels: readonly Float32Array[], sampleRate: number): number[][] => {
  const n = channels[0]?.length ?? 0;
  const block = Math.round(BLOCK_SECONDS * sampleRate);
  const blocks = Math.floor(n / block);
  if (blocks === 0) return [];
  const rows = Array.from({ length: blocks }, () => SECTION_OCTAVES_HZ.map(() => 0));
  const band = new Float32Array(n);
  // Both channels, as the loudness meter sums them: a wide quiet part is as loud as the meter hears it.
  for (const channel of channels) {
    SECTION_OCTAVES_HZ.forEach((hz, o) => {
      if (hz >= sampleRate / 2.2) return;
      const filter = new BiquadCascade(1, 1);
      filter.setSection(0, designBiquad({ kind: 'bandpass', frequency: hz, q: Math.SQRT2 }, sampleRate));
      band.set(channel);
      filter.process(band, 0);
      for (let b = 0; b < blocks; b++) {
        let sum = 0;
        for (let i = b * block; i < (b + 1) * block; i++) sum += band[i]! * band[i]!;
        rows[b]![o]! += sum / block;
      }
    });
  }
  return rows.map((row) => row.map((p) => (p > 0 ? 10 * Math.log10(p) : -Infinity)));
};

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))]!;

/** The loudness range (LU) the sections would have after octave moves `movesDb` (none: as they are). */
export const predictedRangeLu = (
  sections: readonly (readonly number[])[],
  movesDb: readonly number[] = [],
): number => {
  const power = sections.map((row) =>
    row.reduce(
      (sum, db, o) =>
        sum + (Number.isFinite(db) ? 10 ** ((db + K_WEIGHT_DB[o]! + (movesDb[o] ?? 0)) / 10) : 0),
      0,
    ),
  );
  const windows: number[] = [];
  for (let w = 0; w + WINDOW_BLOCKS <= power.length; w++) {
    let sum = 0;
    for (let b = w; b < w + WINDOW_BLOCKS; b++) sum += power[b]!;
    if (sum > 0) windows.push(10 * Math.log10(sum / WINDOW_BLOCKS));
  }
  if (windows.length < 2) return 0;
  const mean = 10 * Math.log10(windows.reduce((s, l) => s + 10 ** (l / 10), 0) / windows.length);
  const gated = windows.filter((l) => l > mean - RELATIVE_GATE_LU).sort((a, b) => a - b);
  return gated.length < 2 ? 0 : percentile(gated, 0.95) - percentile(gated, 0.1);
};

/**
 * The share (0..1) of the correction `movesFor(share)` that keeps at least `keep` of the sections' range:
 * 1 when the whole correction keeps it, else the largest share that does (bisection, 1/64 steps).
 */
export const rangeSafeShare = (
  sections: readonly (readonly number[])[],
  movesFor: (share: number) => readonly number[],
  keep: number,
): number => {
  const before = predictedRangeLu(sections);
  if (before <= 0) return 1;
  const keeps = (share: number) => predictedRangeLu(sections, movesFor(share)) >= keep * before;
  if (keeps(1)) return 1;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 6; i++) {
    const mid = (lo + hi) / 2;
    if (keeps(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
};
