import { afterEach, describe, expect, it } from 'vitest';
import { computePeaks, PEAK_ZOOM_LEVELS } from '../dsp/peaks';
import { PeaksClient } from './peaks-client';
import { createPeaksHandlers } from './peaks-handlers';
import type { PeaksApi } from './peaks-protocol';
import { type RpcEndpoint, serveRpc } from './worker-rpc';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});
const factory = () => {
  const channel = new MessageChannel();
  ports.push(channel.port1, channel.port2);
  serveRpc<PeaksApi>(channel.port2 as unknown as RpcEndpoint, createPeaksHandlers());
  return channel.port1 as unknown as Worker;
};

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
