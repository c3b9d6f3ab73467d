import { describe, expect, it } from 'vitest';
import { computePeaks, PEAK_ZOOM_LEVELS } from '../dsp/peaks';
import { inProcessWorker } from './in-process-worker.test-helper';
import { PeaksClient } from './peaks-client';
import { createPeaksHandlers } from './peaks-handlers';
import type { PeaksApi } from './peaks-protocol';

const factory = inProcessWorker<PeaksApi>(createPeaksHandlers);

describe('PeaksClient over the peaks handlers', () => {
  it('returns every zoom level, equal to computing them in place, with progress', async () => {
    const signal = [
      Float32Array.from({ length: 3_000_000 }, (_, i) => Math.sin(i / 50) * ((i % 7919) / 7919)),
    ];
    const reference = await computePeaks(signal);
    const progress: number[] = [];
    const client = new PeaksClient(factory);
    const levels = await client.peaks(signal, { onProgress: (f) => progress.push(f) });
    expect(levels.map((l) => l.samplesPerPeak)).toEqual([...PEAK_ZOOM_LEVELS]);
    for (const [k, level] of levels.entries()) {
      expect(level.min).toEqual(reference[k]!.min);
      expect(level.max).toEqual(reference[k]!.max);
    }
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
    client.dispose();
  });
});
