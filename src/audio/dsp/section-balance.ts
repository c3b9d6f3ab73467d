/**
 * How a track's balance moves between its sections, and what a tone EQ would do to its loudness range
 * (decision 218). A broad EQ changes each section's loudness by a different amount when the sections differ
 * in balance: on hr-domina-mountain the genre's tone EQ alone took the LRA from 6.5 to 3.8 LU (its loud
 * parts live in the mids it cut), under the LRA rule (decision 116). The analysis keeps the mid's level per
 * octave in 1 s blocks; the plan then foresees the range after an EQ from those blocks, as BS.1770/EBU 3342
 * would measure it (3 s windows, relative gate, 10th to 95th percentile), and takes the correction only as
 * far as it keeps the range.
 */
import { type BiquadCoefficients, designBiquad } from './biquad';

/** Octave centres of the section balance (the tone EQ's and the genre targets' octaves). */
export const SECTION_OCTAVES_HZ: readonly number[] = [63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000];
/** The K-weighting's gain at each octave centre (BS.1770's high-pass and high shelf). */
const K_WEIGHT_DB = [-1.3, -0.4, 0, 0, 0.1, 0.9, 3.1, 3.9, 4.0];
const BLOCK_SECONDS = 1;
const WINDOW_BLOCKS = 3;
const RELATIVE_GATE_LU = 20;

/** The channels' summed power (dB) per octave in 1 s blocks: rows are blocks, columns SECTION_OCTAVES_HZ. */
export const sectionOctavesDb = (
  channels: readonly Float32Array[],
  sampleRate: number,
  /** Called between blocks (a worker's pause point, workers/pause-gate.ts). */
  checkpoint?: () => void,
): number[][] => {
  const n = channels[0]?.length ?? 0;
  const block = Math.round(BLOCK_SECONDS * sampleRate);
  const blocks = Math.floor(n / block);
  if (blocks === 0) return [];
  const rows = Array.from({ length: blocks }, () => SECTION_OCTAVES_HZ.map(() => 0));
  // Both channels, as the loudness meter sums them: a wide quiet part is as loud as the meter hears it.
  // Each octave's band-pass runs on two channels at once and sums its squares as it goes (one pass, no copy
  // of the track per band): the arithmetic of a BiquadCascade section (float64 state, output stored as
  // float32 before it is squared), and each block adds channel 0's power before channel 1's, as one
  // channel's pass after the other did (section-balance.test.ts holds it to that, bit for bit).
  // Two octaves of a stereo pair in one loop: four independent recursions the CPU overlaps.
  const octaves = SECTION_OCTAVES_HZ.map((hz, o) => ({ hz, o })).filter(({ hz }) => hz < sampleRate / 2.2);
  const design = (hz: number) => designBiquad({ kind: 'bandpass', frequency: hz, q: Math.SQRT2 }, sampleRate);
  for (let ch = 0; ch < channels.length; ch += 2) {
    const left = channels[ch]!;
    const right = channels[ch + 1];
    for (let k = 0; k < octaves.length; k += right ? 2 : 1) {
      const a = octaves[k]!;
      const b = right ? octaves[k + 1] : undefined;
      if (right && b)
        addTwoBandPowers(design(a.hz), design(b.hz), left, right, block, blocks, rows, a.o, b.o, checkpoint);
      else addBandPowers(design(a.hz), left, right ?? null, block, blocks, rows, a.o, checkpoint);
    }
  }
  return rows.map((row) => row.map((p) => (p > 0 ? 10 * Math.log10(p) : -Infinity)));
};

/** addBandPowers for octaves oa and ob of a stereo pair at once (the same arithmetic, sums and order). */
const addTwoBandPowers = (
  ca: BiquadCoefficients,
  cb: BiquadCoefficients,
  left: Float32Array,
  right: Float32Array,
  block: number,
  blocks: number,
  rows: number[][],
  oa: number,
  ob: number,
  checkpoint?: () => void,
): void => {
  const { b0: a0, b1: a1, b2: a2, a1: p1, a2: p2 } = ca;
  const { b0: c0, b1: c1, b2: c2, a1: q1, a2: q2 } = cb;
  let al1 = 0;
  let al2 = 0;
  let ar1 = 0;
  let ar2 = 0;
  let bl1 = 0;
  let bl2 = 0;
  let br1 = 0;
  let br2 = 0;
  for (let blk = 0; blk < blocks; blk++) {
    checkpoint?.();
    let sal = 0;
    let sar = 0;
    let sbl = 0;
    let sbr = 0;
    const end = (blk + 1) * block;
    for (let i = blk * block; i < end; i++) {
      const xl = left[i]!;
      const xr = right[i]!;
      const yal = a0 * xl + al1;
      const yar = a0 * xr + ar1;
      const ybl = c0 * xl + bl1;
      const ybr = c0 * xr + br1;
      al1 = a1 * xl - p1 * yal + al2;
      ar1 = a1 * xr - p1 * yar + ar2;
      bl1 = c1 * xl - q1 * ybl + bl2;
      br1 = c1 * xr - q1 * ybr + br2;
      al2 = a2 * xl - p2 * yal;
      ar2 = a2 * xr - p2 * yar;
      bl2 = c2 * xl - q2 * ybl;
      br2 = c2 * xr - q2 * ybr;
      const fal = Math.fround(yal);
      const far = Math.fround(yar);
      const fbl = Math.fround(ybl);
      const fbr = Math.fround(ybr);
      sal += fal * fal;
      sar += far * far;
      sbl += fbl * fbl;
      sbr += fbr * fbr;
    }
    const row = rows[blk]!;
    row[oa] = row[oa]! + sal / block;
    row[oa] = row[oa]! + sar / block;
    row[ob] = row[ob]! + sbl / block;
    row[ob] = row[ob]! + sbr / block;
  }
};

/** Adds each block's mean square of the band-passed `left` (then `right`) to rows[b][o]. */
const addBandPowers = (
  c: BiquadCoefficients,
  left: Float32Array,
  right: Float32Array | null,
  block: number,
  blocks: number,
  rows: number[][],
  o: number,
  checkpoint?: () => void,
): void => {
  const { b0, b1, b2, a1, a2 } = c;
  let l1 = 0;
  let l2 = 0;
  let r1 = 0;
  let r2 = 0;
  for (let b = 0; b < blocks; b++) {
    checkpoint?.();
    let sumL = 0;
    let sumR = 0;
    const end = (b + 1) * block;
    if (right) {
      for (let i = b * block; i < end; i++) {
        const xl = left[i]!;
        const xr = right[i]!;
        const yl = b0 * xl + l1;
        const yr = b0 * xr + r1;
        l1 = b1 * xl - a1 * yl + l2;
        r1 = b1 * xr - a1 * yr + r2;
        l2 = b2 * xl - a2 * yl;
        r2 = b2 * xr - a2 * yr;
        const fl = Math.fround(yl);
        const fr = Math.fround(yr);
        sumL += fl * fl;
        sumR += fr * fr;
      }
    } else {
      for (let i = b * block; i < end; i++) {
        const xl = left[i]!;
        const yl = b0 * xl + l1;
        l1 = b1 * xl - a1 * yl + l2;
        l2 = b2 * xl - a2 * yl;
        const fl = Math.fround(yl);
        sumL += fl * fl;
      }
    }
    const row = rows[b]!;
    row[o] = row[o]! + sumL / block;
    if (right) row[o] = row[o]! + sumR / block;
  }
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
