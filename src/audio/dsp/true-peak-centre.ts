import { GRID_MISS, TRUE_PEAK_TAPS, TRUE_PEAK_TAPS_PER_PHASE } from './true-peak';

/**
 * A cheap upper bound of the true-peak detector (true-peak.ts) for whole blocks: the loudness target's
 * block pruning (loudness-target.ts) rules blocks out with it before running the full interpolator.
 */

const M = TRUE_PEAK_TAPS_PER_PHASE;
const HALF = M / 2;

/**
 * The centre of the interpolator: taps CENTRE_FROM .. M - 1 - CENTRE_FROM of each phase (the four folded pairs
 * nearest the output point). What the other taps add to a phase's value is at most TRUE_PEAK_TAIL_L1 times the
 * largest |x| in the window, so |centre value| + that is a rigorous upper bound of the full value at a quarter
 * of the work: callers use it to rule out blocks before running the full interpolator (BlockTruePeaks).
 */
const CENTRE_FROM = HALF - 4;
const isCentre = (k: number) => k >= CENTRE_FROM && k < M - CENTRE_FROM;
/** The largest sum of |taps| outside the centre, over the phases. */
export const TRUE_PEAK_TAIL_L1 = Math.max(
  ...TRUE_PEAK_TAPS.map((row) => row.reduce((a, v, k) => (isCentre(k) ? a : a + Math.abs(v)), 0)),
);
/** Folded centre coefficients of pair j (taps k = CENTRE_FROM + j and M - 1 - k): phase 0 and 1, sum and difference. */
export const CENTRE = (() => {
  const pairs = HALF - CENTRE_FROM;
  const out = new Float64Array(pairs * 4);
  for (let j = 0; j < pairs; j++) {
    const k = CENTRE_FROM + j;
    const [h0, h1] = [TRUE_PEAK_TAPS[0]!, TRUE_PEAK_TAPS[1]!];
    out[j * 4] = h0[k]! + h0[M - 1 - k]!;
    out[j * 4 + 1] = h0[k]! - h0[M - 1 - k]!;
    out[j * 4 + 2] = h1[k]! + h1[M - 1 - k]!;
    out[j * 4 + 3] = h1[k]! - h1[M - 1 - k]!;
  }
  return out;
})();

/**
 * The largest |value| of the centre taps alone over the four phases, for input indices [from, to) of `x`
 * (x[i - M + 1 + CENTRE_FROM] .. x[i - CENTRE_FROM] must exist). Same phase alignment as interpolatePeaks.
 */
export const centrePeak = (x: Float32Array, from: number, to: number): number => {
  const c = CENTRE;
  const [s0, d0, s1, d1, s2, d2, s3, d3] = [c[0]!, c[1]!, c[4]!, c[5]!, c[8]!, c[9]!, c[12]!, c[13]!];
  const [t0, e0, t1, e1, t2, e2, t3, e3] = [c[2]!, c[3]!, c[6]!, c[7]!, c[10]!, c[11]!, c[14]!, c[15]!];
  const near = CENTRE_FROM;
  const far = M - 1 - CENTRE_FROM;
  let best = 0;
  for (let i = from; i < to; i++) {
    const a0 = x[i - near]!;
    const b0 = x[i - far]!;
    const a1 = x[i - near - 1]!;
    const b1 = x[i - far + 1]!;
    const a2 = x[i - near - 2]!;
    const b2 = x[i - far + 2]!;
    const a3 = x[i - near - 3]!;
    const b3 = x[i - far + 3]!;
    const u0 = a0 + b0;
    const w0 = a0 - b0;
    const u1 = a1 + b1;
    const w1 = a1 - b1;
    const u2 = a2 + b2;
    const w2 = a2 - b2;
    const u3 = a3 + b3;
    const w3 = a3 - b3;
    // p0 +- p3 and p1 +- p2, as in interpolatePeaks.
    const s03 = s0 * u0 + s1 * u1 + s2 * u2 + s3 * u3;
    const d03 = d0 * w0 + d1 * w1 + d2 * w2 + d3 * w3;
    const s12 = t0 * u0 + t1 * u1 + t2 * u2 + t3 * u3;
    const d12 = e0 * w0 + e1 * w1 + e2 * w2 + e3 * w3;
    const a = Math.abs(s03) + Math.abs(d03);
    const b = Math.abs(s12) + Math.abs(d12);
    const v = a > b ? a : b;
    if (v > best) best = v;
  }
  // max(|p0|, |p3|) = (|s03| + |d03|) / 2, and the same for p1, p2.
  return best * 0.5;
};

/**
 * Upper bound of the detector's output (oversampled values, their parabolic refinement, the samples) for
 * outputs whose centre values reach at most `centre` and whose windows hold |x| <= `windowMax`.
 */
export const truePeakBound = (centre: number, windowMax: number): number =>
  Math.max(windowMax, GRID_MISS * (centre + TRUE_PEAK_TAIL_L1 * windowMax));
