import { afterEach, describe, expect, it } from 'vitest';
import type { TimelineClip } from '../model/clip';
import { MIX_ERRORS, renderMix } from '../render/mix-render';
import { MixClient } from './mix-client';
import { createMixHandlers } from './mix-handlers';
import type { MixApi } from './mix-protocol';
import { type RpcEndpoint, serveRpc, WorkerCrashedError } from './worker-rpc';

/** The mix handlers served over a MessageChannel stand in for the Worker (Node has no module workers). */
const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});
const spawned: MessagePort[] = [];
const factory = () => {
  const channel = new MessageChannel();
  ports.push(channel.port1, channel.port2);
  serveRpc<MixApi>(channel.port2 as unknown as RpcEndpoint, createMixHandlers());
  spawned.push(channel.port1);
  return channel.port1 as unknown as Worker;
};

const SR = 22_050;
const tone = (seconds: number, f: number, gain: number) =>
  Float32Array.from(
    { length: Math.round(seconds * SR) },
    (_, i) => gain * Math.sin((2 * Math.PI * f * i) / SR),
  );
const vocals = [tone(3, 220, 0.2)];
const inst = [tone(4, 110, 0.4), tone(4, 165, 0.3)];
const clips: TimelineClip[] = [
  { id: 'v', trackType: 'vocals', sourceStart: 0, sourceEnd: vocals[0]!.length, position: SR },
  { id: 'i', trackType: 'instrumental', sourceStart: 0, sourceEnd: inst[0]!.length, position: 0 },
];
const timeline = { clips, sampleRate: SR, length: 6 * SR };
const settings = { vocalShare: 75, outputVolume: 90 };

const direct = () =>
  renderMix(
    {
      vocals: { channels: vocals, sampleRate: SR },
      instrumental: { channels: inst, sampleRate: SR },
      ...timeline,
    },
    settings,
  );

describe('MixClient over the mix handlers', () => {
  it('sends sources in slices and renders exactly what renderMix renders', async () => {
    const client = new MixClient(factory, { chunkSamples: 10_000 });
    await client.setSource('vocals', vocals, SR);
    await client.setSource('instrumental', inst, SR);
    const stages = new Set<string>();
    const viaWorker = await client.mixdown(timeline, settings, { onProgress: (p) => stages.add(p.stage) });
    const reference = await direct();
    expect(stages.size).toBe(7);
    expect(viaWorker.channels[0]).toEqual(reference.channels[0]);
    expect(viaWorker.channels[1]).toEqual(reference.channels[1]);
    // The page's arrays were copied, not taken.
    expect(vocals[0]!.length).toBe(3 * SR);
    client.dispose();
  });

  it('renders the stems of the same mixdown: the same mix, and vocals + instrumental = the mix', async () => {
    const client = new MixClient(factory);
    await client.setSource('vocals', vocals, SR);
    await client.setSource('instrumental', inst, SR);
    const { channels, stems } = await client.stems(timeline, { vocalShare: 75, outputVolume: 100 });
    const mixdown = await client.mixdown(timeline, { vocalShare: 75, outputVolume: 100 });
    expect(channels[0]).toEqual(mixdown.channels[0]);
    let worst = 0;
    for (let c = 0; c < 2; c++) {
      for (let i = 0; i < channels[c]!.length; i++) {
        const sum = stems.vocals[c]![i]! + stems.instrumental[c]![i]!;
        worst = Math.max(worst, Math.abs(channels[c]![i]! - sum));
      }
    }
    // Both buses carry sound (the vocal starts at 1 s).
    expect(stems.vocals[0]!.some((v) => Math.abs(v) > 0.01)).toBe(true);
    expect(stems.instrumental[1]!.some((v) => Math.abs(v) > 0.01)).toBe(true);
    expect(worst).toBeLessThan(1e-6);
    client.dispose();
  });

  it('refuses a mixdown without both sources', async () => {
    const client = new MixClient(factory);
    await client.setSource('vocals', vocals, SR);
    await expect(client.mixdown(timeline, settings)).rejects.toThrow(MIX_ERRORS.missingBuffers);
    client.dispose();
  });

  it('after a crash, a new worker gets the sources again and the next mixdown works', async () => {
    const client = new MixClient(factory, { chunkSamples: 30_000 });
    await client.setSource('vocals', vocals, SR);
    await client.setSource('instrumental', inst, SR);
    const first = client.mixdown(timeline, settings);
    spawned.at(-1)!.dispatchEvent(new Event('error'));
    await expect(first).rejects.toBeInstanceOf(WorkerCrashedError);
    const before = spawned.length;
    const again = await client.mixdown(timeline, settings);
    expect(spawned.length).toBe(before + 1);
    expect(again.channels[0]).toEqual((await direct()).channels[0]);
    client.dispose();
  });

  it('cancels a mixdown and renders previews of the three styles', async () => {
    const client = new MixClient(factory);
    await client.setSource('vocals', vocals, SR);
    await client.setSource('instrumental', inst, SR);
    const controller = new AbortController();
    const job = client.mixdown(timeline, settings, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.stage === 'pan') controller.abort();
      },
    });
    await expect(job).rejects.toThrow(/abort/i);
    const previews = await client.previews(timeline, { start: SR, length: 2 * SR }, 80);
    expect(previews.map((p) => [p.style, p.channels[0]!.length])).toEqual([
      ['vocals-forward', 2 * SR],
      ['balanced', 2 * SR],
      ['instrumental-forward', 2 * SR],
    ]);
    client.dispose();
  });

  it("takes the previews' loudness for the mixdown of the same sources, with the same bits, never a stale one", async () => {
    const client = new MixClient(factory);
    await client.setSource('vocals', vocals, SR);
    await client.setSource('instrumental', inst, SR);
    await client.previews(timeline, { start: SR, length: 2 * SR }, 80);
    const after = await client.mixdown(timeline, settings);
    const reference = await direct();
    expect(after.report).toEqual(reference.report);
    expect(after.channels[0]).toEqual(reference.channels[0]);
    expect(after.channels[1]).toEqual(reference.channels[1]);
    // A new vocal (6 dB louder) after the previews: the mixdown measures it, not the previews' figure.
    const louder = [vocals[0]!.map((v) => 2 * v)];
    await client.setSource('vocals', louder, SR);
    const fresh = await client.mixdown(timeline, settings);
    const expected = await renderMix(
      {
        vocals: { channels: louder, sampleRate: SR },
        instrumental: { channels: inst, sampleRate: SR },
        ...timeline,
      },
      settings,
    );
    expect(fresh.report.vocalsLufs).toBeCloseTo(reference.report.vocalsLufs + 6.02, 1);
    expect(fresh.channels[0]).toEqual(expected.channels[0]);
    client.dispose();
  });
});
