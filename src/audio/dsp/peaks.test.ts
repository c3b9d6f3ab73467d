import { describe, expect, it } from 'vitest';
import { computePeaks } from './peaks';

describe('peaks', () => {
  it('gives min/max over all channels per block, at every zoom level', async () => {
    const left = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i / 10) * 0.5);
    const right = Float32Array.from({ length: 1000 }, (_, i) => (i === 777 ? 0.9 : i === 5 ? -0.95 : 0));
    const levels = await computePeaks([left, right], [10, 20, 100], undefined, 7);
    expect(levels.map((l) => [l.samplesPerPeak, l.min.length])).toEqual([
      [10, 100],
      [20, 50],
      [100, 10],
    ]);
    // Brute-force reference for every level.
    for (const level of levels) {
      for (let p = 0; p < level.min.length; p++) {
        const from = p * level.samplesPerPeak;
        const block = [left, right].flatMap((c) => Array.from(c.subarray(from, from + level.samplesPerPeak)));
        expect(level.min[p]).toBe(Math.fround(Math.min(...block)));
        expect(level.max[p]).toBe(Math.fround(Math.max(...block)));
      }
    }
    expect(levels[2]!.max[7]).toBeCloseTo(0.9, 6);
    expect(levels[2]!.min[0]).toBeCloseTo(-0.95, 6);
  });

  it('handles a partial last block and reports progress to 1', async () => {
    const progress: number[] = [];
    const [level] = await computePeaks([new Float32Array([0.1, -0.2, 0.3])], [2], (f) => {
      progress.push(f);
    });
    expect(Array.from(level!.max)).toEqual([Math.fround(0.1), Math.fround(0.3)]);
    expect(progress.at(-1)).toBe(1);
  });

  it('refuses zoom levels that do not fold', async () => {
    await expect(computePeaks([new Float32Array(4)], [3, 4])).rejects.toThrow(/multiple/);
  });
});
