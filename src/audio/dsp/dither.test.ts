import { describe, expect, it } from 'vitest';
import { DEFAULT_DITHER_SEED, ditherKey, hash32, TpdfDither, tpdfAt } from './dither';

const N = 400_000;
const key = ditherKey(DEFAULT_DITHER_SEED);

describe('TPDF dither (counter-based)', () => {
  it('has the triangular density on (-1, 1): mean 0, variance 1/6, histogram within chi-square bounds', () => {
    const bins = 40;
    const counts = new Float64Array(bins);
    let sum = 0;
    let sq = 0;
    let min = 0;
    let max = 0;
    for (let i = 0; i < N; i++) {
      const d = tpdfAt(key, i);
      sum += d;
      sq += d * d;
      min = Math.min(min, d);
      max = Math.max(max, d);
      counts[Math.min(bins - 1, Math.floor(((d + 1) / 2) * bins))]!++;
    }
    expect(min).toBeGreaterThan(-1);
    expect(max).toBeLessThan(1);
    expect(Math.abs(sum / N)).toBeLessThan(0.003);
    expect(sq / N).toBeCloseTo(1 / 6, 2);
    // Expected share of bin b of the triangle |x| < 1: the integral of (1 - |x|) over it.
    const cdf = (x: number) => (x < 0 ? (1 + x) ** 2 / 2 : 1 - (1 - x) ** 2 / 2);
    let chi2 = 0;
    for (let b = 0; b < bins; b++) {
      const expected = N * (cdf(-1 + (2 * (b + 1)) / bins) - cdf(-1 + (2 * b) / bins));
      chi2 += (counts[b]! - expected) ** 2 / expected;
    }
    // 39 degrees of freedom: the 99.9th percentile is 72.1.
    expect(chi2).toBeLessThan(72.1);
  });

  it('draws its two uniforms independently: the 16 x 16 joint histogram of the hash halves is flat', () => {
    const counts = new Float64Array(256);
    for (let i = 0; i < N; i++) {
      const h = hash32((key + i) | 0);
      counts[((h >>> 28) << 4) | ((h >>> 12) & 15)]!++;
    }
    const expected = N / 256;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    // 255 degrees of freedom: the 99.9th percentile is 330.5.
    expect(chi2).toBeLessThan(330.5);
  });

  it('is white: neighbouring values (the two channels of a frame, and frame to frame) are uncorrelated', () => {
    for (const lag of [1, 2, 3]) {
      let xy = 0;
      let xx = 0;
      for (let i = 0; i < N; i++) {
        const a = tpdfAt(key, i);
        xy += a * tpdfAt(key, i + lag);
        xx += a * a;
      }
      // The standard error of a correlation over N samples is 1/sqrt(N) = 0.0016.
      expect(Math.abs(xy / xx)).toBeLessThan(0.008);
    }
  });

  it('as a stream gives tpdfAt in counter order, from anywhere it is sought to; seeds give other noise', () => {
    const stream = new TpdfDither(7);
    const first = Array.from({ length: 1000 }, () => stream.next());
    expect(first).toEqual(Array.from({ length: 1000 }, (_, i) => tpdfAt(ditherKey(7), i)));
    expect(stream.index).toBe(1000);
    const sought = new TpdfDither(7).seek(123_456);
    expect(sought.next()).toBe(tpdfAt(ditherKey(7), 123_456));
    const other = new TpdfDither(8);
    const same = first.filter((v) => v === other.next()).length;
    expect(same).toBeLessThan(10);
  });
});
