/**
 * Issue 26 through the mix worker's protocol: the vocal's analysis is served (with progress) and kept, the
 * mixdown with a genre runs the adaptive chain through all seven stages exactly as renderMix does, the
 * previews carry the genre, and a mixdown can be cancelled inside the chain.
 */
import { describe, expect, it } from 'vitest';
import type { TimelineClip } from '../model/clip';
import { analyseMixVocal, renderMix } from '../render/mix-render';
import { inProcessWorker } from './in-process-worker.test-helper';
import { MixClient } from './mix-client';
import { createMixHandlers } from './mix-handlers';
import type { MixApi } from './mix-protocol';

const factory = inProcessWorker<MixApi>(createMixHandlers);

const SR = 22_050;
/** A voice-like buzz in three phrases with hiss between, and a bass line. */
const voice = (() => {
  const n = 6 * SR;
  const out = new Float32Array(n);
  let s = 9;
  for (let i = 0; i < n; i++) {
    const t = i / SR;
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    const on = t % 2 > 0.5 && t % 2 < 1.6;
    let v = 0;
    if (on) for (let h = 1; h <= 8; h++) v += Math.sin(2 * Math.PI * 180 * h * t) / h;
    out[i] = (t > 2 && t < 4 ? 0.05 : 0.15) * v + 0.002 * (s / 4_294_967_296 - 0.5);
  }
  return [out];
})();
const inst = [
  Float32Array.from({ length: 6 * SR }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 55 * i) / SR)),
  Float32Array.from({ length: 6 * SR }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 82 * i) / SR)),
];
const clips: TimelineClip[] = [
  { id: 'v', trackType: 'vocals', sourceStart: 0, sourceEnd: voice[0]!.length, position: 0 },
  { id: 'i', trackType: 'instrumental', sourceStart: 0, sourceEnd: inst[0]!.length, position: 0 },
];
const timeline = { clips, sampleRate: SR, length: 6 * SR, tempoBpm: 92 };
const settings = { vocalShare: 75, outputVolume: 90, genre: 'rnb' as const };

describe('the adaptive vocal chain through the mix worker', { timeout: 120_000 }, () => {
  it('analyses the vocal, mixes it through the chain like renderMix, previews with the genre', async () => {
    const client = new MixClient(factory);
    await client.setSource('vocals', voice, SR);
    await client.setSource('instrumental', inst, SR);
    const fractions: number[] = [];
    const analysis = await client.analyseVocal(timeline, 'rnb', { onProgress: (f) => fractions.push(f) });
    expect(analysis?.phrases.length).toBe(3);
    expect(fractions.at(-1)).toBe(1);
    const stages = new Set<string>();
    const viaWorker = await client.mixdown(timeline, settings, { onProgress: (p) => stages.add(p.stage) });
    expect(stages.size).toBe(7);
    const input = {
      vocals: { channels: voice, sampleRate: SR },
      instrumental: { channels: inst, sampleRate: SR },
      ...timeline,
    };
    const reference = await renderMix({ ...input, vocalAnalysis: analyseMixVocal(input, 'rnb')! }, settings);
    expect(viaWorker.channels[0]).toEqual(reference.channels[0]);
    expect(viaWorker.report.vocalChain?.genre).toBe('rnb');
    expect(viaWorker.report.vocalChain?.delaySeconds).toBeCloseTo((0.75 * 60) / 92, 2);
    // The quiet middle phrase is ridden up.
    expect(viaWorker.report.vocalChain?.ridingMaxDb).toBeGreaterThan(3);
    const fixed = await client.previews(timeline, { start: SR, length: 2 * SR }, 80, {
      styles: ['balanced'],
    });
    const chained = await client.previews(timeline, { start: SR, length: 2 * SR }, 80, {
      styles: ['balanced'],
      genre: 'rnb',
    });
    expect(chained[0]!.channels[0]!.length).toBe(2 * SR);
    expect(chained[0]!.channels[0]).not.toEqual(fixed[0]!.channels[0]);
    client.dispose();
  });

  it('cancels a mixdown inside the chain', async () => {
    const client = new MixClient(factory);
    await client.setSource('vocals', voice, SR);
    await client.setSource('instrumental', inst, SR);
    const controller = new AbortController();
    const job = client.mixdown(timeline, settings, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.stage === 'eq') controller.abort();
      },
    });
    await expect(job).rejects.toThrow(/abort/i);
    client.dispose();
  });
});
