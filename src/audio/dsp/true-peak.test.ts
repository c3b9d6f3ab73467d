import { describe, expect, it } from 'vitest';
import { HISTORY, interpolatePeaks, TRUE_PEAK_DELAY, TRUE_PEAK_TAP_L1, TRUE_PEAK_TAPS } from './true-peak';

/** The four phases straight from the table, without folding, unrolling or refinement. */
const reference = (x: Float32Array, i: number): number[] =>
  TRUE_PEAK_TAPS.map((row) => row.reduce((sum, tap, k) => sum + tap * x[i - k]!, 0));

describe('true-peak interpolator', () => {
  it('the unrolled kernel computes the table: never under the plain polyphase maximum, at most the refinement over it', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31 - 0.5;
    };
    const n = 4000;
    const x = new Float32Array(HISTORY + n);
    for (let k = 0; k < x.length; k++) x[k] = rand();
    const out = new Float64Array(n);
    interpolatePeaks(x, HISTORY, HISTORY + n, out, 0);
    let refined = 0;
    for (let j = 0; j < n; j++) {
      const i = HISTORY + j;
      const plain = Math.max(...reference(x, i).map(Math.abs), Math.abs(x[i - TRUE_PEAK_DELAY]!));
      // A refined maximum at the last grid point of the previous input is reported with this one.
      const around = Math.max(plain, ...reference(x, i - 1).map(Math.abs));
      expect(out[j]!).toBeGreaterThanOrEqual(plain - 1e-9);
      expect(out[j]!).toBeLessThanOrEqual(around / Math.cos(Math.PI / 8) + 1e-9);
      if (out[j]! > plain + 1e-9) refined++;
    }
    // The parabola only adds where a grid maximum sits between two grid points, not everywhere.
    expect(refined).toBeGreaterThan(0);
    expect(refined).toBeLessThan(n);
  });

  it('phases mirror each other and each has unity gain at DC', () => {
    for (const row of TRUE_PEAK_TAPS) expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect([...TRUE_PEAK_TAPS[3]!]).toEqual([...TRUE_PEAK_TAPS[0]!].reverse());
    expect([...TRUE_PEAK_TAPS[2]!]).toEqual([...TRUE_PEAK_TAPS[1]!].reverse());
    expect(TRUE_PEAK_TAP_L1).toBeGreaterThan(2);
  });
});
