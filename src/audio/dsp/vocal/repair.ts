/**
 * Issue 26, cleanup besides the noise reduction: clipped peaks redrawn, clicks removed, breaths lowered (not
 * removed: a breath cut to silence sounds edited). All in place, on the analysis' findings.
 */
import type { TimeRange } from './analyse-vocal';

/**
 * Redraw each clipped run with the cubic through the two good samples either side (Lagrange at a-2, a-1,
 * b, b+1): the wave's own curvature carries it over the flat top. Returns the runs repaired.
 */
export const repairClipped = (x: Float32Array, runs: readonly TimeRange[], sampleRate: number): number => {
  let repaired = 0;
  for (const r of runs) {
    const a = Math.round(r.start * sampleRate);
    const b = Math.round(r.end * sampleRate);
    if (a < 2 || b + 1 >= x.length || b - a > sampleRate * 0.01) continue;
    const ts = [a - 2, a - 1, b, b + 1];
    const ys = ts.map((t) => x[t]!);
    for (let i = a; i < b; i++) {
      let v = 0;
      for (let j = 0; j < 4; j++) {
        let l = ys[j]!;
        for (let m = 0; m < 4; m++) if (m !== j) l *= (i - ts[m]!) / (ts[j]! - ts[m]!);
        v += l;
      }
      // The redrawn top must still reach the clipped level (it was at least that loud) and stay in range
      // of what a voice does (at most twice it: the output limiter takes care of the rest).
      const sign = Math.sign(x[i]!) || 1;
      const mag = Math.min(Math.max(Math.abs(v), Math.abs(x[i]!)), 2 * Math.abs(x[i]!));
      x[i] = sign * mag;
    }
    repaired++;
  }
  return repaired;
};

/**
 * Clicks: samples whose second difference stands more than `ratio` times over the local (5 ms) mean
 * absolute second difference, one to four samples long; each is replaced by the line between its good
 * neighbours. Returns the clicks repaired.
 */
export const repairClicks = (x: Float32Array, sampleRate: number, ratio = 12): number => {
  const n = x.length;
  const w = Math.max(8, Math.round(sampleRate * 0.005));
  const d = new Float32Array(n);
  for (let i = 1; i < n - 1; i++) d[i] = Math.abs(x[i + 1]! - 2 * x[i]! + x[i - 1]!);
  let sum = 0;
  for (let i = 0; i < Math.min(n, 2 * w + 1); i++) sum += d[i]!;
  let clicks = 0;
  for (let i = w + 1; i < n - w - 6; i++) {
    sum += d[i + w]! - d[i - w - 1]!;
    const mean = sum / (2 * w + 1);
    if (d[i]! <= ratio * mean || d[i]! < 1e-3) continue;
    // Extent: the run of outstanding second differences (a click of k samples marks k + 2 of them).
    let j = i;
    while (j < i + 6 && d[j + 1]! > ratio * mean) j++;
    if (j - i > 5) continue;
    const a = i - 1;
    const b = j + 1;
    for (let k = a + 1; k < b; k++) x[k] = x[a]! + ((x[b]! - x[a]!) * (k - a)) / (b - a);
    for (let k = a; k <= b + 1 && k < n - 1; k++)
      if (k > 0) d[k] = Math.abs(x[k + 1]! - 2 * x[k]! + x[k - 1]!);
    clicks++;
    i = b;
  }
  return clicks;
};

/** Lower each breath by `db` (negative) with 15 ms ramps in and out. */
export const lowerBreaths = (
  x: Float32Array,
  breaths: readonly TimeRange[],
  sampleRate: number,
  db: number,
): void => {
  if (db >= 0) return;
  const g = 10 ** (db / 20);
  const ramp = Math.max(1, Math.round(0.015 * sampleRate));
  for (const r of breaths) {
    const a = Math.max(0, Math.round(r.start * sampleRate));
    const b = Math.min(x.length, Math.round(r.end * sampleRate));
    for (let i = a - ramp; i < b + ramp; i++) {
      if (i < 0 || i >= x.length) continue;
      const into = i < a ? (i - (a - ramp)) / ramp : i >= b ? (b + ramp - i) / ramp : 1;
      x[i]! *= 1 + (g - 1) * Math.min(1, Math.max(0, into));
    }
  }
};
