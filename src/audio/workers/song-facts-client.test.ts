import { describe, expect, it } from 'vitest';
import { analyzeSongFacts } from '../dsp/song-facts/analyze';
import { inProcessWorker } from './in-process-worker.test-helper';
import { SongFactsClient } from './song-facts-client';
import { createSongFactsHandlers } from './song-facts-handlers';
import type { SongFactsApi } from './song-facts-protocol';

const factory = inProcessWorker<SongFactsApi>(createSongFactsHandlers);

/** Two minutes of a 100 BPM pulse: a low thump on each downbeat, noise ticks on every beat. */
const pulse = (): Float32Array => {
  const rate = 44100;
  const out = new Float32Array(rate * 120);
  for (let b = 0; b * 0.6 * rate < out.length; b++) {
    const start = Math.round(b * 0.6 * rate);
    for (let i = 0; i < 1500 && start + i < out.length; i++) {
      const tick = Math.sin(i * 1.7) * Math.sin(i * 0.31) * Math.exp(-i / 200) * 0.4;
      const thump = b % 4 === 0 ? Math.sin((2 * Math.PI * 55 * i) / rate) * Math.exp(-i / 1200) : 0;
      out[start + i] = tick + thump;
    }
  }
  return out;
};

describe('SongFactsClient over the song-facts handlers', () => {
  it('returns what the analysis gives in place, with progress up to 1', async () => {
    const signal = [pulse()];
    const reference = await analyzeSongFacts(signal, 44100);
    const progress: number[] = [];
    const client = new SongFactsClient(factory);
    const { facts } = await client.analyze(signal, 44100, { onProgress: (f) => progress.push(f) });
    // Moved to the worker, not cloned (a clone of a long beat is one long task on the page).
    expect(signal[0]!.byteLength).toBe(0);
    expect(facts).toEqual(reference.facts);
    expect(Math.abs(facts.tempoBpm - 100)).toBeLessThan(1);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
    client.dispose();
  });

  it('stops when cancelled', async () => {
    const client = new SongFactsClient(factory);
    const controller = new AbortController();
    const run = client.analyze([pulse()], 44100, {
      signal: controller.signal,
      onProgress: (f) => {
        if (f > 0.1) controller.abort();
      },
    });
    await expect(run).rejects.toThrow();
    client.dispose();
  });
});
