import { describe, expect, it } from 'vitest';
import { measureLoudness } from '../dsp/loudness';
import { platformById, platformPlayback } from '../dsp/platform-loudness';
import { musicLike } from '../dsp/test-signals';
import { inProcessWorker } from './in-process-worker.test-helper';
import { PlatformClient } from './platform-client';
import { createPlatformHandlers } from './platform-handlers';
import type { PlatformApi } from './platform-protocol';

const factory = inProcessWorker<PlatformApi>(createPlatformHandlers);

const RATE = 44_100;

describe('Spotify Loud preview', () => {
  it('applies the gain Spotify Loud asks for and holds the peaks at its -1 dB limiter', async () => {
    const master = musicLike({ seconds: 10, sampleRate: RATE });
    const before = measureLoudness(master, RATE);
    const row = platformPlayback(platformById('spotify-loud'), before.integratedLufs, before.truePeakDbtp);
    // musicLike sits near -19 LUFS with peaks near -8 dBTP: +8 dB to -11 LUFS puts the peaks over -1 dB.
    expect(row.gainDb).toBeGreaterThan(6);
    expect(row.limiterOverDb).toBeGreaterThan(0);
    const progress: number[] = [];
    const out = await new PlatformClient(factory).spotifyLoud(master, RATE, row.gainDb, {
      onProgress: (f) => progress.push(f),
    });
    expect(out.channels[0]).not.toBe(master[0]);
    // The limiter keeps the true peak at -1 dBTP (our limiter's margin keeps it a little under).
    expect(out.loudness.truePeakDbtp).toBeLessThanOrEqual(-1 + 0.05);
    expect(out.loudness.truePeakDbtp).toBeGreaterThan(-1.5);
    // The limiter takes loudness back, never more than its deepest reduction (the overshoot plus its margin).
    expect(out.loudness.integratedLufs).toBeGreaterThan(row.playedLufs - row.limiterOverDb - 0.2);
    expect(out.loudness.integratedLufs).toBeLessThanOrEqual(row.playedLufs + 0.01);
    expect(measureLoudness(out.channels, RATE).integratedLufs).toBeCloseTo(out.loudness.integratedLufs, 6);
    expect(progress.at(-1)).toBe(1);
  });

  it('refuses an empty buffer with a clear error', async () => {
    await expect(new PlatformClient(factory).spotifyLoud([new Float32Array(0)], RATE, 3)).rejects.toThrow(
      /empty audio buffer/,
    );
  });
});
