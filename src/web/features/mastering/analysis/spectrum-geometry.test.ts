import { describe, expect, it } from 'vitest';
import { dbRange, stepPath, xOf, yOf } from './spectrum-geometry';

describe('spectrum picture geometry', () => {
  it('puts frequencies on a log axis: 20 Hz left, 20 kHz right, 632 Hz in the middle', () => {
    expect(xOf(20, 300)).toBe(0);
    expect(xOf(20_000, 300)).toBeCloseTo(300, 9);
    expect(xOf(Math.sqrt(20 * 20_000), 300)).toBeCloseTo(150, 9);
  });

  it('fits the dB axis to both curves and draws each band as a step', () => {
    const original = [{ lowHz: 20, highHz: 60, levelDb: -30 }];
    const master = [{ lowHz: 20, highHz: 60, levelDb: -20 }];
    const range = dbRange([original, master]);
    expect(range).toEqual({ top: -17, bottom: -33 });
    expect(yOf(-17, range, 100)).toBe(0);
    expect(yOf(-33, range, 100)).toBe(100);
    expect(yOf(-99, range, 100)).toBe(100);
    const path = stepPath(master, 300, 100, range);
    expect(path[0]![0]).toBe(0);
    expect(path[1]![0]).toBeCloseTo(xOf(60, 300), 9);
    expect(path[0]![1]).toBeCloseTo(18.75, 9);
    // No finite level: a flat default range.
    expect(dbRange([[{ lowHz: 20, highHz: 60, levelDb: Number.NEGATIVE_INFINITY }]])).toEqual({
      top: 0,
      bottom: -60,
    });
  });
});
