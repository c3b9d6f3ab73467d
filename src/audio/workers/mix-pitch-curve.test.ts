import { describe, expect, it } from 'vitest';
import { DEFAULT_PITCH_SETTINGS } from '../../shared/pitch-settings';
import { inProcessWorker } from './in-process-worker.test-helper';
import { MixClient } from './mix-client';
import { createMixHandlers } from './mix-handlers';
import type { MixApi } from './mix-protocol';

const factory = inProcessWorker<MixApi>(createMixHandlers);

const SR = 22_050;
/** A 220 Hz harmonic tone 30 cents sharp: its detected curve sits at A3 + 0.3, its corrected one on A3. */
const sharpA3 = () => {
  const hz = 220 * 2 ** (30 / 1200);
  return Float32Array.from({ length: 2 * SR }, (_, i) => {
    let v = 0;
    for (let h = 1; h <= 6; h++) v += Math.sin((2 * Math.PI * hz * h * i) / SR) / h;
    return 0.2 * v;
  });
};

describe('the mix worker serves the pitch view its curves', () => {
  it('returns detected, target and corrected curves with progress, and null without a vocal', async () => {
    const client = new MixClient(factory);
    expect(await client.pitchCurve({ ...DEFAULT_PITCH_SETTINGS, amount: 100 })).toBeNull();
    await client.setSource('vocals', [sharpA3()], SR);
    const progress: number[] = [];
    const view = await client.pitchCurve(
      { ...DEFAULT_PITCH_SETTINGS, amount: 100, humanize: 0, retuneMs: 0 },
      { onProgress: (f) => progress.push(f) },
    );
    expect(view).not.toBeNull();
    const mid = Math.floor(view!.detected.length / 2);
    expect(view!.detected[mid]).toBeCloseTo(57.3, 2);
    expect(view!.target[mid]).toBe(57);
    expect(view!.corrected[mid]).toBeCloseTo(57, 3);
    expect(progress.at(-1)).toBe(1);
    client.dispose();
  });

  it('cancels a running analysis through its AbortSignal', async () => {
    const client = new MixClient(factory);
    await client.setSource('vocals', [sharpA3()], SR);
    const abort = new AbortController();
    const job = client.pitchCurve({ ...DEFAULT_PITCH_SETTINGS, amount: 100 }, { signal: abort.signal });
    abort.abort();
    await expect(job).rejects.toMatchObject({ name: 'AbortError' });
    client.dispose();
  });
});
