import { describe, expect, it } from 'vitest';
import { measureFoldDown } from './mono-fold-down';
import { shapedNoise, sine } from './test-signals';

const RATE = 48_000;

describe('mono fold-down', () => {
  it('loses nothing on a centred (mono) signal', () => {
    const f = measureFoldDown(sine(RATE, 5, 1000, -20), RATE);
    expect(f.correlation).toBeCloseTo(1, 6);
    expect(f.monoLossDb).toBeCloseTo(0, 2);
  });

  it('loses 3 dB on uncorrelated channels (the mid carries half the power)', () => {
    const left = shapedNoise({ log2Frames: 18, seed: 1 })[0]!;
    const right = shapedNoise({ log2Frames: 18, seed: 2 })[0]!;
    const f = measureFoldDown([left, right], RATE);
    expect(Math.abs(f.correlation)).toBeLessThan(0.05);
    expect(f.monoLossDb).toBeGreaterThan(2.7);
    expect(f.monoLossDb).toBeLessThan(3.3);
  });

  it('cancels out-of-phase channels completely', () => {
    const [l] = sine(RATE, 5, 1000, -20);
    const f = measureFoldDown([l!, l!.map((v) => -v)], RATE);
    expect(f.correlation).toBeCloseTo(-1, 6);
    expect(f.monoLossDb).toBe(Number.POSITIVE_INFINITY);
  });
});
